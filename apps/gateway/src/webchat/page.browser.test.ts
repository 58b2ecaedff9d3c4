import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { performReaction } from "@chorus/core";
import type { RunningChannel } from "@chorus/testkit";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { WebchatHub } from "./hub.js";
import { type PageHarness, startPageHarness } from "./page-harness.test.util.js";
import { createWebchatPlugin } from "./plugin.js";
import { WebchatSite } from "./site.js";
import { closeServer, listen } from "./support.test.util.js";

const TOKEN = "browser-test-token-0123456789";
const site = new WebchatSite({ botName: "Chorus" });
const plugin = () => createWebchatPlugin(site);
let harness: PageHarness;
let browser: Browser;
let server: Server;
let baseUrl: string;
let running: RunningChannel;

/** The running instance's hub. */
function hub(): WebchatHub {
  if (!site.hub) throw new Error("the webchat instance is not running");
  return site.hub;
}

let context: BrowserContext;
let page: Page;
const pageProblems: string[] = [];

beforeAll(async () => {
  harness = await startPageHarness({
    site,
    plugin: plugin(),
    config: { title: "Chorus test chat" },
    token: TOKEN,
    name: "browser",
  });
  ({ browser, server, baseUrl, running } = harness);
});

afterAll(async () => {
  await harness?.close();
});

beforeEach(async () => {
  context = await browser.newContext();
  page = await context.newPage();
  pageProblems.length = 0;
  page.on("pageerror", (error) => pageProblems.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") pageProblems.push(message.text());
  });
});

afterEach(async () => {
  await context.close();
  expect(pageProblems).toEqual([]);
});

async function enter(name: string): Promise<string> {
  await page.goto(`${baseUrl}/?token=${TOKEN}`);
  await page.getByTestId("name-input").fill(name);
  await page.getByTestId("name-submit").click();
  await page
    .getByTestId("me")
    .filter({ hasText: `You are ${name}` })
    .waitFor();
  return page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId") ?? ""`);
}

async function say(text: string): Promise<void> {
  await page.getByTestId("composer").fill(text);
  await page.getByTestId("send").click();
}

const message = (sender: string, text: string) =>
  page.locator(`[data-testid="message"][data-sender="${sender}"]`).filter({ hasText: text });
const chip = (emoji: string, count?: number) =>
  page.locator(
    `[data-testid="reaction"][data-emoji="${emoji}"]${count === undefined ? "" : `[data-count="${count}"]`}`,
  );

async function lastInbound(text: string) {
  const event = await running.waitForEvent((e) => e.type === "message" && e.text === text);
  if (event.type !== "message") throw new Error("not a message event");
  return event;
}

