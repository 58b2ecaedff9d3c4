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

  /** Records `page`'s events under `label`. */
  watch(page: Page, label: string): void {
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
      const statuses = await Promise.all(
        this.#pages.map(async ({ label, page }) => {
          const status = await page
            .getByTestId("status")
            .textContent({ timeout: 2_000 })
            .catch((error: Error) => `(unreadable: ${error.message.split("\n")[0]})`);
          return `${label} status: ${status}`;
        }),
      );
      const running = gateway();
      const output = running ? running.output().replaceAll(running.token, "<token>").slice(-4_000) : "(no gateway)";
      console.error(["page trace:", ...this.#lines, ...statuses, "gateway output (end):", output].join("\n"));
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
