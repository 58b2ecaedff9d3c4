import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { type TestMediaStore, tempDir, testMediaStore, uploadOverHttp } from "./support.test.util.js";

const TOKEN = "routes-test-token-0123456789";
const site = new WebchatSite({ botName: "Chorus" });
let running: RunningChannel;
let cleanup: () => Promise<void>;
let hooks: string;
let opened: TestMediaStore;
let now = Date.now();

function hub(): WebchatHub {
  if (!site.hub) throw new Error("the webchat instance is not running");
  return site.hub;
}

beforeAll(async () => {
  const temp = await tempDir("routes");
  cleanup = temp.cleanup;
  opened = await testMediaStore({ retentionMs: 86_400_000, now: () => now });
  running = await startChannel(createWebchatPlugin(site, { media: opened.store }), { config: {}, stateDir: temp.dir });
  site.useToken(TOKEN);
  hooks = running.hooksUrl;
});
afterAll(async () => {
  await running?.stop();
  await opened?.close();
  await cleanup?.();
});

/** Ada posts an uploaded file in the lobby; the message's medium. */
async function postedUpload(bytes: Uint8Array, filename: string, mime: string) {
  const ada = hub().identify("Ada");
  hub().join("lobby", ada.id);
  const answer = await uploadOverHttp(hooks, TOKEN, { bytes, filename, mime }, 100);
  if (!answer.ok) throw new Error(answer.error.message);
  const posted = hub().post("lobby", ada.id, "", { media: hub().uploads?.claim([answer.id]) ?? [] });
  return posted.attachments?.[0] as NonNullable<typeof posted.attachments>[number];
}

describe("the webchat's upload and media routes, over HTTP", () => {
  it("take the socket's token only: none or another is 401, and nothing is uploaded", async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    for (const token of ["", "another-token-0123456789"]) {
      const answer = await uploadOverHttp(hooks, token, { bytes, filename: "a.txt" });
      expect(answer).toMatchObject({ ok: false, status: 401, error: { code: "E_AUTH" } });
    }
    const medium = await postedUpload(bytes, "a.txt", "text/plain");
    const anonymous = await fetch(`${hooks}${medium.url}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain(TOKEN);
  });

  it("answer a file over the limit with 413 and a message the page shows", async () => {
    const begun = await fetch(`${hooks}/hooks/webchat/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ filename: "film.mp4", mime: "video/mp4", size: 40 * 1024 * 1024 }),
    });
    expect(begun.status).toBe(413);
    expect(await begun.json()).toMatchObject({
      ok: false,
      error: { code: "E_TOO_LARGE", message: '"film.mp4" is 40 MB; the webchat takes media up to 25 MB.' },
    });
  });

  it("answer a piece that does not follow with 400 and where to go on; one past the size with 413", async () => {
    const put = (id: string, offset: number, body: Uint8Array) =>
      fetch(`${hooks}/hooks/webchat/upload?id=${id}&offset=${offset}`, {
        method: "PUT",
        headers: { authorization: `Bearer ${TOKEN}` },
        body,
      });
    const begun = await fetch(`${hooks}/hooks/webchat/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ filename: "x.bin", size: 4 }),
    });
    const { id, pieceBytes } = (await begun.json()) as { id: string; pieceBytes: number };
    expect(begun.status).toBe(201);
    expect(pieceBytes).toBe(256 * 1024);
    const skipped = await put(id, 2, new Uint8Array(2));
    expect(skipped.status).toBe(400);
    expect(await skipped.json()).toMatchObject({ error: { details: { received: 0 } } });
    const over = await put(id, 0, new Uint8Array(5));
    expect(over.status).toBe(413);
    expect((await put(id, 0, new Uint8Array(4))).status).toBe(404);
  });

  it("serve a picture inline and any other file as a download, never as a page: nosniff, sandboxed", async () => {
    const png = sampleMedium("image");
    const picture = await postedUpload(png.bytes, "photo.png", png.mime);
    const shown = await fetch(`${hooks}${picture.url}&token=${TOKEN}`);
    expect(shown.status).toBe(200);
    expect(new Uint8Array(await shown.arrayBuffer())).toEqual(png.bytes);
    expect(Object.fromEntries(shown.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": String(png.bytes.byteLength),
      "content-disposition": `inline; filename="photo.png"; filename*=UTF-8''photo.png`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
    });

    const html = new TextEncoder().encode("<script>alert(1)</script>");
    const page = await postedUpload(html, "naïve page.html", "text/html");
    const served = await fetch(`${hooks}${page.url}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(served.headers.get("content-disposition")).toBe(
      `attachment; filename="na_ve page.html"; filename*=UTF-8''na%C3%AFve%20page.html`,
    );
    expect(served.headers.get("content-security-policy")).toBe("sandbox");
    expect(await served.text()).toBe("<script>alert(1)</script>");
  });

  it("serve a range of a medium (players seek), and 404 for a medium no message keeps", async () => {
    const audio = sampleMedium("audio");
    const medium = await postedUpload(audio.bytes, "tune.mp3", audio.mime);
    const part = await fetch(`${hooks}${medium.url}&token=${TOKEN}`, { headers: { range: "bytes=10-19" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 10-19/${audio.bytes.byteLength}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(audio.bytes.subarray(10, 20));
    const past = await fetch(`${hooks}${medium.url}&token=${TOKEN}`, { headers: { range: "bytes=999999-" } });
    expect(past.status).toBe(416);
    const unknown = await fetch(`${hooks}/hooks/webchat/media?id=wm_AAAAAAAAAAAAAAAAAAAAAA&token=${TOKEN}`);
    expect(unknown.status).toBe(404);
  });

  it("serve only the media of kept messages from the store, and 404 (no longer kept) once the store's retention pruned one", async () => {
    const text = new TextEncoder().encode("kept for a day");
    const medium = await postedUpload(text, "note.txt", "text/plain");
    expect(hub().medium(medium.id)?.mediaId).toMatch(/^med_/);
    // A medium of the store that no webchat message shows is not served here, by either id.
    const byStoreId = `${hooks}/hooks/webchat/media?id=${hub().medium(medium.id)?.mediaId}&token=${TOKEN}`;
    expect((await fetch(byStoreId)).status).toBe(404);
    const other = await opened.store.put(
      new ReadableStream({
        start: (c) => {
          c.enqueue(new Uint8Array([1]));
          c.close();
        },
      }),
      { maxBytes: 10, filename: "other.bin" },
    );
    expect((await fetch(`${hooks}/hooks/webchat/media?id=${other.mediaId}&token=${TOKEN}`)).status).toBe(404);
    expect(await (await fetch(`${hooks}${medium.url}&token=${TOKEN}`)).text()).toBe("kept for a day");
    now += 2 * 86_400_000;
    expect(await opened.store.prune()).toBeGreaterThan(0);
    const gone = await fetch(`${hooks}${medium.url}&token=${TOKEN}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toMatchObject({
      ok: false,
      error: { code: "E_MESSAGE_NOT_FOUND", message: expect.stringContaining("no longer kept") },
    });
  });
});
