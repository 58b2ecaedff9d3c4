import { collectBytes, streamOf } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import { createFakeServer, type FakeServer, mediumResponse, type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { acmeChannel } from "./index.js";
import { createFakeAcme, type FakeAcme } from "./testing/index.js";

let fake: FakeAcme;
let running: RunningChannel;

beforeEach(async () => {
  fake = createFakeAcme();
  await fake.start();
  fake.addConversation({ id: "c_team", type: "group", name: "Team" });
  running = await startChannel(acmeChannel, { config: fake.config({ timeoutMs: 500 }) });
});

afterEach(async () => {
  await running.stop();
  await fake.close();
});

const pdf = new TextEncoder().encode("%PDF-1.4 the report");
const report: OutboundMedium = {
  kind: "file",
  mime: "application/pdf",
  filename: "report.pdf",
  size: pdf.byteLength,
  caption: "Q3",
  open: () => streamOf(pdf),
};

describe("sending a file", () => {
  it("is one multipart upload: kind, caption and the bytes streamed, with an exact length", async () => {
    const ref = await running.instance.send({ id: "c_team" }, { text: "", media: [report] });
    const [upload] = fake.server.requestsTo("POST", "/v1/conversations/c_team/files");
    expect(upload?.body).toEqual({
      kind: "file",
      text: "Q3",
      file: { filename: "report.pdf", type: "application/pdf", size: pdf.byteLength },
    });
    expect(Number(upload?.headers["content-length"])).toBe(Buffer.byteLength(upload?.rawBody ?? ""));
    expect(fake.messageMedia(ref.messageId)).toEqual({
      text: "Q3",
      media: [{ kind: "file", bytes: pdf, filename: "report.pdf", caption: "Q3" }],
    });
  });

  it("refuses a file over Acme's 8 MB with E_TOO_LARGE before any request", async () => {
    const big = { ...report, size: 8 * 1024 * 1024 + 1 };
    await expect(running.instance.send({ id: "c_team" }, { text: "", media: [big] })).rejects.toMatchObject({
      code: "E_TOO_LARGE",
      message: '"report.pdf" is over 8 MB.',
    });
    expect(fake.server.requestsTo("POST", "/v1/conversations/c_team/files")).toEqual([]);
  });
});

describe("downloading an attachment", () => {
  let elsewhere: FakeServer;
  beforeEach(async () => {
    elsewhere = createFakeServer();
    await elsewhere.start();
  });
  afterEach(async () => {
    await elsewhere.close();
  });

  it("sends the token to Acme's origin only, never to a host a payload names", async () => {
    elsewhere.route("GET", "/stolen", () => mediumResponse(pdf));
    const download = running.instance.download;
    if (!download) throw new Error("no download");
    const from = async (url: string) => {
      const medium = await download({ kind: "file", source: { url } }, { maxBytes: 1024 });
      return collectBytes(medium.stream, 1024, "the file");
    };
    expect(await from(`${elsewhere.url}/stolen`)).toEqual(pdf);
    expect(elsewhere.requests[0]?.headers.authorization).toBeUndefined();
    const message = await fake.userSends({
      conversationId: "c_team",
      author: "u_ann",
      text: "",
      file: { kind: "file", name: "r.pdf", mimeType: "application/pdf", bytes: pdf },
    });
    expect(await from(message.file?.url ?? "")).toEqual(pdf);
    expect(fake.server.requestsTo("GET", "/v1/files/:id")[0]?.headers.authorization).toBe(`Bearer ${fake.token}`);
    await expect(from(`${fake.url}/v1/files/file_404`)).rejects.toMatchObject({ code: "E_MESSAGE_NOT_FOUND" });
  });
});
