import { existsSync } from "node:fs";
import type { Browser } from "playwright-core";

/** Debian's Chromium: the browser tests never download one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Launches headless Debian Chromium with the flags this machine needs (no network side traffic).
 * Playwright loads on this first call: the benchmarks import the testing entry too, and its ~10 MB
 * of heap beside the measured code moved their GC figures.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: apt-get update && apt-get install -y chromium`);
  }
  const { chromium } = await import("playwright-core");
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
