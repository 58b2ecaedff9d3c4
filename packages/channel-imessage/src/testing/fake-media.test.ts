import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeBlueBubbles, type FakeBlueBubbles } from "./index.js";

const CHAT = "iMessage;-;+15550001111";
let fake: FakeBlueBubbles;

beforeEach(async () => {
  fake = createFakeBlueBubbles({ maxFileBytes: 100 });
  await fake.start();
  fake.addChat({ guid: CHAT, participants: ["+15550001111"] });
});

afterEach(() => fake.close());

const url = (path: string, query: Record<string, string> = {}) =>
  `${fake.url}/api/v1${path}?${new URLSearchParams({ password: fake.password, ...query })}`;
const get = async (path: string, query?: Record<string, string>) => {
  const response = await fetch(url(path, query));
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
};
const post = async (path: string, body: FormData | object) => {
  const response = await fetch(url(path), {
    method: "POST",
    ...(body instanceof FormData
      ? { body }
      : { body: JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
};
const formOf = (fields: Record<string, string>, file?: { bytes: Uint8Array; name: string; type: string }) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append("attachment", new Blob([file.bytes], { type: file.type }), file.name);
  return form;
};
const errorOf = (answer: { json: Record<string, unknown> }) => (answer.json.error as { message?: string }).message;

describe("fake BlueBubbles: attachment downloads as AttachmentRouter.download serves them", () => {
  const heic = new Uint8Array([1, 2, 3]);
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff]);
  const sent = () =>
    fake.userSendsMedia({
      chatGuid: CHAT,
      from: "+15550001111",
      files: [
        {
          bytes: heic,
          transferName: "IMG.heic",
          mimeType: "image/heic",
          converted: { bytes: jpeg, mimeType: "image/jpeg", transferName: "IMG.heic.jpeg" },
        },
      ],
    });

  it("serves the converted file unless `original`, chunked with the type and no length, counting what it wrote", async () => {
    const guid = sent().attachments[0] as string;
    const converted = await get(`/attachment/${guid}/download`);
    expect(converted).toMatchObject({ status: 200, bytes: jpeg });
    expect(converted.headers.get("content-type")).toBe("image/jpeg");
    expect(converted.headers.get("content-length")).toBeNull();
    expect(await get(`/attachment/${guid}/download`, { original: "true" })).toMatchObject({ bytes: heic });
    expect(fake.state.bytesServed).toBe(jpeg.byteLength + heic.byteLength);
  });

  it("the webhook says the converted type and name, the original UTI and size", () => {
    const [file] = sent().data.attachments as Record<string, unknown>[];
    expect(file).toMatchObject({
      uti: "public.heic",
      mimeType: "image/jpeg",
      transferName: "IMG.heic.jpeg",
      totalBytes: 3,
    });
  });

  it("an unknown GUID: 404 with force=false; with force (the default) and the Private API, the server's TypeError", async () => {
    expect((await get("/attachment/AT_0_NONE/download", { force: "false" })).status).toBe(404);
    expect((await get("/attachment/AT_0_NONE/download")).status).toBe(500);
    expect((await fetch(`${fake.url}/api/v1/attachment/AT_0_NONE/download`)).status).toBe(401);
  });
});

describe("fake BlueBubbles: sending files as MessageValidator and MessageRouter take them", () => {
  const png = { bytes: new Uint8Array([137, 80, 78, 71]), name: "a.png", type: "image/png" };

  it("/message/attachment refuses as the validators do: AppleScript without tempGuid, no file, over maxFileSize", async () => {
    const base = { chatGuid: CHAT, name: "a.png" };
    expect(errorOf(await post("/message/attachment", formOf(base, png)))).toBe(
      "A 'tempGuid' is required when sending via AppleScript",
    );
    expect(errorOf(await post("/message/attachment", formOf({ ...base, tempGuid: "t1" })))).toBe(
      "Attachment not provided or was empty!",
    );
    const big = { ...png, bytes: new Uint8Array(101) };
    const over = await post("/message/attachment", formOf({ ...base, tempGuid: "t2" }, big));
    expect(over).toMatchObject({ status: 500, json: { message: "An unhandled error has occurred!" } });
    expect(errorOf(over)).toBe("maxFileSize exceeded, received 101 bytes of file data");
    expect(fake.messagesIn(CHAT)).toEqual([]);
  });

  it("/message/attachment sends the file as a message of its own and answers it; only the helper marks an audio message", async () => {
    const fields = { chatGuid: CHAT, name: "n.mp3", tempGuid: "t3", isAudioMessage: "true" };
    const mp3 = { bytes: new Uint8Array([0x49, 0x44, 0x33]), name: "n.mp3", type: "audio/mpeg" };
    const apple = await post("/message/attachment", formOf(fields, mp3));
    expect(apple).toMatchObject({
      status: 200,
      json: { message: "Attachment sent!", data: { isAudioMessage: false } },
    });
    const helper = await post("/message/attachment", formOf({ ...fields, tempGuid: "t4", method: "private-api" }, mp3));
    expect(helper.json.data).toMatchObject({
      isAudioMessage: true,
      attachments: [{ uti: "public.mp3", mimeType: "audio/mpeg" }],
    });
  });

  it("/attachment/upload needs the Private API and answers `<uuid>/<name>`; /message/multipart needs uploaded paths", async () => {
    const uploaded = await post("/attachment/upload", formOf({}, png));
    expect(uploaded.json).toEqual({
      status: 200,
      message: "Success",
      data: { path: expect.stringMatching(/^[\w-]+\/a\.png$/u) },
    });
    const path = (uploaded.json.data as { path: string }).path;
    const parts = [
      { partIndex: 0, attachment: path, name: "chart.png" },
      { partIndex: 1, text: "our chart" },
    ];
    const unknown = await post("/message/multipart", {
      chatGuid: CHAT,
      parts: [{ partIndex: 0, attachment: "x/y", name: "y" }],
    });
    expect(errorOf(unknown)).toBe("Attachment 'x/y' does not exist");
    const sent = await post("/message/multipart", { chatGuid: CHAT, tempGuid: "t5", parts });
    expect(sent.json).toMatchObject({ message: "Message sent!", data: { text: "\uFFFCour chart", tempGuid: "t5" } });
    fake.state.privateApi = false;
    const refused = await post("/attachment/upload", formOf({}, png));
    expect(refused).toMatchObject({ status: 500 });
    expect(errorOf(refused)).toBe("iMessage Private API is not enabled!");
  });
});
