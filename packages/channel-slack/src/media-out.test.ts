import type { ChorusError, OutboundMedium } from "@chorus/core";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { slackChannel } from "./index.js";
import { SLACK_MAX_FILE_BYTES } from "./media.js";
import { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "./testing/index.js";

const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
const TOKEN = "xoxb-canary-media-out-5521-token";
const png = sampleMedium("image");
const pdf = sampleMedium("file");
let fake: FakeSlack;
let running: RunningChannel | undefined;

const start = async (options: FakeSlackOptions = {}, extra: Record<string, unknown> = {}) => {
  fake = createFakeSlack({ botToken: TOKEN, ...options });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
  running = await startChannel(slackChannel, { config: fake.config({ retries: 1, ...extra }) });
  return running.instance;
};

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
});

/** A medium to send, opened as a stream each time (counted, to see that nothing was read). */
function medium(sample: { bytes: Uint8Array; mime: string; filename: string }, extra: Partial<OutboundMedium> = {}) {
  const opened = { count: 0 };
  const out: OutboundMedium & { opened: typeof opened } = {
    kind: sample.mime.startsWith("image/") ? "image" : "file",
    mime: sample.mime,
    filename: sample.filename,
    size: sample.bytes.byteLength,
    opened,
    open: () => {
      opened.count++;
      return new Response(sample.bytes.slice()).body as ReadableStream<Uint8Array>;
    },
    ...extra,
  };
  return out;
}
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ChorusError,
  );
const calls = (method: string) => fake.server.requestsTo("POST", `/api/${method}`);
const botMessages = () => fake.messagesIn(TEAM).filter((m) => m.user === fake.bot.id);

