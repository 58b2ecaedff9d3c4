import { randomBytes } from "node:crypto";
import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const MB = 1024 * 1024;

/** What `POST /v1/media` answers, and an error's body. */
interface Stored {
  mediaId: string;
  kind: string;
  mime: string;
  size: number;
  filename: string;
  url: string;
}
interface Refused {
  error: { code: string; message: string };
}

/** `POST /v1/media` and `GET /v1/media/<id>` on the real gateway (DESIGN §6). */
describe("/v1/media: uploads streamed into the store, served back with the token or a signed link", () => {
  let gateway: GatewayProcess;
  const auth = () => ({ authorization: `Bearer ${gateway.token}` });
  const upload = (body: RequestInit["body"], headers: Record<string, string> = {}, query = "") =>
    fetch(`${gateway.url}/v1/media${query}`, {
      method: "POST",
      headers: { ...auth(), ...headers },
      body,
      duplex: "half",
    } as RequestInit);
  const download = async (mediaId: string, headers: Record<string, string> = auth()) => {
    const response = await fetch(`${gateway.url}/v1/media/${mediaId}`, { headers });
    return { response, bytes: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    gateway = await startGatewayProcess({
      config: { gateway: { publicUrl: "https://chat.example.com" }, media: { maxBytes: 6 * MB } },
    });
  });

  afterAll(async () => {
    await gateway.stop();
    await removeHome(gateway.home);
  });

  it("takes 5 MB of raw bytes and gives them back byte for byte, as an attachment that never runs", async () => {
    const bytes = randomBytes(5 * MB);
    const answer = await upload(bytes, { "content-type": "application/zip" }, "?filename=backup%20copy.bin");
    expect(answer.status).toBe(200);
    const stored = (await answer.json()) as Stored;
    expect(stored).toMatchObject({
      ok: true,
      kind: "file",
      mime: "application/octet-stream",
      size: bytes.byteLength,
      filename: "backup copy.bin",
    });
    expect(stored.mediaId).toMatch(/^med_/);
    expect(stored.url).toMatch(new RegExp(`^https://chat\\.example\\.com/v1/media/${stored.mediaId}\\?exp=\\d+&sig=`));
    const { response, bytes: back } = await download(stored.mediaId);
    expect(response.status).toBe(200);
    expect(Buffer.compare(back, bytes)).toBe(0);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/octet-stream",
      "content-length": String(bytes.byteLength),
      "content-disposition": `attachment; filename="backup copy.bin"; filename*=UTF-8''backup%20copy.bin`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
    });
  });

  it("takes a 5 MB multipart upload (the field file) and serves a picture inline", async () => {
    const bytes = Buffer.concat([sampleMedium("image").bytes, randomBytes(5 * MB)]);
    const form = new FormData();
    form.append("note", "holiday");
    form.append("file", new Blob([bytes], { type: "application/octet-stream" }), "Strand é.png");
    const answer = await upload(form);
    expect(answer.status).toBe(200);
    const stored = (await answer.json()) as Stored;
    expect(stored).toMatchObject({
      kind: "image",
      mime: "image/png",
      size: bytes.byteLength,
      filename: "Strand é.png",
    });
    const { response, bytes: back } = await download(stored.mediaId);
    expect(Buffer.compare(back, bytes)).toBe(0);
    expect(response.headers.get("content-disposition")).toBe(
      `inline; filename="Strand _.png"; filename*=UTF-8''Strand%20%C3%A9.png`,
    );
  });

  it("refuses more than media.maxBytes with 413 E_TOO_LARGE naming the limit, raw, streamed or multipart", async () => {
    const refused = (answer: Response) => answer.json().then((body) => [answer.status, (body as Refused).error]);
    const expected = [413, { code: "E_TOO_LARGE", message: "The medium is over 6 MB, the limit (media.maxBytes)." }];
    expect(await refused(await upload(randomBytes(7 * MB)))).toEqual(expected);
    const chunks = [randomBytes(4 * MB), randomBytes(4 * MB)];
    const streamed = new ReadableStream({
      pull(controller) {
        const next = chunks.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    expect(await refused(await upload(streamed))).toEqual(expected);
    const form = new FormData();
    form.append("file", new Blob([randomBytes(6 * MB + 1)]), "big.bin");
    expect(await refused(await upload(form))).toEqual(expected);
  });

  it("a stored web page is text that never runs on the gateway's origin", async () => {
    const page = Buffer.from("<html><script>fetch('/v1/channels')</script></html>");
    const stored = (await (
      await upload(page, { "content-type": "text/html" }, "?filename=page.html")
    ).json()) as Stored;
    expect(stored.mime).toBe("text/plain");
    const { response } = await download(stored.mediaId);
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
  });

  it("without the token: 401; a signed link works without it, a tampered one is 403; an unknown id 404", async () => {
    const bytes = sampleMedium("audio").bytes;
    const stored = (await (await upload(Buffer.from(bytes))).json()) as Stored;
    expect((await fetch(`${gateway.url}/v1/media`, { method: "POST", body: Buffer.from(bytes) })).status).toBe(401);
    expect((await download(stored.mediaId, {})).response.status).toBe(401);
    expect((await download(stored.mediaId, { authorization: "Bearer wrong-token-wrong-token" })).response.status).toBe(
      401,
    );

    const link = new URL(stored.url);
    const viaLink = await fetch(`${gateway.url}${link.pathname}${link.search}`);
    expect(viaLink.status).toBe(200);
    expect(Buffer.compare(Buffer.from(await viaLink.arrayBuffer()), Buffer.from(bytes))).toBe(0);

    const exp = Number(link.searchParams.get("exp"));
    const sig = link.searchParams.get("sig") ?? "";
    for (const search of [`?exp=${exp + 60}&sig=${sig}`, `?exp=${exp}&sig=${sig.slice(1)}x`, `?exp=${exp}`]) {
      const answer = await fetch(`${gateway.url}${link.pathname}${search}`);
      expect([search, answer.status, ((await answer.json()) as Refused).error]).toEqual([
        search,
        403,
        { code: "E_AUTH", message: "this media link is not valid" },
      ]);
    }
    const unknown = await download("med_neverStoredNeverStored0");
    expect(unknown.response.status).toBe(404);
    const otherId = await fetch(`${gateway.url}/v1/media/med_neverStoredNeverStored0${link.search}`);
    expect(otherId.status).toBe(403);
    expect(gateway.output()).not.toContain(sig);
  });
});
