import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { streamOf } from "@chorus/channel-kit";
import { type RunningChannel, sampleMedium, startChannel } from "@chorus/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../testing/index.js";
import type { WebchatHub } from "./hub.js";
import { type WebchatPageAssets, webchatPage, webchatPageCsp } from "./page.js";
import { buildPageAssets } from "./page-build.test.util.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { attachWebchatSocket, type WebchatSocket } from "./socket.js";
import { closeServer, listen, type TestMediaStore, tempDir, testMediaStore } from "./support.test.util.js";

const TOKEN = "page-media-token-0123456789";
const DAY = 86_400_000;
const site = new WebchatSite({ botName: "Chorus" });
let browser: Browser;
let server: Server;
let baseUrl: string;
let socket: WebchatSocket;
let running: RunningChannel;
let opened: TestMediaStore;
let assets: WebchatPageAssets;
let cleanup: () => Promise<void>;
let now = Date.now();

/** The page at `/`, and the webchat's routes under `/hooks/` passed on to the channel's server (as the gateway serves both). */
function serve(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? "/";
  if (path.startsWith("/hooks/")) {
    const headers: Record<string, string> = {};
    for (const name of ["authorization", "range"]) {
      const value = req.headers[name];
      if (typeof value === "string") headers[name] = value;
    }
    void fetch(`${running.hooksUrl}${path}`, { headers }).then(async (answer) => {
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    return;
  }
  if (path.split("?")[0] !== "/") return void res.writeHead(404).end();
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-security-policy": webchatPageCsp(assets) });
  res.end(webchatPage({ title: site.title }, assets));
}

beforeAll(async () => {
  const temp = await tempDir("page-media");
  cleanup = temp.cleanup;
  assets = await buildPageAssets();
  opened = await testMediaStore({ retentionMs: 7 * DAY, now: () => now });
  running = await startChannel(createWebchatPlugin(site, { media: opened.store }), { config: {}, stateDir: temp.dir });
  ({ server } = await listen(serve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  socket = attachWebchatSocket(server, site, { token: TOKEN });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await socket?.close();
  if (server) await closeServer(server);
  await running?.stop();
  await opened?.close();
  await cleanup?.();
});

/** Posts `files` in the direct room of `userId` (the page shows it first), uploaded into the store the way the routes do. */
async function posts(userId: string, files: { bytes: Uint8Array; filename: string; mime: string }[]) {
  const hub = site.hub as WebchatHub;
  const uploads = hub.uploads;
  if (!uploads) throw new Error("the webchat keeps no media");
  const ids: string[] = [];
  for (const file of files) {
    const { medium } = await uploads.begin({ filename: file.filename, mime: file.mime, size: file.bytes.byteLength });
    await uploads.append(medium.id, 0, streamOf(file.bytes));
    ids.push(medium.id);
  }
  hub.post(`dm:${userId}`, userId, "", { media: uploads.claim(ids) });
}

describe("webchat page in Chromium: media the gateway no longer keeps", () => {
  it("shows a picture from the store, and once the store's retention pruned them, says so for the picture and the file", async () => {
    const page: Page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    // Through the test, never from the browser's cache (a browser that showed a picture before keeps showing it).
    await page.route("**/hooks/webchat/media**", (route) => route.continue());
    await page.goto(`${baseUrl}/?token=${TOKEN}`);
    await page.getByTestId("name-input").fill("Ada");
    await page.getByTestId("name-submit").click();
    await page.getByTestId("me").filter({ hasText: "You are Ada" }).waitFor();
    const userId = await page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId") ?? ""`);
    const png = sampleMedium("image");
    const pdf = sampleMedium("file");
    await posts(userId, [
      { bytes: png.bytes, filename: "chart.png", mime: png.mime },
      { bytes: pdf.bytes, filename: "report.pdf", mime: pdf.mime },
    ]);
    const picture = page.locator('[data-testid="medium"][data-filename="chart.png"] img');
    await picture.waitFor();
    const width = `document.querySelector('[data-filename="chart.png"] img')?.naturalWidth ?? 0`;
    await expect.poll(() => page.evaluate<number>(width)).toBeGreaterThan(0);
    expect(await page.getByTestId("medium-gone").count()).toBe(0);

    now += 8 * DAY;
    expect(await opened.store.prune()).toBe(2);
    await page.reload();
    const gone = (filename: string) => page.locator(`[data-testid="medium-gone"][data-filename="${filename}"]`);
    await gone("chart.png").waitFor();
    expect(await gone("chart.png").textContent()).toContain("no longer kept");
    // A file is asked for when clicked: no download of an error page, the line instead.
    const download = page.waitForEvent("download", { timeout: 1_000 }).then(
      () => true,
      () => false,
    );
    await page.locator('[data-testid="medium"][data-filename="report.pdf"]').click();
    await gone("report.pdf").waitFor();
    expect(await download).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });
});
