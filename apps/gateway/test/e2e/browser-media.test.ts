import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sampleMedium } from "@chorus/testkit";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { PageTrace } from "../support/page-trace.js";
import { enterWebchat, openWebchat, untilInPage, type ViewportName } from "../support/webchat-page.js";

/** A 480×320 PNG the page draws itself (a real picture, big enough to see in a screenshot). */
async function drawnPng(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate<string>(`(() => {
    const canvas = document.createElement("canvas");
    canvas.width = 480;
    canvas.height = 320;
    const g = canvas.getContext("2d");
    const fill = g.createLinearGradient(0, 0, 480, 320);
    fill.addColorStop(0, "#ff9a3c");
    fill.addColorStop(1, "#3b5bdb");
    g.fillStyle = fill;
    g.fillRect(0, 0, 480, 320);
    g.fillStyle = "#fff";
    g.font = "bold 56px sans-serif";
    g.fillText("photo", 160, 180);
    return canvas.toDataURL("image/png").split(",")[1];
  })()`);
  return Buffer.from(base64, "base64");
}

/** Fires `type` (a paste on the message box, or a drop on the composer) carrying a file built in the page. */
async function hand(
  page: Page,
  how: "paste" | "drop",
  file: { name: string; type: string; base64?: string; size?: number },
) {
  await page.evaluate(`(() => {
    const file = ${JSON.stringify(file)};
    const bytes = file.base64 ? Uint8Array.from(atob(file.base64), (c) => c.charCodeAt(0)) : new Uint8Array(file.size);
    const data = new DataTransfer();
    data.items.add(new File([bytes], file.name, { type: file.type }));
    if (${JSON.stringify(how)} === "paste") {
      document.querySelector("#composer").dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    } else {
      const target = document.querySelector("#composer-form");
      target.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  })()`);
}

/** Whether every picture in `scope` loaded (the webchat's route served it with the page's token). */
const picturesLoaded = (page: Page, selector: string) =>
  untilInPage(
    page,
    `[...document.querySelectorAll(${JSON.stringify(`${selector} img.media-image`)})].every((img) => img.complete && img.naturalWidth > 0) &&
     document.querySelectorAll(${JSON.stringify(`${selector} img.media-image`)}).length > 0`,
  );

