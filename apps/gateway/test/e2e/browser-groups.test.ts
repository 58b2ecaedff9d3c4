import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { PageTrace } from "../support/page-trace.js";

const ROOM = "team";
const REPLY_TIMEOUT = 15_000;
const DEMO = "Demo agent (offline): you said";
const DEMO_TAIL = "Configure a model in chorus.json to talk to a real one.";

/** One person in the webchat: their page and the user id the gateway gave them. */
interface Person {
  name: string;
  page: Page;
  userId: string;
}

/** The demo agent's answer to a message that came without pending context (see `demoText`). */
function demoAnswer(text: string): string {
  return `${DEMO} "${text}". ${DEMO_TAIL}`;
}

describe("two webchat people in one group room with the real `chorus start` (no config) and Chromium", () => {
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

  /** Opens the webchat in a fresh browser context (own localStorage: a separate person) and names them. */
  async function arrive(name: string): Promise<Person> {
    const running = gateway as GatewayProcess;
    const context = await (browser as Browser).newContext({ viewport: { width: 1100, height: 720 } });
    const page = await context.newPage();
    trace.watch(page, name);
    page.on("pageerror", (error) => pageProblems.push(`${name} pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") pageProblems.push(`${name} console.error: ${message.text()}`);
    });
    await page.goto(`${running.url}/?token=${running.token}`);
    await page.getByTestId("name-input").fill(name);
    await page.getByTestId("name-submit").click();
    await page
      .getByTestId("me")
      .filter({ hasText: `You are ${name}` })
      .waitFor();
    await page.getByTestId("status").filter({ hasText: "Connected" }).waitFor();
    const userId = await page.evaluate<string>(`localStorage.getItem("chorus.webchat.userId") ?? ""`);
    expect(userId).toMatch(/^u_/);
    return { name, page, userId };
  }

  /** Joins the group room through the sidebar form and waits until it is the open room. */
  async function joinRoom(person: Person, room: string): Promise<void> {
    await person.page.getByTestId("join-input").fill(room);
    await person.page.getByTestId("join-submit").click();
    await person.page.locator(`[data-testid="room"][data-room="${room}"][aria-current="page"]`).waitFor();
    await person.page
      .getByTestId("room-title")
      .filter({ hasText: `#${room}` })
      .waitFor();
  }

  /** Types a message into the open room and waits until the person's page shows it as sent. */
  async function say(person: Person, text: string): Promise<void> {
    await person.page.getByTestId("composer").fill(text);
    await person.page.getByTestId("send").click();
    await messageText(person.page, person.userId).filter({ hasText: text }).last().waitFor();
    expect(await person.page.getByTestId("composer").inputValue()).toBe("");
  }

  /** The text paragraphs of the open room's messages from `senderId`. */
  function messageText(page: Page, senderId: string): Locator {
    return page.locator(`[data-testid="message"][data-sender-id="${senderId}"] p.text`);
  }

  /** The bot's messages in the open room, as their exact texts. */
  async function botTexts(page: Page): Promise<string[]> {
    return messageText(page, "bot").evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ""));
  }

  /** Waits until both pages show a bot message containing `marker`, and returns all bot texts of each. */
  async function botAnswerSeenBy(people: Person[], marker: string): Promise<string[][]> {
    for (const person of people) {
      await messageText(person.page, "bot").filter({ hasText: marker }).waitFor({ timeout: REPLY_TIMEOUT });
    }
    return Promise.all(people.map((person) => botTexts(person.page)));
  }

  // Two Chromium pages and the gateway on 2 cores shared with the rest of the suite: a generous bound.
  it("answers only when mentioned until an owner sends /activation always, then answers everyone", {
    timeout: 90_000,
  }, async () => {
    trace.printOnFailure(() => gateway);
    const running = gateway as GatewayProcess;
    const ada = await arrive("Ada");
    const ben = await arrive("Ben");
    expect(ben.userId).not.toBe(ada.userId);
    await joinRoom(ada, ROOM);
    await joinRoom(ben, ROOM);
    // Ada's page learns that Ben joined, so both are in the room before anyone writes.
    await ada.page.getByTestId("room-members").filter({ hasText: "Ben" }).waitFor();
    await expect.poll(() => ben.page.getByTestId("room-members").textContent()).toBe("Chorus, Ada, Ben");

    // Not mentioned: kept as context, no answer.
    const quiet = "Is anyone around for the release review?";
    await say(ada, quiet);
    await messageText(ben.page, ada.userId).filter({ hasText: quiet }).waitFor();

    // Mentioned: the one answer comes for this message and carries the quiet one only as context.
    // (Per-session order: had the quiet message been answered, that answer would have come first.)
    const mention = "@Chorus hi";
    await say(ada, mention);
    const afterMention = await botAnswerSeenBy([ada, ben], "@Chorus hi");
    // The demo answers the current message and says how many pending ones came as context.
    const firstAnswer = `${DEMO} "${mention}" (with 1 earlier message as context). ${DEMO_TAIL}`;
    expect(afterMention).toEqual([[firstAnswer], [firstAnswer]]);

    // Everyone with the token is an owner on the webchat: Ada switches the room to always.
    await say(ada, "/activation always");
    const confirmation =
      "Activation is now always: I read every message in this group and answer when I have something to add.";
    const afterCommand = await botAnswerSeenBy([ada, ben], "Activation is now always");
    expect(afterCommand).toEqual([
      [firstAnswer, confirmation],
      [firstAnswer, confirmation],
    ]);

    // Ben writes without a mention and now gets an answer of his own (no context left over).
    const lunch = "Shall we move lunch to one?";
    await say(ben, lunch);
    const afterLunch = await botAnswerSeenBy([ada, ben], lunch);
    const lunchAnswer = demoAnswer(lunch);
    expect(afterLunch).toEqual([
      [firstAnswer, confirmation, lunchAnswer],
      [firstAnswer, confirmation, lunchAnswer],
    ]);
    // The people's own messages are all on both pages, in order.
    const people = async (page: Page): Promise<string[]> =>
      page
        .locator('[data-testid="message"]:not([data-sender-id="bot"])')
        .evaluateAll((nodes) =>
          nodes.map((node) => `${node.getAttribute("data-sender")}: ${node.querySelector("p.text")?.textContent}`),
        );
    const written = [`Ada: ${quiet}`, `Ada: ${mention}`, "Ada: /activation always", `Ben: ${lunch}`];
    expect(await people(ada.page)).toEqual(written);
    expect(await people(ben.page)).toEqual(written);

    await ada.page.context().close();
    await ben.page.context().close();
    expect(pageProblems).toEqual([]);
    const warningsOrErrors = running.logs().filter((line) => typeof line.level === "number" && line.level >= 40);
    expect(warningsOrErrors).toEqual([]);
  });
});