describe("webchat page in Chromium", () => {
  it("sends a message and shows the bot's reactions, reply and typing live", async () => {
    const userId = await enter("Ada");
    expect(await page.title()).toBe("Chorus test chat");
    await say("hello bot");
    await message("Ada", "hello bot").waitFor();
    const inbound = await lastInbound("hello bot");
    expect(inbound.conversation).toMatchObject({ id: `dm:${userId}`, kind: "direct" });
    const react = (call: object) =>
      performReaction({ plugin: plugin(), instance: running.instance, ref: inbound.ref, call });

    await react({ emoji: "thumbsup" });
    await chip("👍", 1).waitFor();
    await react({ emoji: "❤️" });
    await chip("❤", 1).waitFor();
    await react({ clearAll: true });
    await chip("👍").waitFor({ state: "detached" });
    expect(await chip("❤").count()).toBe(0);

    await running.instance.setTyping({ id: inbound.conversation.id }, true);
    await page.getByTestId("typing").filter({ hasText: "Chorus is typing…" }).waitFor();
    await running.instance.send(inbound.conversation, { text: "hello Ada", replyTo: inbound.ref });
    const reply = message("Chorus", "hello Ada");
    await reply.waitFor();
    expect(await reply.getByTestId("reply-quote").textContent()).toBe("↩ Ada: hello bot");
    // The bot's message ends its typing indicator.
    expect(await page.getByTestId("typing").textContent()).toBe("");
  });

  it("toggles the person's own reaction by clicking a chip, and adds one from the picker", async () => {
    const userId = await enter("Bea");
    await say("react with me");
    const inbound = await lastInbound("react with me");
    await running.instance.react(inbound.ref, { op: "add", emoji: "👍" });
    await chip("👍", 1).click();
    await chip("👍", 2).waitFor();
    expect(hub().reactionsBy(inbound.ref.messageId, userId)).toEqual(["👍"]);
    expect(await chip("👍").getAttribute("aria-pressed")).toBe("true");
    await chip("👍", 2).click();
    await chip("👍", 1).waitFor();
    expect(hub().reactionsBy(inbound.ref.messageId, userId)).toEqual([]);
    expect(hub().botReactions(inbound.ref.messageId)).toEqual(["👍"]);

    const mine = message("Bea", "react with me");
    await mine.getByTestId("react").click();
    await mine.getByTestId("picker-emoji").filter({ hasText: "🎉" }).click();
    await chip("🎉", 1).waitFor();
    expect(hub().reactionsBy(inbound.ref.messageId, userId)).toEqual(["🎉"]);
    expect(running.events.filter((e) => e.type === "reaction").map((e) => [e.emoji, e.action])).toEqual(
      expect.arrayContaining([
        ["👍", "added"],
        ["👍", "removed"],
        ["🎉", "added"],
      ]),
    );
  });

  it("joins a group room by name, highlights mentions and keeps user text as text", async () => {
    await enter("Cy");
    await page.getByTestId("join-input").fill("Team Room");
    await page.getByTestId("join-submit").click();
    await page.locator('[data-testid="room"][data-room="team-room"][aria-current="page"]').waitFor();
    await say("@chorus what is <img src=x onerror=alert(1)>?");
    const sent = message("Cy", "what is");
    await sent.waitFor();
    expect(await sent.locator(".mention").textContent()).toBe("@chorus");
    expect(await sent.locator("img").count()).toBe(0);
    expect(await sent.locator(".text").textContent()).toBe("@chorus what is <img src=x onerror=alert(1)>?");
    const inbound = await lastInbound("@chorus what is <img src=x onerror=alert(1)>?");
    expect(inbound.conversation).toMatchObject({ id: "team-room", kind: "group" });
    expect(inbound.mentions.bot).toBe(true);
  });

  it("keeps the identity and shows the history after a reload", async () => {
    const userId = await enter("Dee");
    await say("remember me");
    await message("Dee", "remember me").waitFor();
    await page.reload();
    await page.getByTestId("me").filter({ hasText: "You are Dee" }).waitFor();
    await message("Dee", "remember me").waitFor();
    expect(await page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId")`)).toBe(userId);
    expect(await page.getByTestId("name-input").isVisible()).toBe(false);
  });

  it("connects again after the instance restarted, with its identity and the history kept in the store", async () => {
    const userId = await enter("Gus");
    await say("before the restart");
    await message("Gus", "before the restart").waitFor();
    await running.restart();
    await running.instance.send({ id: `dm:${userId}` }, { text: "back after the restart" });
    await message("Chorus", "back after the restart").waitFor();
    await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
    expect(await message("Gus", "before the restart").count()).toBe(1);
    await say("after the restart");
    const inbound = await lastInbound("after the restart");
    expect(inbound.sender).toEqual({ id: userId, name: "Gus" });
  });

  it("gives up a socket that stays connecting, opens another and connects", async () => {
    const stalling = await holdFirstUpgrade();
    let sockets = 0;
    page.on("websocket", () => {
      sockets++;
    });
    try {
      await page.goto(`${stalling.url}/?token=${TOKEN}`);
      expect(await page.getByTestId("status").textContent()).toBe("Connecting…");
      await page.getByTestId("name-input").fill("Eve");
      await page.getByTestId("name-submit").click();
      await page.getByTestId("me").filter({ hasText: "You are Eve" }).waitFor({ timeout: 15_000 });
      await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
      expect(stalling.held).toHaveLength(1);
      expect(sockets).toBe(2);
    } finally {
      await stalling.close();
    }
  });

  it("keeps the name being typed when the socket opens meanwhile", async () => {
    const stalling = await holdFirstUpgrade();
    try {
      await page.goto(`${stalling.url}/?token=${TOKEN}`);
      await page.getByTestId("name-input").fill("Fay");
      stalling.release();
      await page.getByTestId("status").filter({ hasText: "Choose a name to start" }).waitFor();
      expect(await page.getByTestId("name-input").inputValue()).toBe("Fay");
      await page.getByTestId("name-submit").click();
      await page.getByTestId("me").filter({ hasText: "You are Fay" }).waitFor();
    } finally {
      await stalling.close();
    }
  });
});

/**
 * A second server for the page whose first WebSocket upgrade is held unanswered (the browser's
 * socket stays connecting) until `release` passes it on; later upgrades go to the webchat at once.
 */
async function holdFirstUpgrade() {
  const held: { req: IncomingMessage; socket: Duplex; head: Buffer }[] = [];
  let released = false;
  const { server: stalling, port } = await listen(harness.servePage);
  stalling.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (held.length > 0) return void server.emit("upgrade", req, socket, head);
    held.push({ req, socket, head });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    held,
    release() {
      const first = held[0];
      if (!first || released) throw new Error("no held upgrade to release");
      released = true;
      server.emit("upgrade", first.req, first.socket, first.head);
    },
    async close() {
      // The page's live socket is one of this server's connections: the page goes first.
      await context.close();
      for (const { socket } of held) socket.destroy();
      await closeServer(stalling);
    },
  };
}
