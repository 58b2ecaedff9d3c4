import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { PageTrace } from "../support/page-trace.js";

const PHONE = { width: 390, height: 844 };

/** Whether an element's whole box is inside the viewport (and not scrolled away). */
async function inView(page: Page, testId: string, selector = ""): Promise<boolean> {
  const box = await page.locator(`[data-testid="${testId}"]${selector}`).first().boundingBox();
  if (!box) return false;
  return box.y >= 0 && box.x >= 0 && box.y + box.height <= PHONE.height + 0.5 && box.x + box.width <= PHONE.width + 0.5;
}

describe("the webchat on a phone (390 px) and with a wrong token, in Chromium", () => {
  let gateway: GatewayProcess;
  let browser: Browser;

  beforeAll(async () => {
    gateway = await startGatewayProcess({ noConfig: true, args: ["--port", "0"] });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  it("header, room switch and composer stay reachable with a long conversation", async () => {
    const trace = new PageTrace();
    trace.printOnFailure(() => gateway);
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    trace.watch(page, "Ada");
    await page.goto(`${gateway.url}/?token=${gateway.token}`);
    await page.getByTestId("name-input").fill("Ada");
    await page.getByTestId("name-submit").click();
    await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
    for (let i = 0; i < 12; i++) {
      const sent = await gateway.call("POST", "/v1/tools/message", {
        channel: "webchat",
        target: "lobby",
        action: "send",
        text: `line ${i}\n`.repeat(4),
      });
      expect(sent.status).toBe(200);
    }
    await page.locator('[data-testid="room"][data-room="lobby"]').click();
    await page.locator('[data-testid="message"]').filter({ hasText: "line 11" }).first().waitFor();

    const shots = await mkdtemp(join(tmpdir(), "chorus-phone-"));
    await page.screenshot({ path: join(shots, "phone.png") });
    const scroll = await page.evaluate<{ page: number; view: number; width: number }>(
      "({ page: document.scrollingElement.scrollHeight, view: window.innerHeight, width: document.scrollingElement.scrollWidth })",
    );
    expect(scroll.page, `the page itself scrolls (screenshot in ${shots})`).toBeLessThanOrEqual(scroll.view);
    expect(scroll.width).toBeLessThanOrEqual(PHONE.width);
    expect(await inView(page, "status")).toBe(true);
    expect(await inView(page, "room", '[aria-current="page"]')).toBe(true);
    expect(await inView(page, "composer")).toBe(true);
    expect(await inView(page, "send")).toBe(true);
    expect(await inView(page, "join-input")).toBe(true);

    // The room switch: the other room is one tap away (the row scrolls sideways), and back.
    await page.locator('[data-testid="room"][data-room^="dm:"]').click();
    await page.locator('[data-testid="room"][data-room^="dm:"][aria-current="page"]').waitFor();
    expect(await inView(page, "room", '[aria-current="page"]')).toBe(true);
    await page.locator('[data-testid="room"][data-room="lobby"]').click();
    await page.getByTestId("composer").fill("from the phone");
    await page.getByTestId("send").click();
    await page.locator('[data-testid="message"]').filter({ hasText: "from the phone" }).first().waitFor();
    await context.close();
  });

  it("a wrong token in the address says so, and stops retrying", async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${gateway.url}/?token=not-the-token-000000`);
    const status = page.getByTestId("status");
    await status.filter({ hasText: "wrong token" }).waitFor({ timeout: 10_000 });
    expect(await status.textContent()).toContain("chorus token --webchat");
    const attempts = gateway.output().length;
    expect(await status.textContent()).not.toContain("reconnecting");
    expect(gateway.output().length).toBe(attempts);
    await context.close();
  });
});
