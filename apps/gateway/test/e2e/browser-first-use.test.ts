import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/testing/index.js";
import { contrastOf } from "../support/contrast.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { PageTrace } from "../support/page-trace.js";
import { enterWebchat, insideViewport, openWebchat, untilInPage, type ViewportName } from "../support/webchat-page.js";

/** What a new user hit first (issue 30, item 7), at both widths, in the real gateway with its demo agent. */
describe("the webchat a new user meets, in Chromium on a desktop and a phone", () => {
  let gateway: GatewayProcess;
  let browser: Browser;
  let shots: string;
  const trace = new PageTrace();

  beforeAll(async () => {
    gateway = await startGatewayProcess({ noConfig: true, args: ["--port", "0"] });
    browser = await launchChromium();
    shots = await mkdtemp(join(tmpdir(), "chorus-first-use-"));
    console.log(`first-use screenshots: ${shots}`);
  });
  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    if (gateway) await removeHome(gateway.home);
  });

  const send = (room: string, body: object) =>
    gateway.call("POST", "/v1/tools/message", { channel: "webchat", target: room, action: "send", ...body });

  /** Whether each point is on the element `selector` finds (or inside it): nothing covers it there. */
  const onTop = (page: Page, selector: string, points: [number, number][]) =>
    page.evaluate<boolean[]>(
      `(() => { const node = document.querySelector(${JSON.stringify(selector)});
        return ${JSON.stringify(points)}.map(([x, y]) => node.contains(document.elementFromPoint(x, y))); })()`,
    );

  for (const viewport of ["desktop", "phone"] as ViewportName[]) {
    it(`${viewport}: the reaction picker of the newest message opens fully visible, not under the composer`, async () => {
      trace.printOnFailure(() => gateway);
      const { context, page, problems } = await openWebchat(browser, viewport, { trace });
      const userId = await enterWebchat(page, gateway, `Ada ${viewport}`);
      for (let i = 0; i < 10; i++)
        expect((await send(`dm:${userId}`, { text: `line ${i}\n`.repeat(4) })).status).toBe(200);
      const newest = page.locator('[data-testid="message"]').filter({ hasText: "line 9" });
      await newest.waitFor();
      await newest.getByTestId("react").click();
      const picker = newest.getByRole("group", { name: "Pick a reaction" });
      await picker.waitFor();
      await page.screenshot({ path: join(shots, `${viewport}-picker.png`) });

      const box = await picker.boundingBox();
      if (!box) throw new Error("the picker has no box");
      expect(await insideViewport(page, box)).toBe(true);
      const composer = await page.locator("#composer-form").boundingBox();
      expect(box.y + box.height).toBeLessThanOrEqual((composer?.y ?? 0) + 0.5);
      // Its corners, just inside the rounding of its border.
      const [left, right, top, bottom] = [box.x + 6, box.x + box.width - 6, box.y + 6, box.y + box.height - 6];
      const corners: [number, number][] = [
        [left, top],
        [right, top],
        [left, bottom],
        [right, bottom],
      ];
      expect(await onTop(page, ".picker:not([hidden])", corners)).toEqual([true, true, true, true]);

      // It works where it is: a reaction from it lands on the message, and it closes.
      await picker.getByTestId("picker-emoji").filter({ hasText: "🎉" }).click();
      await newest.locator('[data-testid="reaction"][data-emoji="🎉"]').waitFor();
      expect(await picker.isVisible()).toBe(false);
      await context.close();
      expect(problems).toEqual([]);
    });

    it(`${viewport}: a link without a token, or with a wrong one, says so in the dialog and shows no chat`, async () => {
      trace.printOnFailure(() => gateway);
      for (const [name, link] of [
        ["no-token", `${gateway.url}/`],
        ["wrong-token", `${gateway.url}/?token=not-the-token-0123456789`],
      ] as const) {
        const { context, page } = await openWebchat(browser, viewport, { trace, label: name });
        await page.goto(link);
        // Once the page knows the link cannot work (the status line says so)…
        await page.getByTestId("status").filter({ hasText: "chorus token --webchat" }).waitFor({ timeout: 10_000 });
        await page.screenshot({ path: join(shots, `${viewport}-${name}.png`) });
        // …it asks for no name and shows no chat, only what to do.
        for (const hidden of ["name-input", "name-submit", "composer", "messages", "join-input"]) {
          expect(await page.getByTestId(hidden).isVisible(), `${hidden} on a link with ${name}`).toBe(false);
        }
        const note = page.locator("#name-form");
        expect(await note.textContent()).toContain("This link has no valid access token — ask for a new link");
        expect(await note.textContent()).toContain("chorus token --webchat");
        await context.close();
      }
      // The right token asks for a name, as before.
      const { context, page } = await openWebchat(browser, viewport, { trace });
      await page.goto(`${gateway.url}/?token=${gateway.token}`);
      await page.getByTestId("name-input").waitFor();
      expect(await page.getByTestId("name-note").isVisible()).toBe(false);
      await context.close();
    });

    it(`${viewport}: the current room is in view in the room list, which shows when it scrolls`, async () => {
      trace.printOnFailure(() => gateway);
      const { context, page, problems } = await openWebchat(browser, viewport, { trace });
      await enterWebchat(page, gateway, `Cy ${viewport}`);
      for (const room of ["design-review", "marketing-team", "support-desk", "weekly-sync", "zeta-lab"]) {
        await page.getByTestId("join-input").fill(room);
        await page.getByTestId("join-submit").click();
        await page.locator(`[data-testid="room"][data-room="${room}"][aria-current="page"]`).waitFor();
      }
      const current = page.locator('[data-testid="room"][aria-current="page"]');
      const inStrip = async () => {
        const [room, strip] = await Promise.all([current.boundingBox(), page.locator("#room-list").boundingBox()]);
        if (!room || !strip) return false;
        return (
          room.x >= strip.x - 0.5 &&
          room.x + room.width <= strip.x + strip.width + 0.5 &&
          (await insideViewport(page, room))
        );
      };
      await page.screenshot({ path: join(shots, `${viewport}-rooms-last.png`) });
      expect(await inStrip()).toBe(true);
      const sideways = viewport === "phone";
      // On a phone the rooms before it are off to the left: the strip says so; on a desktop nothing scrolls sideways.
      expect(await page.getByTestId("rooms-back").isVisible()).toBe(sideways);
      expect(await page.getByTestId("rooms-more").isVisible()).toBe(false);

      await page.reload();
      await page.locator('[data-testid="room"][data-room="zeta-lab"][aria-current="page"]').waitFor();
      await untilInPage(page, `document.querySelector("#room-list").scrollLeft > 0 || ${!sideways}`);
      expect(await inStrip()).toBe(true);

      if (sideways) {
        await page.getByTestId("rooms-back").click();
        await page.getByTestId("rooms-more").waitFor();
        await page.locator('[data-testid="room"][data-room="lobby"]').click();
        await page.locator('[data-testid="room"][data-room="lobby"][aria-current="page"]').waitFor();
        // The strip may still be scrolling back (smooth scrolling): the room is in view once it settled.
        await expect.poll(inStrip, { timeout: 5_000, interval: 50 }).toBe(true);
        expect(await page.getByTestId("rooms-more").isVisible()).toBe(true);
        await page.screenshot({ path: join(shots, `${viewport}-rooms-lobby.png`) });
      }
      await context.close();
      expect(problems).toEqual([]);
    });

    it(`${viewport}: every button and its text have a contrast of at least 4.5:1, light and dark`, async () => {
      trace.printOnFailure(() => gateway);
      for (const colorScheme of ["dark", "light"] as const) {
        const { context, page } = await openWebchat(browser, viewport, { trace, colorScheme });
        await page.goto(`${gateway.url}/?token=${gateway.token}`);
        await page.getByTestId("name-input").waitFor();
        const dialog = await contrastOf(page, [
          '[data-testid="name-submit"]',
          "#name-title",
          'label[for="name-input"]',
        ]);
        const userId = await enterWebchat(page, gateway, `Dee ${viewport} ${colorScheme}`);
        await page.getByTestId("composer").fill("contrast, please");
        await page.getByTestId("send").click();
        // The demo agent's 👍 is a chip.
        await page.locator('[data-testid="reaction"][data-emoji="👍"]').waitFor({ timeout: 15_000 });
        await page.locator('[data-testid="message"]').last().getByTestId("react").click();
        await page.locator(".picker:not([hidden])").waitFor();
        const chat = [
          '[data-testid="send"]',
          '[data-testid="join-submit"]',
          '[data-testid="reaction"]',
          '[data-testid="picker-emoji"]',
          '[data-testid="room"]',
          '[data-testid="reply"]',
          '[data-testid="react"]',
          ".sender",
          ".time",
        ];
        const pairs = [...dialog, ...(await contrastOf(page, chat))];
        const low = (of: typeof pairs) => of.filter((pair) => pair.ratio < 4.5);
        expect(low(pairs), `${colorScheme}: pairs under 4.5:1`).toEqual([]);
        await page.keyboard.press("Escape");
        // Media: a file the agent sends is a chip; one being attached is in the tray.
        const pdf = Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64");
        expect(
          (await send(`dm:${userId}`, { text: "a file", media: [{ data: pdf, filename: "notes.pdf" }] })).status,
        ).toBe(200);
        await page.locator(".file-chip").waitFor();
        await page
          .getByTestId("attach-input")
          .setInputFiles({ name: "draft.txt", mimeType: "text/plain", buffer: Buffer.from("draft") });
        await page.locator('[data-testid="upload"][data-state="done"]').waitFor();
        await page.screenshot({ path: join(shots, `${viewport}-${colorScheme}-contrast.png`) });
        const media = [
          '[data-testid="attach"]',
          '[data-testid="upload-remove"]',
          ".upload-name",
          ".upload-status",
          ".file-name",
          ".file-size",
          ".file-get",
        ];
        pairs.push(...(await contrastOf(page, media)));
        for (const selector of [...chat, ...media])
          expect(
            pairs.some((p) => p.what.startsWith(selector)),
            selector,
          ).toBe(true);
        expect(low(pairs), `${colorScheme}: pairs under 4.5:1`).toEqual([]);
        await context.close();
      }
    });
  }
});
