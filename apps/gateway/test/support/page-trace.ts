import type { Page } from "playwright-core";
import { onTestFailed } from "vitest";
import type { GatewayProcess } from "./gateway-process.js";

/**
 * What the webchat pages of a browser test went through (their sockets, the frames' types, console
 * lines, page errors), printed with each page's status line and the gateway's output when the
 * test fails — a step that hangs until the test's timeout says nothing else about where it stopped.
 */
export class PageTrace {
  readonly #started = Date.now();
  readonly #lines: string[] = [];
  readonly #pages: { label: string; page: Page }[] = [];

  /**
   * Records `page`'s events under `label`, and bounds its waits to 15 s: one that hangs then fails
   * naming what it waited for, well before the test's own timeout.
   */
  watch(page: Page, label: string): void {
    page.setDefaultTimeout(15_000);
    this.#pages.push({ label, page });
    page.on("websocket", (socket) => {
      this.#note(label, "socket opening");
      socket.on("framereceived", ({ payload }) => this.#note(label, `frame in: ${frameType(payload)}`));
      socket.on("framesent", ({ payload }) => this.#note(label, `frame out: ${frameType(payload)}`));
      socket.on("socketerror", (error) => this.#note(label, `socket error: ${error}`));
      socket.on("close", () => this.#note(label, "socket closed"));
    });
    page.on("console", (message) => this.#note(label, `console.${message.type()}: ${message.text()}`));
    page.on("pageerror", (error) => this.#note(label, `pageerror: ${error.message}`));
  }

  /** Prints the trace when the current test fails (call it inside the test). */
  printOnFailure(gateway: () => GatewayProcess | undefined): void {
    onTestFailed(async () => {
      const shown = await Promise.all(
        this.#pages.flatMap(({ label, page }) =>
          ['[data-testid="status"]', "#name-error"].map(async (selector) => {
            const text = await page
              .locator(selector)
              .textContent({ timeout: 2_000 })
              .catch((error: Error) => `(unreadable: ${error.message.split("\n")[0]})`);
            return `${label} ${selector}: ${text}`;
          }),
        ),
      );
      const running = gateway();
      const output = running ? running.output().slice(-4_000) : "(no gateway)";
      const report = ["page trace:", ...this.#lines, ...shown, "gateway output (end):", output].join("\n");
      // Console lines can carry the socket's URL, and the gateway prints the webchat link: both hold the token.
      console.error(running ? report.replaceAll(running.token, "<token>") : report);
    });
  }

  #note(label: string, text: string): void {
    this.#lines.push(`+${Date.now() - this.#started} ms ${label} ${text}`);
  }
}

/** A frame's `type` (frames carry messages people typed; the trace needs only their kind). */
function frameType(payload: string | Buffer): string {
  try {
    return String((JSON.parse(payload.toString()) as { type?: unknown }).type);
  } catch {
    return `(not JSON, ${payload.length} bytes)`;
  }
}
