import { readFileSync } from "node:fs";
import { createFakeServer, waitFor } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { createFakeSlack, type FakeSlack, type FakeSlackOptions } from "./index.js";

// The fake's files are what every media test trusts, so their rules are pinned here.
const ANN = "U0ANN00001";
const TEAM = "C0TEAM0001";
const BYTES = new Uint8Array([0x25, 0x50, 0x44, 0x46, 1, 2, 3, 4, 5]);
let fake: FakeSlack;

const start = async (options: FakeSlackOptions = {}) => {
  fake = createFakeSlack({ mode: "http", ...options });
  await fake.start();
  fake.addUser({ id: ANN, name: "ann" });
  fake.addConversation({ id: TEAM, type: "channel", name: "team", members: [fake.bot.id, ANN] });
};
afterEach(() => fake.close());

const call = async (method: string, args: Record<string, string> = {}) => {
  const response = await fetch(`${fake.apiUrl}${method}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${fake.botToken}` },
    body: new URLSearchParams(args).toString(),
  });
  return (await response.json()) as Record<string, unknown>;
};
const get = (url: string, token?: string) =>
  fetch(url, { redirect: "manual", headers: token ? { authorization: `Bearer ${token}` } : {} });

describe("fake Slack files: downloads", () => {
  it("serves url_private_download with the bot token: the bytes, their type and length, as a download", async () => {
    await start();
    const message = await fake.userSendsFiles({ channel: TEAM, user: ANN, files: [{ name: "a.pdf", bytes: BYTES }] });
    const url = String(message.files?.[0]?.url_private_download);
    expect(url.startsWith(`${fake.media.hosts.host.url}/files-pri/${fake.team.id}-F0`)).toBe(true);
    const response = await get(url, fake.botToken);
    expect([response.status, response.headers.get("content-type"), response.headers.get("content-length")]).toEqual([
      200,
      "application/pdf",
      String(BYTES.byteLength),
    ]);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="a.pdf"');
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(BYTES);
    expect(fake.media.bytesServed).toBe(BYTES.byteLength);
  });

  it("sends a request without an accepted token (none, a wrong one, one without files:read) to the sign-in page", async () => {
    await start({ scopes: ["chat:write"] });
    const message = await fake.userSendsFiles({ channel: TEAM, user: ANN, files: [{ name: "a.pdf", bytes: BYTES }] });
    const url = String(message.files?.[0]?.url_private_download);
    for (const token of [undefined, "xoxb-wrong", fake.botToken]) {
      const response = await get(url, token);
      expect(response.status).toBe(302);
      const location = String(response.headers.get("location"));
      expect(location).toBe(`${fake.url}/?redir=${encodeURIComponent(new URL(url).pathname)}`);
      const page = await fetch(location);
      expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      expect(await page.text()).toContain("Sign in");
    }
    expect(fake.media.bytesServed).toBe(0);
  });

  it("redirects to files-origin (token wanted) or to a signed CDN URL (none wanted), as configured", async () => {
    await start({ downloadRedirect: "origin" });
    const message = await fake.userSendsFiles({ channel: TEAM, user: ANN, files: [{ name: "a.pdf", bytes: BYTES }] });
    const url = String(message.files?.[0]?.url_private_download);
    const toOrigin = await get(url, fake.botToken);
    const origin = String(toOrigin.headers.get("location"));
    expect(origin.startsWith(fake.media.hosts.origin.url)).toBe(true);
    expect((await get(origin)).status).toBe(302); // the origin wants the token too
    expect((await get(origin, fake.botToken)).status).toBe(200);
    fake.media.downloadRedirect = "edge";
    const edge = String((await get(url, fake.botToken)).headers.get("location"));
    expect(edge.startsWith(fake.media.hosts.edge.url)).toBe(true);
    expect(new Uint8Array(await (await get(edge)).arrayBuffer())).toEqual(BYTES);
    expect((await get(`${fake.media.hosts.edge.url}/files/forged/a.pdf`)).status).toBe(403);
  });

  it("carries a voice clip's subtype and duration, and stubs in a Slack Connect channel's events", async () => {
    await start();
    const app = createFakeServer();
    app.route("POST", "/events", () => ({ status: 200 }));
    fake.http.requestUrl = `${await app.start()}/events`;
    await fake.userSendsFiles({
      channel: TEAM,
      user: ANN,
      files: [{ name: "audio_message.webm", bytes: BYTES, subtype: "slack_audio", durationMs: 3000 }],
    });
    await fake.userSendsFiles({ channel: TEAM, user: ANN, files: [{ name: "a.pdf", bytes: BYTES }], connect: true });
    const [clip, connect] = fake.http.posted.map((p) => (JSON.parse(p.body) as { event: { files: unknown[] } }).event);
    expect(clip?.files[0]).toMatchObject({
      subtype: "slack_audio",
      media_display_type: "audio",
      duration_ms: 3000,
      mimetype: "audio/webm",
    });
    expect(connect?.files[0]).toEqual(documentedStub(connect?.files[0]));
    await app.close();
  });
});