describe("media in the webchat, in Chromium, with the real gateway and its demo agent", () => {
  let gateway: GatewayProcess;
  let browser: Browser;
  let shots: string;
  const trace = new PageTrace();

  beforeAll(async () => {
    gateway = await startGatewayProcess({ noConfig: true, args: ["--port", "0"] });
    browser = await launchChromium();
    shots = await mkdtemp(join(tmpdir(), "chorus-media-"));
    console.log(`media screenshots: ${shots}`);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  for (const viewport of ["desktop", "phone"] as ViewportName[]) {
    it(`${viewport}: a photo by the attach button, one pasted, a PDF dropped reach the agent; its media come back; all stay after a reload`, async () => {
      trace.printOnFailure(() => gateway);
      const { context, page, problems } = await openWebchat(browser, viewport, { trace });
      const userId = await enterWebchat(page, gateway, `Ada ${viewport}`);
      const room = `dm:${userId}`;
      const mine = page.locator(`[data-testid="message"][data-sender-id="${userId}"]`);
      const replies = page.locator('[data-testid="message"][data-sender="Chorus"]');
      const shot = (name: string) => page.screenshot({ path: join(shots, `${viewport}-${name}.png`) });
      const png = await drawnPng(page);

      // 1. The attach button opens a file chooser; the photo goes with a caption.
      const chooser = page.waitForEvent("filechooser");
      await page.getByTestId("attach").click();
      await (await chooser).setFiles({ name: "photo.png", mimeType: "image/png", buffer: png });
      await page.locator('[data-testid="upload"][data-state="done"]').waitFor();
      await shot("1-tray");
      await page.getByTestId("composer").fill("look at this");
      await page.getByTestId("send").click();
      await mine.filter({ hasText: "look at this" }).locator('[data-testid="medium"][data-kind="image"]').waitFor();
      expect(await page.getByTestId("tray").isVisible()).toBe(false);
      await picturesLoaded(page, `[data-sender-id="${userId}"]`);
      await replies
        .filter({ hasText: /I got your photo \(photo\.png, \d+ KB\); you said "look at this"/ })
        .waitFor({ timeout: 20_000 });

      // 2. A picture pasted from the clipboard, sent without text.
      await hand(page, "paste", { name: "image.png", type: "image/png", base64: png.toString("base64") });
      await page.locator('[data-testid="upload"][data-filename="image.png"][data-state="done"]').waitFor();
      await page.getByTestId("send").click();
      await replies.filter({ hasText: /I got your photo \(image\.png, \d+ KB\)\./ }).waitFor({ timeout: 20_000 });
      expect(await mine.last().locator(".text").count()).toBe(0);

      // 3. A PDF dropped on the composer, held halfway: the tray shows its progress, Send waits for it.
      const pdf = Buffer.concat([Buffer.from(sampleMedium("file").bytes), Buffer.alloc(600 * 1024, 0x20)]);
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route(/\/hooks\/webchat\/upload\?id=.*&offset=[1-9]/, async (route) => {
        await held;
        await route.continue();
      });
      await hand(page, "drop", { name: "report.pdf", type: "application/pdf", base64: pdf.toString("base64") });
      const upload = page.locator('[data-testid="upload"][data-filename="report.pdf"]');
      await upload
        .locator(".upload-status")
        .filter({ hasText: `256 KB of ${Math.round(pdf.length / 1024)} KB` })
        .waitFor();
      expect(await upload.getAttribute("data-state")).toBe("uploading");
      await shot("2-uploading");
      await page.getByTestId("composer").fill("the report");
      await page.getByTestId("send").click();
      await page.getByTestId("send").filter({ hasText: "Sending…" }).waitFor();
      release();
      await mine.filter({ hasText: "the report" }).locator(".file-chip").waitFor();
      await replies
        .filter({ hasText: /I got your file \(report\.pdf, application\/pdf, 60\d KB\)/ })
        .waitFor({ timeout: 20_000 });
      await page.unroute(/\/hooks\/webchat\/upload/);

      // 4. A file over the limit: refused when announced, the reason in the tray; removed with ×.
      await hand(page, "drop", { name: "holiday.mov", type: "video/quicktime", size: 26 * 1024 * 1024 });
      const refused = page.getByTestId("upload-error");
      await refused.waitFor();
      expect(await refused.textContent()).toBe('"holiday.mov" is 26 MB; the webchat takes media up to 25 MB.');
      await shot("3-too-large");
      await page.locator('[data-testid="upload"][data-filename="holiday.mov"]').getByTestId("upload-remove").click();
      expect(await page.getByTestId("tray").isVisible()).toBe(false);

      // 5. The agent's own media: a picture shown in place, a PDF as a chip to download, served safely.
      const summary = sampleMedium("file");
      const sent = await gateway.call("POST", "/v1/tools/message", {
        channel: "webchat",
        target: room,
        action: "send",
        text: "Here is the chart and the summary",
        media: [
          { data: png.toString("base64"), filename: "chart.png" },
          { data: Buffer.from(summary.bytes).toString("base64"), filename: "summary.pdf" },
        ],
      });
      expect(sent.json.result).toMatchObject({ ok: true, sentAs: ["image", "file"] });
      const answer = replies.filter({ hasText: "Here is the chart" });
      await answer.locator('[data-testid="medium"][data-kind="image"]').waitFor();
      await picturesLoaded(page, '[data-sender="Chorus"]');
      expect(await answer.locator("img").getAttribute("loading")).toBe("lazy");
      const chip = answer.locator(".file-chip");
      expect(await chip.textContent()).toBe("summary.pdf596 bytesDownload");
      const href = (await chip.getAttribute("href")) as string;
      const served = await fetch(new URL(href, gateway.url));
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(summary.bytes);
      expect(served.headers.get("content-disposition")).toMatch(/^attachment; filename="summary.pdf"/);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.headers.get("content-security-policy")).toBe("sandbox");
      expect((await fetch(new URL(href.replace(/&token=.*/, ""), gateway.url))).status).toBe(401);
      await shot("4-answer");

      // 6. After a reload the history has them all.
      await page.reload();
      await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
      await mine.filter({ hasText: "look at this" }).locator('[data-testid="medium"][data-kind="image"]').waitFor();
      await mine.filter({ hasText: "the report" }).locator(".file-chip").waitFor();
      await answer.locator(".file-chip").waitFor();
      await picturesLoaded(page, '[data-testid="messages"]');
      await shot("5-reloaded");

      await context.close();
      // The 413 of the refused upload is the one error the console saw.
      expect(problems.filter((line) => !line.includes("status of 413"))).toEqual([]);
      expect(problems.length).toBeLessThanOrEqual(1);
    }, 90_000);
  }
});

describe("webchat uploads under a small gateway.maxBodyBytes, in Chromium", () => {
  let gateway: GatewayProcess;
  let browser: Browser;
  const trace = new PageTrace();

  beforeAll(async () => {
    gateway = await startGatewayProcess({ config: { gateway: { maxBodyBytes: 100 * 1024 } } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  it("halves its pieces when the gateway's body limit refuses one, and the file arrives whole", async () => {
    trace.printOnFailure(() => gateway);
    const { context, page, problems } = await openWebchat(browser, "desktop", { trace });
    const userId = await enterWebchat(page, gateway, "Eve");
    const pieces: [number, number][] = [];
    page.on("response", (response) => {
      if (response.request().method() !== "PUT") return;
      pieces.push([Number(new URL(response.url()).searchParams.get("offset")), response.status()]);
    });
    const file = Buffer.alloc(300 * 1024, 7);
    await hand(page, "drop", { name: "notes.bin", type: "application/octet-stream", base64: file.toString("base64") });
    await page.locator('[data-testid="upload"][data-state="done"]').waitFor();
    await page.getByTestId("send").click();
    const chip = page.locator(`[data-sender-id="${userId}"] .file-chip`);
    await chip.waitFor();
    const served = await fetch(new URL((await chip.getAttribute("href")) as string, gateway.url));
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    // 256 KiB and 128 KiB refused by the 100 KiB limit (413), then 64 KiB pieces.
    const K = 1024;
    expect(pieces).toEqual([
      [0, 413],
      [0, 413],
      [0, 200],
      [64 * K, 200],
      [128 * K, 200],
      [192 * K, 200],
      [256 * K, 200],
    ]);
    await context.close();
    expect(problems.filter((line) => !line.includes("status of 413"))).toEqual([]);
  });
});
