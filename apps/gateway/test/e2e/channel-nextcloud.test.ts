import { fileURLToPath } from "node:url";
import { createFakeTalk, type FakeBot, type FakeTalk } from "@chorus/channel-nextcloud/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN_DIR = fileURLToPath(new URL("../../../../packages/channel-nextcloud", import.meta.url));
const SECRET = "e2e-shared-secret-".padEnd(64, "x");
const ada = { id: "ada", name: "Ada" };
const bob = { id: "bob", name: "Bob" };

describe("Nextcloud Talk through the real gateway process", () => {
  let talk: FakeTalk;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;
  let bot: FakeBot;

  beforeAll(async () => {
    talk = createFakeTalk();
    await talk.start();
    talk.addRoom({ token: "team", name: "Team Room" });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN_DIR] },
        channels: {
          nextcloud: { baseUrl: talk.url, secret: SECRET, botName: "Chorus", groupPolicy: "open", dmPolicy: "open" },
        },
        agents: {
          list: [
            {
              id: "main",
              name: "Chorus",
              model: fakeModelConfig(model, { apiKey: "sk-test" }),
            },
          ],
        },
      },
    });
    // What the admin does with the URL the gateway printed: occ talk:bot:install + talk:bot:setup.
    bot = talk.installBot({ name: "Chorus", secret: SECRET, url: `${gateway.url}/hooks/nextcloud/default` });
    talk.setupBot(bot, "team");
  }, 30_000);

  /** What the bot wrote in the team conversation, as Talk stores it. */
  const botMessages = () =>
    talk
      .messagesIn("team")
      .filter((m) => m.actorId === bot.actorId)
      .map((m) => m.message);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await talk?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("prints the webhook URL to register", async () => {
    // The channel starts next to the HTTP server, so its log line may follow "listening on".
    await eventually(() => {
      expect(gateway.output()).toContain(`${gateway.url}/hooks/nextcloud/default`);
      // The actor id the plugin derives from that URL is the one Talk gives the installed bot.
      expect(gateway.output()).toContain(bot.actorId);
    });
  });

  it("a mention reaches the model; the reply and a reaction reach Talk; unmentioned messages are buffered", async () => {
    const unmentioned = talk.userSends({ token: "team", user: bob, message: "Pizza tonight?" });
    expect(await talk.dispatch("team", unmentioned)).toEqual([200]);
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Pizza sounds good, Ada." },
    );
    const trigger = talk.userSends({
      token: "team",
      user: ada,
      message: "@Chorus what do you think about {mention-user1}'s idea?",
      parameters: { "mention-user1": { type: "user", id: "bob", name: "Bob" } },
    });
    expect(await talk.dispatch("team", trigger)).toEqual([200]);

    await eventually(() => expect(botMessages()).toEqual(["Pizza sounds good, Ada."]), { timeoutMs: 15_000 });
    const reply = talk.messagesIn("team").find((m) => m.actorId === bot.actorId);
    expect(reply?.replyTo).toBe(Number(trigger.object.id));
    await eventually(() => expect(talk.botReactions(Number(trigger.object.id), bot)).toEqual(["👍"]));
    // The unmentioned message started no turn and arrives as context with the trigger.
    expect(model.requests).toHaveLength(2);
    const batch = lastUserText(model.requests[0]);
    expect(batch).toContain("[Chat messages since your last reply - for context]");
    expect(batch).toContain("Bob: Pizza tonight?");
    expect(batch).toContain("[Current message - respond to this]");
    expect(batch).toContain("Ada: @Chorus what do you think about @Bob's idea?");
    expect(batch.indexOf("Pizza tonight?")).toBeLessThan(batch.indexOf("@Chorus what do you think"));
  }, 30_000);

  it("answers a Talk 21+ message: talkParticipantType a numeric string, the body PHP-escaped (\\/, \\uXXXX)", async () => {
    const before = model.requests.length;
    model.script({ text: "Noted: 12/05 at 10:00 ✅" });
    const trigger = talk.userSends({
      token: "team",
      user: { ...bob, participantType: 2 },
      message: "@Chorus book room 4/B for 12/05 at 10:00 🗓️",
    });
    expect(await talk.dispatch("team", trigger)).toEqual([200]);
    // The bytes Talk sends: spreed's ActivityPubHelper casts the participant type to a string, and
    // PHP's json_encode escapes "/" and everything outside ASCII.
    const raw = talk.deliveries.at(-1)?.body ?? "";
    expect(raw).toContain('"id":"users\\/bob"');
    expect(raw).toContain('"talkParticipantType":"2"');
    expect(raw).toContain("room 4\\\\\\/B for 12\\\\\\/05");
    expect(raw).toContain("\\\\ud83d\\\\uddd3");
    await eventually(() => expect(botMessages()).toContain("Noted: 12/05 at 10:00 ✅"), { timeoutMs: 15_000 });
    expect(model.requests).toHaveLength(before + 1);
    expect(lastUserText(model.requests.at(-1))).toContain("Bob: @Chorus book room 4/B for 12/05 at 10:00 🗓️");
  }, 30_000);

  it("a hook it cannot read is answered 400 and leaves a warning in the gateway's log naming the field", async () => {
    const before = model.requests.length;
    const response = await talk.deliver(
      `${gateway.url}/hooks/nextcloud/default`,
      bot,
      talk.unreadableEvent("team", ada),
    );
    expect(response.status).toBe(400);
    await eventually(() => {
      const warning = gateway
        .logs()
        .find(
          (line) => line.level === 40 && String(line.msg).startsWith("nextcloud: skipped a delivery it cannot read"),
        );
      expect(warning?.msg).toContain("actor.talkParticipantType: expected a participant type");
      expect(warning?.msg).toContain("object.id:");
    });
    expect(model.requests).toHaveLength(before);
  });

  it("a forged hook is refused with 401 and reaches no model", async () => {
    const before = model.requests.length;
    const forged = talk.userSends({ token: "team", user: ada, message: "@Chorus forged" });
    const response = await talk.deliver(`${gateway.url}/hooks/nextcloud/default`, bot, forged, {
      secret: "not-the-secret".padEnd(64, "y"),
    });
    expect(response.status).toBe(401);
    expect(model.requests).toHaveLength(before);
  });
});
