import type { IncomingMessage, ServerResponse } from "node:http";
import { streamOf } from "@chorus/channel-kit";
import { type RunningChannel, sampleMedium } from "@chorus/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { type PageHarness, startPageHarness } from "./page-harness.test.util.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { type TestMediaStore, testMediaStore } from "./support.test.util.js";

const TOKEN = "page-media-token-0123456789";
const DAY = 86_400_000;
const site = new WebchatSite({ botName: "Chorus" });
let harness: PageHarness;
let browser: Browser;
let baseUrl: string;
let opened: TestMediaStore;
let now = Date.now();

/** The webchat's routes under `/hooks/`, passed on to the channel's server (as the gateway serves them beside the page). */
function hooks(req: IncomingMessage, res: ServerResponse, running: RunningChannel): boolean {
  const path = req.url ?? "/";
  if (!path.startsWith("/hooks/")) return false;
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "range"]) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  void fetch(`${running.hooksUrl}${path}`, { headers }).then(async (answer) => {
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return true;
}

beforeAll(async () => {
  opened = await testMediaStore({ retentionMs: 7 * DAY, now: () => now });
  harness = await startPageHarness({
    site,
    plugin: createWebchatPlugin(site, { media: opened.store }),
    config: {},
    token: TOKEN,
    name: "page-media",
    route: hooks,
  });
  ({ browser, baseUrl } = harness);
});

afterAll(async () => {
  await harness?.close();
  await opened?.close();
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