describe("sending files: the external upload flow", () => {
  it("uploads several files byte for byte and shares them in one message, the caption as initial_comment", async () => {
    const instance = await start();
    const ref = await instance.send(
      { id: TEAM },
      { text: "", media: [medium(png, { caption: "**Q3** charts" }), medium(pdf, { filename: "report.pdf" })] },
    );
    expect(calls("files.getUploadURLExternal").map((r) => r.body)).toEqual([
      expect.objectContaining({ filename: png.filename, length: String(png.bytes.byteLength) }),
      expect.objectContaining({ filename: "report.pdf", length: String(pdf.bytes.byteLength) }),
    ]);
    const uploads = fake.media.hosts.host.requestsTo("POST", "/upload/v1/:ticket");
    expect(uploads.map((u) => [u.headers["content-length"], u.headers.authorization])).toEqual([
      [String(png.bytes.byteLength), undefined],
      [String(pdf.bytes.byteLength), undefined],
    ]);
    const completes = calls("files.completeUploadExternal").map((r) => r.body as Record<string, string>);
    expect(completes).toHaveLength(1);
    const complete = completes[0] ?? {};
    const files = JSON.parse(String(complete.files)) as { id: string }[];
    expect(complete).toMatchObject({ channel_id: TEAM, initial_comment: "*Q3* charts" });
    expect(complete.thread_ts).toBeUndefined();

    const [message, ...others] = botMessages();
    expect(others).toHaveLength(0);
    expect(ref).toMatchObject({ conversationId: TEAM, messageId: message?.ts, fromBot: true });
    const shown = fake.media.messageMedia(message);
    expect(shown.text).toBe("*Q3* charts");
    expect(shown.media.map((m) => [m.kind, m.filename])).toEqual([
      ["image", png.filename],
      ["file", "report.pdf"],
    ]);
    expect(Buffer.from(shown.media[0]?.bytes ?? []).equals(Buffer.from(png.bytes))).toBe(true);
    expect(Buffer.from(shown.media[1]?.bytes ?? []).equals(Buffer.from(pdf.bytes))).toBe(true);
    expect(files.map((f) => f.id)).toEqual(message?.files?.map((f) => f.id));
  });

  it("in a thread, the files go to the thread (thread_ts of its parent) and the ref says so", async () => {
    const instance = await start();
    const top = await fake.userSends({ channel: TEAM, user: ANN, text: "send me the chart" });
    const ref = await instance.send({ id: TEAM, threadId: top.ts }, { text: "here", media: [medium(png)] });
    expect(calls("files.completeUploadExternal")[0]?.body).toMatchObject({
      thread_ts: top.ts,
      initial_comment: "here",
    });
    const [message] = botMessages();
    expect(message?.thread_ts).toBe(top.ts);
    expect(ref).toMatchObject({ messageId: message?.ts, threadId: top.ts });
  });

  it("finds the message when Slack records the share late, and names the first file when it never does", async () => {
    let instance = await start({ shareDelayMs: 400 });
    const late = await instance.send({ id: TEAM }, { text: "late", media: [medium(png)] });
    expect(late.messageId).toBe(botMessages()[0]?.ts);
    expect(calls("files.info").length).toBeGreaterThan(1);
    await running?.stop();
    await fake.close();

    instance = await start({ shareDelayMs: Number.POSITIVE_INFINITY }, { shareTimeoutMs: 300 });
    const never = await instance.send({ id: TEAM }, { text: "never", media: [medium(png)] });
    const [message] = botMessages();
    expect(message?.text).toBe("never");
    expect(never.messageId).toBe(message?.files?.[0]?.id);
    expect(running?.logs.records.some((r) => r.message.includes("did not say under which message"))).toBe(true);
  });

  it("a caption too long for one message goes first as text, the files after it without a comment", async () => {
    const instance = await start();
    const long = `${"word ".repeat(900).trim()}.`;
    const ref = await instance.send({ id: TEAM }, { text: long, media: [medium(pdf)] });
    const messages = botMessages();
    const files = messages.at(-1);
    const texts = messages.slice(0, -1);
    expect(texts.length).toBe(2); // 4,500 characters: two parts
    expect(texts.map((m) => m.text).join(" ")).toBe(long);
    expect([files?.text, files?.files?.length]).toEqual(["", 1]);
    expect(ref.messageId).toBe(texts[0]?.ts);
  });

  it("retries an upload the file host failed with a 5xx, opening the medium again", async () => {
    const instance = await start();
    fake.media.hosts.host.inject({ kind: "status", status: 503, match: { method: "POST", path: /^\/upload\// } });
    const item = medium(png);
    await instance.send({ id: TEAM }, { text: "", media: [item] });
    expect(item.opened.count).toBe(2);
    const shown = fake.media.messageMedia(botMessages()[0]);
    expect(Buffer.from(shown.media[0]?.bytes ?? []).equals(Buffer.from(png.bytes))).toBe(true);
  });
});

describe("what Slack refuses, before anything shows in the conversation", () => {
  it("file_uploads_disabled: E_DISABLED with what to do; no bytes uploaded, nothing posted", async () => {
    const instance = await start({ uploadsDisabled: true });
    const item = medium(png);
    const error = await refusal(instance.send({ id: TEAM }, { text: "x", media: [item] }));
    expect([error?.code, error?.message]).toEqual([
      "E_DISABLED",
      "Slack refused files.getUploadURLExternal: file_uploads_disabled",
    ]);
    expect(error?.hint).toContain("turned file uploads off");
    expect([item.opened.count, botMessages().length]).toEqual([0, 0]);
  });

  it("a token without files:write: E_AUTH naming the scope Slack says is needed", async () => {
    const instance = await start({ scopes: ["chat:write", "files:read", "channels:read", "users:read"] });
    const error = await refusal(instance.send({ id: TEAM }, { text: "", media: [medium(png)] }));
    expect(error?.code).toBe("E_AUTH");
    expect(error?.hint).toBe("Add the missing scope (files:write) under OAuth & Permissions and reinstall the app.");
    expect(JSON.stringify(error)).not.toContain(TOKEN);
    expect(botMessages()).toHaveLength(0);
  });

  it("a workspace limit smaller than the file: E_TOO_LARGE, nothing posted", async () => {
    const instance = await start({ uploadLimitBytes: 10 });
    const error = await refusal(instance.send({ id: TEAM }, { text: "", media: [medium(png), medium(pdf)] }));
    expect(error?.code).toBe("E_TOO_LARGE");
    expect(error?.hint).toContain("restricts the size of uploads");
    expect(fake.media.hosts.host.requests).toHaveLength(0);
    expect(botMessages()).toHaveLength(0);
  });

  it("over Slack's 1 GB, or empty: refused before any request", async () => {
    const instance = await start();
    const huge = medium(png, { size: SLACK_MAX_FILE_BYTES + 1, filename: "huge.png" });
    const tooLarge = await refusal(instance.send({ id: TEAM }, { text: "", media: [medium(pdf), huge] }));
    expect([tooLarge?.code, tooLarge?.message]).toEqual(["E_TOO_LARGE", '"huge.png" is over 1 GB.']);
    const empty = await refusal(instance.send({ id: TEAM }, { text: "", media: [medium(png, { size: 0 })] }));
    expect(empty?.code).toBe("E_INVALID_INPUT");
    expect([huge.opened.count, calls("files.getUploadURLExternal").length]).toEqual([0, 0]);
  });

  it("a bot that is not in the channel: E_AUTH with the hint to invite it; a location is not a file", async () => {
    const instance = await start();
    fake.addConversation({ id: "C0OUTSIDE1", type: "channel", name: "outside", members: [ANN] });
    const error = await refusal(instance.send({ id: "C0OUTSIDE1" }, { text: "", media: [medium(png)] }));
    expect([error?.code, error?.hint]).toEqual([
      "E_AUTH",
      "Invite the bot into the channel first (/invite @your-bot), then try again.",
    ]);
    const pin = await refusal(instance.send({ id: TEAM }, { text: "", location: { latitude: 1, longitude: 2 } }));
    expect(pin?.code).toBe("E_UNSUPPORTED");
  });
});
