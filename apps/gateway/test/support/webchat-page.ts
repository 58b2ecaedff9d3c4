import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import type { GatewayProcess } from "./gateway-process.js";
import { PageTrace } from "./page-trace.js";

/** The widths every webchat browser test checks: a desktop window and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1100, height: 720 },
  phone: { width: 390, height: 844 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

/** A browser context at `viewport` (a phone with touch), its page traced, and the page's errors kept. */
export async function openWebchat(
  browser: Browser,
  viewport: ViewportName,
  options: { colorScheme?: "light" | "dark"; trace?: PageTrace; label?: string } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const phone = viewport === "phone";
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    ...(phone ? { isMobile: true, hasTouch: true } : {}),
    colorScheme: options.colorScheme ?? "light",
  });
  const page = await context.newPage();
  (options.trace ?? new PageTrace()).watch(page, options.label ?? viewport);
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console.error: ${message.text()}`);
  });
  return { context, page, problems };
}

/** Opens the webchat link, enters `name`, and waits until connected; returns the person's user id. */
export async function enterWebchat(page: Page, gateway: GatewayProcess, name: string): Promise<string> {
  await page.goto(`${gateway.url}/?token=${gateway.token}`);
  await page.getByTestId("name-input").fill(name);
  await page.getByTestId("name-submit").click();
  await page
    .getByTestId("me")
    .filter({ hasText: `You are ${name}` })
    .waitFor();
  await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
  return page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId") ?? ""`);
}

/** Whether the element's whole box is inside the viewport. */
export async function insideViewport(page: Page, box: { x: number; y: number; width: number; height: number }) {
  const size = page.viewportSize() ?? { width: 0, height: 0 };
  return (
    box.x >= -0.5 && box.y >= -0.5 && box.x + box.width <= size.width + 0.5 && box.y + box.height <= size.height + 0.5
  );
}

/**
 * Waits until `expression` is true in the page. Not `page.waitForFunction` with a string: when its
 * first check is false it polls by running the string through `eval` inside the page, which the
 * webchat's Content-Security-Policy refuses (EvalError); `page.evaluate` runs it from outside.
 */
export async function untilInPage(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  await expect.poll(() => page.evaluate(expression), { timeout: timeoutMs, interval: 25 }).toBe(true);
}
