import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { readTranscriptFromState } from "../support/state-db.js";

const SESSIONS = (home: string) => join(home, "agents", "main", "sessions");

/** sessions.json once the session has committed `turns` turns (the commit follows the reply). */
async function committed(home: string, key: string, turns: number) {
  let entry: Record<string, unknown> | undefined;
  await eventually(async () => {
    const file = JSON.parse(await readFile(join(SESSIONS(home), "sessions.json"), "utf8"));
    entry = file.sessions[key];
    expect(entry?.turns).toBe(turns);
  });
  return entry as Record<string, unknown> & { sessionId: string };
}

describe.each([
  ["non-streaming", false],
  ["streaming", true],
])("a turn through the real gateway process (%s model)", (_, stream) => {
  let world: ModelWorld | undefined;
  let gateway: GatewayProcess | undefined;
  afterEach(async () => {
    await gateway?.stop();
    await world?.close();
    if (gateway) await removeHome(gateway.home);
  });

  it("a group message reaches the model with the message tool; its reaction and reply reach the platform", async () => {
    world = await createModelWorld();
    world.model.script(
      { toolCalls: [{ name: "message", arguments: { action: "react", emoji: "thumbsup" } }] },
      { text: "Hi Ann, noted." },
    );
    gateway = await startGatewayProcess({ config: world.config({ stream }) });
    const trigger = world.platform.userSends({
      conversationId: "family",
      senderId: "ann",
      text: "Chorus, dinner at 7?",
    });

    await eventually(
      () => expect(world?.platform.messagesIn("family").map((m) => m.text)).toContain("Hi Ann, noted."),
      {
        timeoutMs: 15_000,
      },
    );
    const reply = world.platform.messagesIn("family").find((m) => m.text === "Hi Ann, noted.");
    expect(reply).toMatchObject({ senderId: "bot", replyTo: { id: trigger.id, senderId: "ann" } });
    // The agent's 👍 stays; the runtime's 👀 ack (a mention in a group) is gone once the turn ends.
    await eventually(() => expect(world?.platform.botReactions(trigger.id)).toEqual(["👍"]));

    const [first, second] = world.model.requests;
    expect(first?.stream ?? false).toBe(stream);
    // A group turn's user message is the batch, ending with who wrote it (DESIGN §4).
    expect(first?.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Ann: Chorus, dinner at 7?\n[from: Ann (+4915100000001)]",
    });
    expect(first?.messages[0]).toMatchObject({ role: "system" });
    const tool = first?.tools?.[0] as unknown as {
      function: { name: string; parameters: { properties: Record<string, unknown> } };
    };
    expect(tool.function.name).toBe("message");
    expect(Object.keys(tool.function.parameters.properties)).toEqual(
      expect.arrayContaining(["action", "emoji", "remove", "clearAll", "messageId"]),
    );
    const toolResult = second?.messages.find((m) => m.role === "tool") as { content: string };
    expect(JSON.parse(toolResult.content)).toMatchObject({ ok: true, action: "react", op: "add" });

    const entry = await committed(gateway.home, "agent:main:memory:group:family", 1);
    expect(entry).toMatchObject({
      channel: "memory",
      conversationId: "family",
      chatType: "group",
      title: "Family",
      turns: 1,
    });
    // The reply's id is filled in once it was sent, just after the turn's commit.
    const transcript = await eventually(() => {
      const entries = readTranscriptFromState(gateway?.home as string, entry.sessionId);
      expect(entries.at(-1)?.messageId).toBeDefined();
      return entries;
    });
    expect(transcript.map((e) => e.role)).toEqual(["user", "tool", "assistant"]);
    expect(transcript[0]).toMatchObject({
      content: "Ann: Chorus, dinner at 7?\n[from: Ann (+4915100000001)]",
      messageId: trigger.id,
      name: "Ann",
    });
    expect(transcript[1]).toMatchObject({ name: "message", input: { action: "react", emoji: "thumbsup" } });
    expect(transcript[2]).toMatchObject({ content: "Hi Ann, noted.", messageId: reply?.id });
  });

  it("the next turn of the session carries the transcript as history", async () => {
    world = await createModelWorld();
    world.model.script({ text: "first answer" }, { text: "second answer" });
    gateway = await startGatewayProcess({ config: world.config({ stream }) });
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "one" });
    await eventually(() => expect(world?.platform.messagesIn("dm-ann").map((m) => m.text)).toContain("first answer"));
    world.platform.userSends({ conversationId: "dm-ann", senderId: "ann", text: "two" });
    await eventually(() => expect(world?.platform.messagesIn("dm-ann").map((m) => m.text)).toContain("second answer"));
    const second = world.model.requests[1];
    expect(second?.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ["user", "one"],
      ["assistant", "first answer"],
      ["user", "two"],
    ]);
    expect(await committed(gateway.home, "agent:main:memory:dm:ann", 2)).toMatchObject({ chatType: "direct" });
  });
});
