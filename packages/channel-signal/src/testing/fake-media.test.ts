import { readFileSync } from "node:fs";
import { sampleMedium } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type FakePerson, FakeSignal, type FakeSignalOptions, shownKind } from "./index.js";

// The fake daemon's files, pinned against signal-cli's own rules (SOURCES.md): what every media test trusts.
let fake: FakeSignal;
let ann: FakePerson;

async function daemon(options: FakeSignalOptions = {}) {
  fake = new FakeSignal({ keepAliveMs: 0, ...options });
  await fake.start();
  ann = fake.state.addPerson({ number: "+15550002222", name: "Ann" });
}
afterEach(async () => {
  await fake?.close();
});

const post = (body: unknown) =>
  fetch(`${fake.url}/api/v1/rpc`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const rpc = async (method: string, params: Record<string, unknown>) =>
  (await (await post({ jsonrpc: "2.0", id: 7, method, params: { account: fake.account, ...params } })).json()) as {
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
    id: unknown;
  };
const uri = (type: string, name: string | undefined, bytes: Uint8Array) =>
  `data:${type}${name === undefined ? "" : `;filename=${name}`};base64,${Buffer.from(bytes).toString("base64")}`;

const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.slice(0, 1).map(shape)
    : value !== null && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
      : value === null
        ? "null"
        : typeof value;
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}.json`, import.meta.url), "utf8")) as {
    envelope: { dataMessage: Record<string, unknown> };
  };

describe("fake signal-cli: files people send", () => {
  it("stores them before the envelope, whose attachments have signal-cli's shape (isVoiceNote only where flagged)", async () => {
    await daemon({ voiceNoteFlag: true });
    const png = sampleMedium("image");
    const { envelope } = fake.people.sends({
      from: ann,
      text: "look",
      files: [
        { bytes: png.bytes, contentType: png.mime },
        { bytes: new Uint8Array([1]), contentType: "audio/aac", voiceNote: true },
      ],
    });
    const data = envelope.dataMessage as { attachments: { id: string; isVoiceNote: boolean }[] };
    const [photo, voice] = data.attachments;
    expect(photo?.id).toMatch(/^[\w-]{20}\.png$/);
    expect([photo?.isVoiceNote, voice?.isVoiceNote]).toEqual([false, true]);
    expect(shape(voice)).toEqual(
      shape((fixture("receive-voice-note").envelope.dataMessage.attachments as unknown[])[0]),
    );
    expect(fake.state.media.files.get(photo?.id as string)?.bytes).toEqual(png.bytes);
    const sticker = fake.people.sendsSticker({ from: ann, bytes: sampleMedium("sticker").bytes });
    expect(shape(sticker.envelope.dataMessage)).toEqual(shape(fixture("receive-sticker").envelope.dataMessage));
  });

  it("getAttachment answers the file as one base64 string with its length; an unknown id is signal-cli's -1", async () => {
    await daemon();
    const pdf = sampleMedium("file");
    const { envelope } = fake.people.sends({
      from: ann,
      text: null,
      files: [{ bytes: pdf.bytes, contentType: pdf.mime }],
    });
    const id = (envelope.dataMessage as { attachments: { id: string }[] }).attachments[0]?.id as string;
    const response = await post({
      jsonrpc: "2.0",
      id: 3,
      method: "getAttachment",
      params: { id, recipient: ann.uuid },
    });
    const text = await response.text();
    expect(text).toBe(`{"jsonrpc":"2.0","result":{"data":"${Buffer.from(pdf.bytes).toString("base64")}"},"id":3}`);
    expect(response.headers.get("content-length")).toBe(String(text.length));
    expect(fake.state.media.bytesServed).toBe(text.length);
    expect((await rpc("getAttachment", { id: "../x" })).error).toEqual({
      code: -1,
      message: "Could not find attachment with ID: ../x",
      data: null,
    });
  });

  it("getSticker: a pack not fetched yet fails once (that call fetches it), then answers", async () => {
    await daemon();
    const webp = sampleMedium("sticker").bytes;
    const { envelope } = fake.people.sendsSticker({ from: ann, bytes: webp, fetched: false });
    const { packId, stickerId } = (envelope.dataMessage as { sticker: { packId: string; stickerId: number } }).sticker;
    expect(packId).toMatch(/^[0-9a-f]{32}$/);
    expect((await rpc("getSticker", { packId, stickerId })).error).toMatchObject({ code: -1 });
    expect((await rpc("getSticker", { packId, stickerId })).result).toEqual({
      data: Buffer.from(webp).toString("base64"),
    });
  });
});

describe("fake signal-cli: send with attachments", () => {
  it("reads data: URIs as signal-cli's DataURI does: the name URL-decoded, no name is none, no type is text/plain", async () => {
    await daemon();
    const bytes = new Uint8Array([0, 1, 2, 250]);
    const sent = await rpc("send", {
      recipient: [ann.uuid],
      message: "",
      attachments: [
        uri("image/png", "a%3Bb+c.png", bytes),
        uri("application/pdf", undefined, bytes),
        "data:,hello%20there",
      ],
    });
    expect(sent.result).toMatchObject({ timestamp: expect.any(Number) });
    const files = fake.sentTo(ann.uuid)[0]?.attachments ?? [];
    expect(files.map((f) => [f.contentType, f.filename, Buffer.from(f.bytes).toString("latin1")])).toEqual([
      ["image/png", "a;b c.png", Buffer.from(bytes).toString("latin1")],
      ["application/pdf", null, Buffer.from(bytes).toString("latin1")],
      ["text/plain", null, "hello there"],
    ]);
    const voice = await rpc("send", {
      recipient: [ann.uuid],
      attachment: uri("audio/aac", "v.aac", bytes),
      voiceNote: true,
    });
    expect(voice.error).toBeUndefined();
    expect(fake.sentTo(ann.uuid)[1]?.attachments?.map(shownKind)).toEqual(["voice"]);
  });

  it("takes anything else for a path it does not have (a daemon elsewhere): -32603, nothing sent", async () => {
    await daemon();
    for (const attachment of ["/tmp/photo.png", "data:image/png;base64,not*base64"]) {
      expect((await rpc("send", { recipient: [ann.uuid], attachments: [attachment] })).error).toEqual({
        code: -32603,
        message: `Failed to send message: ${attachment}: ${attachment} (No such file or directory) (AttachmentInvalidException) (UnexpectedErrorException)`,
        data: null,
      });
    }
    expect(fake.sentTo(ann.uuid)).toEqual([]);
  });

  it("fails a request holding a string over Jackson's limit whole, as its HTTP handler answers: -32603, id null", async () => {
    await daemon({ maxJsonString: 100 });
    const answer = await rpc("send", {
      recipient: [ann.uuid],
      attachments: [uri("application/pdf", "x.pdf", new Uint8Array(80))],
    });
    expect(answer).toEqual({
      jsonrpc: "2.0",
      error: { code: -32603, message: "An internal server error has occurred.", data: null },
      id: null,
    });
    expect(fake.sentTo(ann.uuid)).toEqual([]);
  });
});
