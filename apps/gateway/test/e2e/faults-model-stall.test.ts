import { eventually } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gcEveryNodeArgs } from "../../src/testing/index.js";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";

/** What every chat member is told when the model failed. */
const NOTICE = "⚠️ Chorus could not answer right now. Please try again in a moment.";
/** The model call's deadline. */
const TIMEOUT_MS = 3_000;

describe.each([
  ["non-streaming", false],
  ["streaming", true],
])("model streams that stall after their headers (%s, two turns at once, garbage collected)", (_, stream) => {
  let world: ModelWorld;
  let gateway: GatewayProcess;

  beforeAll(async () => {
    world = await createModelWorld();
    for (const person of ["bob", "carl"]) {
      world.platform.addConversation({ id: `dm-${person}`, kind: "direct", members: [{ id: person, name: person }] });
    }
    const config = world.config({
      extra: {
        agents: {
          defaults: { maxConcurrentTurns: 2 },
          list: [
            {
              id: "main",
              name: "Chorus",
              model: {
                provider: "openai-compatible",
                baseURL: world.model.url,
                apiKey: "sk-test",
                model: "fake-model",
                stream,
                maxRetries: 0,
                timeoutMs: TIMEOUT_MS,
              },
            },
          ],
        },
      },
    });
    // The gateway collects garbage every 50 ms: a deadline only a weakly held signal kept is lost at once.
    gateway = await startGatewayProcess({ config, nodeArgs: gcEveryNodeArgs(50) });
  });
  afterAll(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  /** The bot's messages in a conversation after the first `from`. */
  const answers = (conversationId: string, from = 0) =>
    world.platform
      .messagesIn(conversationId)
      .slice(from)
      .filter((m) => m.senderId === "bot")
      .map((m) => m.text);

  it("a third person is answered, the stalled two get the notice at the timeout, and their next messages are answered", async () => {
    world.model.reset();
    world.model.script({ stall: true }, { stall: true });
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "first from ann" });
    world.platform.userSends({ conversationId: "dm-bob", senderId: "bob", text: "first from bob" });
    // Both turns hold a slot each, their model streams stalled.
    await world.model.waitForRequests(2, 10_000);
    const stalledAt = Date.now();
    world.platform.userSends({ conversationId: "dm-carl", senderId: "carl", text: "hello from carl" });
    expect(
      await eventually(() => answers("dm-carl").at(0) ?? expect.fail("no answer yet"), { timeoutMs: 15_000 }),
    ).toBe("ok");
    for (const person of ["ann", "bob"]) {
      expect(
        await eventually(() => answers(`dm-${person}`).at(0) ?? expect.fail("no notice yet"), { timeoutMs: 15_000 }),
      ).toBe(NOTICE);
    }
    expect(Date.now() - stalledAt).toBeGreaterThanOrEqual(TIMEOUT_MS - 1_000);
    const logged = gateway.logs().filter((line) => line.msg === "the agent could not answer");
    expect(logged.map((line) => String(line.err))).toEqual([
      expect.stringContaining(`did not answer within ${TIMEOUT_MS}ms`),
      expect.stringContaining(`did not answer within ${TIMEOUT_MS}ms`),
    ]);

    for (const person of ["ann", "bob"]) {
      const before = world.platform.messagesIn(`dm-${person}`).length;
      world.platform.userSends({ conversationId: `dm-${person}`, senderId: person, text: `again from ${person}` });
      expect(
        await eventually(() => answers(`dm-${person}`, before).at(0) ?? expect.fail("no answer yet"), {
          timeoutMs: 10_000,
        }),
      ).toBe("ok");
    }
    expect(gateway.process.exitCode).toBeNull();
  });
});
