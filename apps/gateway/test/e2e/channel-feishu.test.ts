import { fileURLToPath } from "node:url";
import { createFakeFeishu, type FakeChat, type FakeFeishu, type FakeUser } from "@chorus/channel-feishu/testing";
import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig, lastUserText } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";

const PLUGIN = fileURLToPath(new URL("../../../../packages/channel-feishu", import.meta.url));
const CONTEXT = "[Chat messages since your last reply - for context]";
const CURRENT = "[Current message - respond to this]";

describe("Feishu through the real gateway process (long connection)", () => {
  let feishu: FakeFeishu;
  let model: FakeOpenAI;
  let gateway: GatewayProcess;
  let ann: FakeUser;
  let bob: FakeUser;
  let team: FakeChat;

  beforeAll(async () => {
    // Feishu's own intervals are minutes; the fake tells the SDK to reconnect quickly.
    feishu = createFakeFeishu({ clientConfig: { ReconnectInterval: 0.1, ReconnectNonce: 0 }, ackTimeoutMs: 500 });
    await feishu.start();
    ann = feishu.addUser("Ann");
    bob = feishu.addUser("Bob");
    team = feishu.addChat({ name: "Family", members: [ann, bob] });
    model = await createFakeOpenAI({ apiKey: "sk-test" });
    gateway = await startGatewayProcess({
      config: {
        plugins: { load: [PLUGIN] },
        channels: { feishu: { ...feishu.config(), groupPolicy: "open", dmPolicy: "open" } },
        agents: { list: [{ id: "main", name: "Chorus", model: fakeModelConfig(model, { apiKey: "sk-test" }) }] },
      },
    });
    // The gateway's Feishu instance asked the endpoint for a URL and holds the WebSocket.
    await eventually(() => expect(feishu.longConnection.sessions).toHaveLength(1), { timeoutMs: 15_000 });
  }, 30_000);

  afterAll(async () => {
    await gateway?.stop();
    await model?.close();
    await feishu?.close();
    if (gateway) await removeHome(gateway.home);
  });

  const fromBot = () => feishu.messagesIn(team.chat_id).filter((m) => m.sender.sender_type === "app");

  it("an unmentioned message is buffered; the next mention brings it, and the reply and reaction reach Feishu", async () => {
    await feishu.userSends({ chatId: team.chat_id, from: ann, text: "Hotpot tonight?" });
    expect(model.requests).toHaveLength(0); // no mention: no turn
    model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "❤️" } }] },
      { text: "Hotpot it is." },
    );
    const trigger = await feishu.userSends({
      chatId: team.chat_id,
      from: bob,
      text: "what do you think?",
      mentions: ["bot"],
    });

    await eventually(() => expect(fromBot().map((m) => feishu.textOf(m))).toEqual(["Hotpot it is."]), {
      timeoutMs: 15_000,
    });
    // The answer replies to the message that asked, as a post Feishu renders from Markdown.
    expect(fromBot()[0]).toMatchObject({ parent_id: trigger.message_id, msg_type: "post" });
    await eventually(() => expect(feishu.botReactions(trigger.message_id)).toEqual(["HEART"]), { timeoutMs: 10_000 });
    const reactions = feishu.server.requestsTo("POST", `/open-apis/im/v1/messages/${trigger.message_id}/reactions`);
    expect(reactions.map((r) => r.body)).toContainEqual({ reaction_type: { emoji_type: "HEART" } });

    expect(model.requests).toHaveLength(2); // one turn: the tool call, then the reply
    const batch = lastUserText(model.requests[0]);
    expect(batch).toContain(CONTEXT);
    expect(batch).toContain("Ann: Hotpot tonight?");
    expect(batch).toContain(CURRENT);
    expect(batch).toContain("Bob: @Chorus what do you think?");
    expect(batch.indexOf("Hotpot tonight?")).toBeLessThan(batch.indexOf(CURRENT));
  });

  it("a reply to the bot's message counts as a mention, and the agent's answer goes back to it", async () => {
    const [answer] = fromBot();
    model.script({ text: "Seven o'clock." });
    await feishu.userSends({
      chatId: team.chat_id,
      from: ann,
      text: "What time?",
      replyTo: answer?.message_id as string,
    });
    await eventually(() => expect(fromBot().map((m) => feishu.textOf(m))).toContain("Seven o'clock."), {
      timeoutMs: 15_000,
    });
    expect(lastUserText(model.requests.at(-1))).toContain("Ann: What time?");
  });

  it("keeps receiving after the long connection drops", async () => {
    feishu.longConnection.drop();
    model.script({ text: "Still here." });
    await feishu.userSends({ chatId: team.chat_id, from: bob, text: "are you there?", mentions: ["bot"] });
    await eventually(() => expect(fromBot().map((m) => feishu.textOf(m))).toContain("Still here."), {
      timeoutMs: 15_000,
    });
    expect(feishu.longConnection.handshakes).toBeGreaterThanOrEqual(2);
  });
});
