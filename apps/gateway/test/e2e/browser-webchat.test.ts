import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { PageTrace } from "../support/page-trace.js";

const TEXT = "hello from Chromium";
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("chorus start with no config, driven from headless Chromium", () => {
  let gateway: GatewayProcess | undefined;
  let browser: Browser | undefined;
  const pageProblems: string[] = [];
  const trace = new PageTrace();

  beforeAll(async () => {
    gateway = await startGatewayProcess({ noConfig: true, args: ["--port", "0"] });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  /** Opens a page that records every page error and console error. */
  async function openPage(): Promise<Page> {
    const context = await (browser as Browser).newContext({ viewport: { width: 1100, height: 720 } });
    const page = await context.newPage();
    trace.watch(page, "Ada");
    page.on("pageerror", (error) => pageProblems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") pageProblems.push(`console.error: ${message.text()}`);
    });
    return page;
  }

  it("types a message, sees the demo reply and its 👍, removes the 👍 through the API and sees it go", async () => {
    trace.printOnFailure(() => gateway);
    const running = gateway as GatewayProcess;
    const webchatUrl = /Webchat: (\S+)/.exec(running.output())?.[1];
    expect(webchatUrl).toBe(`${running.url}/?token=${running.token}`);

    const page = await openPage();
    await page.goto(webchatUrl as string);
    await page.getByTestId("name-input").fill("Ada");
    await page.getByTestId("name-submit").click();
    await page.getByTestId("me").filter({ hasText: "You are Ada" }).waitFor();
    await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
    const userId = await page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId") ?? ""`);
    expect(userId).toMatch(/^u_/);
    const room = `dm:${userId}`;
    await page.locator(`[data-testid="room"][data-room="${room}"][aria-current="page"]`).waitFor();

    await page.getByTestId("composer").fill(TEXT);
    await page.getByTestId("send").click();
    const mine = page.locator(`[data-testid="message"][data-sender-id="${userId}"]`).filter({ hasText: TEXT });
    await mine.waitFor();
    expect(await page.getByTestId("composer").inputValue()).toBe("");
    const messageId = (await mine.getAttribute("data-message-id")) as string;
    expect(messageId).toBeTruthy();

    const reply = page
      .locator('[data-testid="message"][data-sender="Chorus"]')
      .filter({ hasText: `Demo agent (offline): you said "${TEXT}"` });
    await reply.waitFor({ timeout: 15_000 });
    expect(await reply.getAttribute("data-sender-id")).not.toBe(userId);

    const chip = mine.locator('[data-testid="reaction"][data-emoji="👍"]');
    await chip.waitFor({ timeout: 15_000 });
    expect(await chip.getAttribute("data-count")).toBe("1");
    // The 👍 is the agent's, not the person's own.
    expect(await chip.getAttribute("aria-pressed")).toBe("false");
    expect(await mine.getByTestId("reaction").count()).toBe(1);

    const shots = await mkdtemp(join(tmpdir(), "chorus-webchat-shots-"));
    await page.screenshot({ path: join(shots, "1-reacted.png"), fullPage: true });

    const removed = await running.call("POST", "/v1/tools/message", {
      channel: "webchat",
      target: room,
      action: "react",
      messageId,
      emoji: "👍",
      remove: true,
    });
    expect(removed).toEqual({
      status: 200,
      json: { ok: true, result: expect.objectContaining({ action: "react", op: "remove", removed: ["👍"] }) },
    });
    await chip.waitFor({ state: "detached", timeout: 10_000 });
    expect(await mine.getByTestId("reaction").count()).toBe(0);
    // The rest of the conversation stays on the page.
    expect(await reply.count()).toBe(1);

    const screenshot = join(shots, "2-removed.png");
    await page.screenshot({ path: screenshot, fullPage: true });
    expect((await readFile(screenshot)).subarray(0, 8)).toEqual(PNG_SIGNATURE);
    // Kept on purpose (not cleaned up) so a person can look at them.
    console.log(`webchat screenshots: ${join(shots, "1-reacted.png")} ${screenshot}`);

    await page.context().close();
    expect(pageProblems).toEqual([]);
    const warningsOrErrors = running.logs().filter((line) => typeof line.level === "number" && line.level >= 40);
    expect(warningsOrErrors).toEqual([]);
  }, 90_000);
});