describe("fake Slack files: the external upload flow", () => {
  it("announces, takes raw bytes or a form, completes once, and records the share after shareDelayMs", async () => {
    await start({ shareDelayMs: 50 });
    const ticket = await call("files.getUploadURLExternal", { filename: "r.pdf", length: String(BYTES.byteLength) });
    expect(ticket).toMatchObject({ ok: true, file_id: expect.stringMatching(/^F0/) });
    const form = new FormData();
    form.append("filename", new Blob([BYTES]), "r.pdf");
    const upload = await fetch(String(ticket.upload_url), { method: "POST", body: form });
    expect([upload.status, await upload.text()]).toEqual([200, `OK - ${BYTES.byteLength}`]);
    const files = JSON.stringify([{ id: ticket.file_id, title: "r.pdf" }]);
    const done = await call("files.completeUploadExternal", { files, channel_id: TEAM, initial_comment: "hi" });
    expect(done).toMatchObject({ ok: true, files: [{ id: ticket.file_id, title: "r.pdf", shares: {} }] });
    expect(await call("files.completeUploadExternal", { files, channel_id: TEAM })).toEqual({
      ok: false,
      error: "file_not_found",
    });
    const [message] = fake.messagesIn(TEAM);
    expect([message?.text, message?.subtype, message?.user]).toEqual(["hi", "file_share", fake.bot.id]);
    const shares = async () =>
      ((await call("files.info", { file: String(ticket.file_id) })).file as { shares: unknown }).shares;
    await waitFor(async () => JSON.stringify(await shares()).includes(String(message?.ts)), { timeoutMs: 2000 });
    expect(await shares()).toEqual({
      public: { [TEAM]: [{ ts: message?.ts, channel_name: "team", team_id: fake.team.id }] },
      private: {},
    });
    expect(fake.media.messageMedia(message).media[0]?.bytes).toEqual(BYTES);
  });

  it("answers with Slack's documented refusals", async () => {
    await start({ uploadLimitBytes: 5, scopes: ["files:read"] });
    expect(await call("files.getUploadURLExternal", { filename: "r.pdf", length: "3" })).toEqual({
      ok: false,
      error: "missing_scope",
      needed: "files:write",
      provided: "files:read",
    });
    fake.media.settings.scopes.add("files:write");
    expect((await call("files.getUploadURLExternal", { filename: "r.pdf", length: "0" })).error).toBe(
      "missing_argument",
    );
    expect((await call("files.getUploadURLExternal", { filename: "r.pdf", length: "6" })).error).toBe(
      "file_upload_size_restricted",
    );
    fake.media.settings.uploadsDisabled = true;
    expect((await call("files.getUploadURLExternal", { filename: "r.pdf", length: "3" })).error).toBe(
      "file_uploads_disabled",
    );
    const notUploaded = JSON.stringify([{ id: "F0NOTHING" }]);
    expect((await call("files.completeUploadExternal", { files: notUploaded })).error).toBe("file_not_found");
    expect((await call("files.info", { file: "F0NOTHING" })).error).toBe("file_not_found");
  });
});

/** The stub Slack's file object docs print for a Slack Connect file ("Slack Connect files"), with this file's id. */
function documentedStub(file: unknown) {
  const doc = readFileSync(new URL("../fixtures/message-file-connect.json", import.meta.url), "utf8");
  const [stub] = (JSON.parse(doc) as { files: Record<string, unknown>[] }).files;
  return { ...stub, id: (file as { id: string }).id };
}
