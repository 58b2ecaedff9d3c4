import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FileServer, startFileServer } from "../support/media-files.js";
import { ANN, startTelegramMediaWorld, type TelegramMediaWorld } from "../support/telegram-media-world.js";

const png = sampleMedium("image");

/**
 * The address guard of `url` media items (DESIGN §2.6 rule 1) through the real gateway, with
 * `media.allowPrivateUrls` off: loopback, private and link-local (cloud metadata) addresses are
 * refused, written as an IP, as `localhost`, or as where an allowed host redirects to. Only the
 * redirecting server is in `media.allowHosts`; the server behind it is never reached, and nothing
 * reaches Telegram.
 */
describe("url media items to non-public addresses, through the real gateway process", () => {
  let world: TelegramMediaWorld;
  /** Listed in media.allowHosts: it redirects. */
  let allowed: FileServer;
  /** Not listed: what a refused URL would have fetched. */
  let inside: FileServer;
  beforeAll(async () => {
    inside = await startFileServer({ "/secret.png": { bytes: png.bytes, type: png.mime } });
    const to = (url: string) => ({ redirect: url });
    allowed = await startFileServer({
      "/ok.png": { bytes: png.bytes, type: png.mime },
      "/to-loopback": to(`${inside.url}/secret.png`),
      "/to-private": to("http://10.0.0.1/secret.png"),
      "/to-metadata": to("http://169.254.169.254/latest/meta-data/iam/security-credentials/"),
      "/to-localhost": to(`http://localhost:${new URL(inside.url).port}/secret.png`),
    });
    world = await startTelegramMediaWorld({ allowHosts: [allowed.hostPort] });
  }, 30_000);
  afterAll(async () => {
    await world?.close();
    await allowed?.close();
    await inside?.close();
  });

  const send = (url: string) =>
    world.gateway.call("POST", "/v1/tools/message", {
      channel: "telegram",
      target: String(ANN.id),
      action: "send",
      media: [{ url }],
    });
  const port = () => new URL(inside.url).port;

  it.each([
    ["127.0.0.1", () => `${inside.url}/secret.png`, /the address 127\.0\.0\.1 \(loopback\)/],
    ["10.0.0.1", () => "http://10.0.0.1/secret.png", /the address 10\.0\.0\.1 \(private\)/],
    [
      "169.254.169.254",
      () => "http://169.254.169.254/latest/meta-data/",
      /the address 169\.254\.169\.254 \(link-local\)/,
    ],
    ["localhost", () => `http://localhost:${port()}/secret.png`, /the address (127\.0\.0\.1|::1) \(loopback\)/],
    ["[::1]", () => `http://[::1]:${port()}/secret.png`, /the address ::1 \(loopback\)/],
    ["a redirect to 127.0.0.1", () => `${allowed.url}/to-loopback`, /the address 127\.0\.0\.1 \(loopback\)/],
    ["a redirect to 10.0.0.1", () => `${allowed.url}/to-private`, /the address 10\.0\.0\.1 \(private\)/],
    [
      "a redirect to 169.254.169.254",
      () => `${allowed.url}/to-metadata`,
      /the address 169\.254\.169\.254 \(link-local\)/,
    ],
    ["a redirect to localhost", () => `${allowed.url}/to-localhost`, /the address (127\.0\.0\.1|::1) \(loopback\)/],
  ])("%s is refused with E_INVALID_INPUT naming the address and its rule", async (_, url, address) => {
    const calls = world.telegram.server.requests.length;
    const answer = await send(url());
    expect(answer.status).toBe(400);
    expect(answer.json.error.code).toBe("E_INVALID_INPUT");
    expect(answer.json.error.message).toMatch(new RegExp(`^media\\.0\\.url: ${address.source} is not allowed\\.$`));
    expect(answer.json.error.hint).toContain("media.allowHosts");
    expect(inside.hits).toEqual([]);
    expect(world.telegram.server.requests.slice(calls).filter((r) => /\/send\w+$/.test(r.path))).toEqual([]);
  });

  it("the allowed host itself is fetched and sent: the guard refuses addresses, not every URL", async () => {
    const answer = await send(`${allowed.url}/ok.png`);
    expect(answer.status).toBe(200);
    expect(answer.json.result).toMatchObject({ ok: true, sentAs: ["image"] });
    expect(allowed.hits).toContain("/ok.png");
    expect(inside.hits).toEqual([]);
  });
});
