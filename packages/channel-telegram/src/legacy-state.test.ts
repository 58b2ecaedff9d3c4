import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type MessageRef, performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { telegramChannel } from "./index.js";
import { createFakeTelegram, type FakeTelegram } from "./testing/index.js";

const GROUP = -1001;
const ANN = { id: 501, is_bot: false as const, first_name: "Ann" };
let fake: FakeTelegram;
let channel: RunningChannel | undefined;
let stateDir: string;

beforeEach(async () => {
  fake = createFakeTelegram();
  await fake.start();
  fake.addChat({ id: GROUP, type: "supergroup", title: "Team" });
  stateDir = await mkdtemp(join(tmpdir(), "chorus-telegram-upgrade-"));
});

afterEach(async () => {
  await channel?.stop();
  channel = undefined;
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** A file exactly as version 0.1's `StateFile` wrote it: compact JSON and a newline. */
const writeOld = (name: string, value: unknown) => writeFile(join(stateDir, name), `${JSON.stringify(value)}\n`);
const start = async () => {
  channel = await startChannel(telegramChannel, { config: fake.config(), stateDir });
  return channel;
};
const react = (running: RunningChannel, ref: MessageRef, call: Record<string, unknown>) =>
  performReaction({ plugin: telegramChannel, instance: running.instance, ref, call });
const reactionCalls = () => fake.server.requestsTo("POST", /\/setMessageReaction$/).map((r) => r.body);

describe("upgrading from 0.1 (state files in stateDir → the channel's store)", () => {
  it("finds the bot's reaction and the group migration the previous version recorded", async () => {
    // What 0.1 left behind: the bot holds 👍 on its message 1 in the group, and group -42 became -1009.
    const botMessage = fake.state.postMessage(GROUP, fake.bot, { text: "Pasta at 7." });
    fake.state.setReactions(GROUP, botMessage.message_id, fake.bot.id, [{ type: "emoji", emoji: "👍" }]);
    fake.addChat({ id: -42, type: "group", title: "Family" });
    fake.addChat({ id: -1009, type: "supergroup", title: "Family" });
    (fake.state.chat(-42) as { migrated_to?: number }).migrated_to = -1009;
    await writeOld("bot-reactions.json", { reactions: { [`${GROUP}:${botMessage.message_id}`]: ["👍"] } });
    await writeOld("chat-migrations.json", { migrated: { "-42": "-1009" } });

    const running = await start();
    const ref = await running.instance.resolveMessageRef({ id: String(GROUP) }, String(botMessage.message_id));
    // The record is there: adding what the slot holds sends nothing, and clearing removes it.
    expect(await react(running, ref, { emoji: "👍" })).toEqual({ ok: true, action: "react", op: "add", emoji: "👍" });
    expect(await react(running, ref, { emoji: "" })).toMatchObject({ op: "clear", removed: ["👍"] });
    expect(reactionCalls()).toEqual([{ chat_id: String(GROUP), message_id: botMessage.message_id, reaction: [] }]);
    expect(fake.botReactions(GROUP, botMessage.message_id)).toEqual([]);

    // The migrated group keeps its old id, in and out.
    fake.userSends({ chatId: -1009, from: ANN, text: "still the family" });
    const event = await running.waitForEvent((e) => e.type === "message" && e.text === "still the family");
    expect(event.conversation.id).toBe("-42");
    await running.instance.send({ id: "-42" }, { text: "hello family" });
    expect(
      fake.server.requestsTo("POST", /\/sendMessage$/).map((r) => (r.body as { chat_id: unknown }).chat_id),
    ).toEqual(["-1009"]);

    // Imported once: the files are kept as `.imported`, and a restart reads the store alone.
    expect((await readdir(stateDir)).sort()).toEqual(
      expect.arrayContaining(["bot-reactions.json.imported", "chat-migrations.json.imported"]),
    );
    expect(await readdir(stateDir)).not.toContain("bot-reactions.json");
    await running.restart();
    fake.userSends({ chatId: -1009, from: ANN, text: "after the restart" });
    const again = await running.waitForEvent((e) => e.type === "message" && e.text === "after the restart");
    expect(again.conversation.id).toBe("-42");
  });

  it("an unreadable old file is set aside with a warning; the channel starts all the same", async () => {
    await writeFile(join(stateDir, "bot-reactions.json"), "{ not json");
    const running = await start();
    expect(running.instance.status()).toMatchObject({ state: "running" });
    expect(running.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(/could not import .*bot-reactions\.json \(not valid JSON\); set it aside/),
    ]);
    const aside = (await readdir(stateDir)).find((name) => name.startsWith("bot-reactions.json.corrupt"));
    expect(aside).toBeDefined();
    expect(await readFile(join(stateDir, aside as string), "utf8")).toBe("{ not json");
  });
});
