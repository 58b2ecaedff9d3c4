import { sampleMedium } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFakeFeishu, type FakeChat, type FakeFeishu, type FakeUser } from "./index.js";

// The fake is the platform every media test trusts, so its own rules are pinned here.
let fake: FakeFeishu;
let token: string;
let ann: FakeUser;
let team: FakeChat;
let quiet: FakeChat;

beforeEach(async () => {
  fake = createFakeFeishu({ limits: { maxImageBytes: 1000, maxFileBytes: 2000, maxDownloadBytes: 3000 } });
  await fake.start();
  const answer = await fetch(`${fake.url}/open-apis/auth/v3/tenant_access_token/internal`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ app_id: fake.appId, app_secret: fake.appSecret }),
  });
  token = ((await answer.json()) as { tenant_access_token: string }).tenant_access_token;
  ann = fake.addUser("Ann");
  team = fake.addChat({ name: "Team", members: [ann] });
  // No app listens here: people's media go to a chat whose events Feishu does not push (the bot is not in it).
  quiet = fake.addChat({ name: "Quiet", members: [ann], botIn: false });
});

afterEach(async () => {
  await fake.close();
});

type Envelope = { code: number; msg: string; data?: Record<string, string> };

/** Posts a multipart form as Feishu's docs show it (`fields`, then one file). */
async function upload(path: "images" | "files", fields: Record<string, string>, file?: [string, Uint8Array, string]) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append(path === "images" ? "image" : "file", new Blob([file[1]], { type: file[2] }), file[0]);
  const answer = await fetch(`${fake.url}/open-apis/im/v1/${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await answer.json()) as Envelope;
}
const sendMessage = async (msgType: string, content: Record<string, string>) => {
  const answer = await fetch(`${fake.url}/open-apis/im/v1/messages?receive_id_type=chat_id`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ receive_id: team.chat_id, msg_type: msgType, content: JSON.stringify(content) }),
  });
  return (await answer.json()) as Envelope;
};
const resource = (messageId: string, key: string, type: string) =>
  fetch(`${fake.url}/open-apis/im/v1/messages/${messageId}/resources/${key}?type=${type}`, {
    headers: { authorization: `Bearer ${token}` },
  });

describe("fake Feishu: uploads", () => {
  it("answers an image_key for an image it can read, and Feishu's refusals otherwise", async () => {
    const png = sampleMedium("image").bytes;
    expect(await upload("images", { image_type: "message" }, ["a.png", png, "image/png"])).toMatchObject({
      code: 0,
      data: { image_key: expect.stringMatching(/^img_v3_/u) },
    });
    const refusals = [
      await upload("images", { image_type: "sticker" }, ["a.png", png, "image/png"]),
      await upload("images", { image_type: "message" }, ["a.png", new Uint8Array(0), "image/png"]),
      await upload("images", { image_type: "message" }, ["a.png", new Uint8Array(1001).fill(1), "image/png"]),
      await upload("images", { image_type: "message" }, ["a.svg", new TextEncoder().encode("<svg/>"), "image/svg+xml"]),
    ];
    expect(refusals.map((r) => r.code)).toEqual([234001, 234010, 234006, 234011]);
  });

  it("answers a file_key for a file with a known file_type and a name, and refuses the rest", async () => {
    const pdf: [string, Uint8Array, string] = ["a.pdf", new Uint8Array([1]), "application/pdf"];
    expect(await upload("files", { file_type: "pdf", file_name: "a.pdf" }, pdf)).toMatchObject({ code: 0 });
    const refusals = [
      await upload("files", { file_type: "docx", file_name: "a.pdf" }, pdf),
      await upload("files", { file_type: "pdf" }, pdf),
      await upload("files", { file_type: "opus", file_name: "a.opus", duration: "1.5" }, pdf),
      await upload("files", { file_type: "stream", file_name: "big" }, ["big", new Uint8Array(2001), "x/y"]),
    ];
    expect(refusals.map((r) => r.code)).toEqual([234001, 234001, 234001, 234006]);
  });
});

describe("fake Feishu: media messages", () => {
  it("sends a file key only as the message type its file_type is for (230055 otherwise)", async () => {
    const file = (type: string) =>
      upload("files", { file_type: type, file_name: `a.${type}` }, ["a", new Uint8Array([1]), "x/y"]).then(
        (r) => r.data?.file_key as string,
      );
    const [opus, mp4, pdf] = [await file("opus"), await file("mp4"), await file("pdf")];
    const answers = [
      await sendMessage("audio", { file_key: opus }),
      await sendMessage("media", { file_key: mp4 }),
      await sendMessage("file", { file_key: pdf }),
      await sendMessage("file", { file_key: mp4 }),
      await sendMessage("audio", { file_key: pdf }),
      await sendMessage("image", { image_key: pdf }),
      await sendMessage("sticker", { file_key: pdf }),
    ];
    expect(answers.map((a) => a.code)).toEqual([0, 0, 0, 230055, 230055, 230001, 230001]);
  });
});

describe("fake Feishu: message resources", () => {
  it("serves a message's own media by type, with its Content-Type; refuses other keys, stickers and oversized files", async () => {
    const { kind: _, ...pdf } = sampleMedium("file");
    const file = await fake.media.userSends({ chatId: quiet.chat_id, from: ann, kind: "file", ...pdf });
    const { file_key } = JSON.parse(file.body.content) as { file_key: string };
    const served = await resource(file.message_id, file_key, "file");
    expect([served.status, served.headers.get("content-type")]).toEqual([200, "application/pdf"]);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(pdf.bytes);
    expect(fake.media.bytesServed).toBe(pdf.bytes.length);

    const sticker = await fake.media.userSends({ chatId: quiet.chat_id, from: ann, kind: "sticker", ...pdf });
    const big = await fake.media.userSends({
      chatId: quiet.chat_id,
      from: ann,
      kind: "file",
      bytes: new Uint8Array(3001),
    });
    const keyOf = (content: string) => (JSON.parse(content) as { file_key: string }).file_key;
    const refusals = [
      await resource(file.message_id, file_key, "image"),
      await resource(sticker.message_id, keyOf(sticker.body.content), "file"),
      await resource(sticker.message_id, file_key, "file"),
      await resource(big.message_id, keyOf(big.body.content), "file"),
    ];
    const codes = await Promise.all(refusals.map(async (r) => [r.status, ((await r.json()) as Envelope).code]));
    expect(codes).toEqual([
      [400, 234001],
      [400, 234001],
      [400, 234003],
      [400, 234037],
    ]);
  });
});
