import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFakeSlack, type FakeSlack } from "@chorus/channel-slack/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-slack", import.meta.url));
const ANN = "U0ANN00001";
const BOB = "U0BOB00001";
const TEAM = "C0TEAM0001";
const CONTEXT = "[Chat messages since your last reply - for context]";
const CURRENT = "[Current message - respond to this]";

for (const mode of ["socket", "http"] as const) {
  describe(`Slack (${mode === "socket" ? "Socket Mode" : "Events API over HTTP"}) through the real gateway process`, () => {
    let slack: FakeSlack;
    let model: FakeOpenAI;
    let gateway: GatewayProcess;
    let requestUrl: string;

    beforeAll(async () => {
      slack = createFakeSlack({ mode });
      await slack.start();
      slack.addUser({ id: ANN, name: "ann", real_name: "Ann Lee", display_name: "Ann" });
      slack.addUser({ id: BOB, name: "bob", real_name: "Bob Stone", display_name: "Bob" });
      slack.addConversation({ id: TEAM, type: "channel", name: "team", members: [slack.bot.id, ANN, BOB] });
      model = await createFakeOpenAI({ apiKey: "sk-test" });
      gateway = await startGatewayProcess({
        config: {
          plugins: { load: [PLUGIN] },
          channels: { slack: { ...slack.config(), groupPolicy: "open", dmPolicy: "open" } },
          agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
        },
      });
      requestUrl = `${gateway.url}/hooks/slack/default/events`;
      if (mode === "socket") {
        // The gateway's Slack instance opened a Socket Mode connection and got hello.
        await eventually(() => expect(slack.socket.connections).toBe(1), { timeoutMs: 15_000 });
      } else {
        // What the person does in the app config: paste the Request URL; Slack verifies it.
        await eventually(async () => expect(await slack.http.verify(requestUrl)).toBe(true), { timeoutMs: 15_000 });
        await eventually(() =>
          expect(gateway.output()).toContain(`Request URL for Event Subscriptions: ${requestUrl}`),
        );
      }
    }, 30_000);

    afterAll(async () => {
      await gateway?.stop();
      await model?.close();
      await slack?.close();
      if (gateway) await removeHome(gateway.home);
    });

    it("an unmentioned message is buffered; a mention Slack sends twice (app_mention and message) is answered once, with the reply and a reaction", async () => {
      await slack.userSends({ channel: TEAM, user: BOB, text: "Pizza tonight?" });
      model.script(
        { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "👍" } }] },
        { text: "Pizza sounds **good**, Ann." },
      );
      const trigger = await slack.userSends({
        channel: TEAM,
        user: ANN,
        text: `<@${slack.bot.id}> what do you think?`,
      });
      const events = slack.mode === "http" ? slack.http.posted.length : slack.socket.received.length;
      expect(events).toBeGreaterThanOrEqual(3); // Bob's message, then the mention as message and app_mention

      const fromBot = () => slack.messagesIn(TEAM).filter((m) => m.user === slack.bot.id);
      await eventually(() => expect(fromBot().map((m) => m.text)).toEqual(["Pizza sounds *good*, Ann."]), {
        timeoutMs: 15_000,
      });
      await eventually(() => expect(slack.botReactions(TEAM, trigger.ts)).toEqual(["thumbsup"]), { timeoutMs: 10_000 });

      expect(model.requests).toHaveLength(2); // one turn: the tool call, then the reply
      const batch = lastUserText(model.requests[0]);
      expect(batch).toContain(CONTEXT);
      expect(batch).toContain("Bob: Pizza tonight?");
      expect(batch).toContain(CURRENT);
      expect(batch).toContain("Ann: @Chorus what do you think?");
      expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf(CURRENT));
      // The second event of the mention started no second turn, also not after the reply.
      await slack.userSends({ channel: TEAM, user: BOB, text: "ok then" });
      expect(model.requests).toHaveLength(2);
      expect(fromBot()).toHaveLength(1);
    }, 40_000);

    it("a mention inside a thread is answered in that thread, in the thread's own session", async () => {
      const top = await slack.userSends({ channel: TEAM, user: BOB, text: "Release notes draft" });
      model.script({ text: "Looks complete." });
      await slack.userSends({
        channel: TEAM,
        user: ANN,
        text: `<@${slack.bot.id}> anything missing?`,
        thread_ts: top.ts,
      });
      const inThread = () => slack.messagesIn(TEAM).filter((m) => m.user === slack.bot.id && m.thread_ts === top.ts);
      await eventually(() => expect(inThread().map((m) => m.text)).toEqual(["Looks complete."]), { timeoutMs: 15_000 });
      const key = `agent:main:slack:group:${TEAM}:topic:${top.ts}`;
      await eventually(async () => {
        const sessions = JSON.parse(
          await readFile(join(gateway.home, "agents", "main", "sessions", "sessions.json"), "utf8"),
        );
        expect(Object.keys(sessions.sessions)).toContain(key);
      });
    }, 30_000);

    if (mode === "http") {
      it("a forged request is refused with 401 and reaches no model", async () => {
        const before = model.requests.length;
        expect(await slack.forge(`<@${slack.bot.id}> forged`, requestUrl)).toBe(401);
        expect(model.requests).toHaveLength(before);
      });
    }
  });
}
