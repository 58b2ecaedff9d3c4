import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BOT_API_PATH } from "./client.js";
import { IDENTITY_KEY } from "./identity.js";
import { nextcloudChannel } from "./index.js";
import { createFakeTalk, type FakeBot, type FakeTalk } from "./testing/index.js";

const ann = { id: "ann", name: "Ann" };
let stateDir: string;
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel | undefined;

beforeEach(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "chorus-nc-upgrade-"));
  fake = createFakeTalk();
  await fake.start();
  // Installed behind a proxy: the actor id Talk gives the bot is not the one the hook URL would give.
  bot = fake.installBot({ name: "Chorus", secret: "k".repeat(64), url: "https://proxy.example.com/talk-bot" });
  fake.addRoom({ token: "team", name: "Team" });
  fake.setupBot(bot, "team");
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** Writes a file the way version 0.1 did (`JSON.stringify`, no formatting). */
const writeLegacy = (name: string, value: unknown) => writeFile(join(stateDir, name), JSON.stringify(value));
const start = async () => {
  const { botName: _unset, ...config } = fake.config(bot);
  running = await startChannel(nextcloudChannel, { config, stateDir });
  return running;
};

describe("upgrade from 0.1: identity.json and reactions.json move into the store", () => {
  it("imports both files once, renames them .imported, and finds the bot and its reactions", async () => {
    const target = fake.userSends({ token: "team", user: ann, message: "react to me" });
    const id = Number(target.object.id);
    // What 0.1 left: the identity a Join taught, and the reaction it had set (Talk holds it too).
    await writeLegacy("identity.json", { botId: bot.actorId, name: "Chorus" });
    await writeLegacy("reactions.json", { [`team/${id}`]: ["👍"], "team/77": ["🎉", "❤️"] });
    fake.state.addReaction(id, bot.actorId, "👍");

    const channel = await start();
    expect(channel.instance.identity?.()).toEqual({ id: bot.actorId, name: "Chorus", isBot: true });
    expect(await channel.store.get(IDENTITY_KEY)).toEqual({ botId: bot.actorId, name: "Chorus" });
    expect((await readdir(stateDir)).sort()).toEqual([
      ".chorus-store",
      "identity.json.imported",
      "reactions.json.imported",
    ]);

    // The imported record answers "already there" without asking Talk, also after a restart.
    const ref = await channel.instance.resolveMessageRef({ id: "team" }, String(id));
    const react = () =>
      performReaction({ plugin: nextcloudChannel, instance: channel.instance, ref, call: { emoji: "thumbsup" } });
    expect(await react()).toMatchObject({ ok: true, op: "add", emoji: "👍" });
    await channel.restart();
    expect(await react()).toMatchObject({ ok: true, op: "add", emoji: "👍" });
    expect(fake.server.requestsTo("POST", `${BOT_API_PATH}/team/reaction/${id}`)).toEqual([]);
    expect(fake.botReactions(id, bot)).toEqual(["👍"]);
    expect(
      channel.logs.at("info").filter((r) => r.message === "imported earlier channel state into the store"),
    ).toHaveLength(2);
  });

  it("a value learned since wins over the file, which is still renamed", async () => {
    await writeLegacy("identity.json", { botId: "bots/bot-old", name: "Old" });
    const first = await start();
    await first.store.set(IDENTITY_KEY, { botId: bot.actorId, name: "Chorus" });
    await writeLegacy("identity.json", { botId: "bots/bot-older", name: "Older" });
    await first.restart();
    expect(first.instance.identity?.()?.id).toBe(bot.actorId);
    expect((await readdir(stateDir)).filter((f) => f.startsWith("identity.json"))).toEqual(
      expect.arrayContaining(["identity.json.imported", "identity.json.imported-1"]),
    );
  });

  it("sets an unreadable file aside with a warning and starts anyway", async () => {
    await writeFile(join(stateDir, "reactions.json"), "{ truncated");
    const channel = await start();
    expect(channel.instance.status().state).toBe("running");
    expect(channel.logs.at("warn").map((r) => r.message)).toEqual([
      expect.stringMatching(/could not import .*reactions\.json \(not valid JSON\); set it aside/),
    ]);
    expect((await readdir(stateDir)).some((f) => f.startsWith("reactions.json.corrupt"))).toBe(true);
  });
});
