import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BotReactionRecord } from "@chorus/channel-kit";
import { type InboundMessageEvent, performReaction } from "@chorus/core";
import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { imessageChannel } from "./index.js";
import { createFakeBlueBubbles, type FakeBlueBubbles, ME } from "./testing/index.js";

const GROUP = "iMessage;+;chat42";
const ANN = "+15550001111";
const OLD_SECRET = "kept-by-version-0.1-abcdefgh";
let fake: FakeBlueBubbles;
let stateDir: string;
let running: RunningChannel | undefined;

beforeEach(async () => {
  fake = createFakeBlueBubbles();
  await fake.start();
  fake.addChat({ guid: GROUP, displayName: "Team", participants: [ANN] });
  stateDir = await mkdtemp(join(tmpdir(), "chorus-imessage-upgrade-"));
});

afterEach(async () => {
  await running?.stop();
  running = undefined;
  await fake.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** Writes a file into `stateDir` as channel-imessage 0.1's `writeState` did: compact JSON. */
const writeOld = (file: string, value: unknown) => writeFile(join(stateDir, file), JSON.stringify(value), "utf8");

describe("upgrade from 0.1: the state files it wrote are imported into the store once", () => {
  it("tapbacks.json, own-messages.json and webhook-secret.json: clear still works, replies are to the bot, the URL keeps its secret", async () => {
    const tapped = fake.userSends({ chatGuid: GROUP, from: ANN, text: "tapped by 0.1" }).guid;
    fake.state.applyTapback(tapped, ME, "love");
    const sent = fake.state.addMessage({ chatGuid: GROUP, text: "sent by 0.1", isFromMe: true }).guid;
    await writeOld("tapbacks.json", { [`${GROUP}/${tapped}`]: "love" });
    await writeOld("own-messages.json", [sent]);
    await writeOld("webhook-secret.json", { secret: OLD_SECRET });

    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });

    expect((await readdir(stateDir)).sort()).toEqual([
      ".chorus-store",
      "own-messages.json.imported",
      "tapbacks.json.imported",
      "webhook-secret.json.imported",
    ]);
    expect(new URL(fake.state.webhooks[0]?.url ?? "").searchParams.get("secret")).toBe(OLD_SECRET);
    const ref = await running.instance.resolveMessageRef({ id: GROUP }, tapped);
    await performReaction({ plugin: imessageChannel, instance: running.instance, ref, call: { clearAll: true } });
    expect(fake.botTapbacks(tapped)).toEqual([]);
    expect(fake.server.requestsTo("POST", "/api/v1/message/react").map((r) => r.body)).toEqual([
      { chatGuid: GROUP, selectedMessageGuid: tapped, reaction: "-love", partIndex: 0 },
    ]);

    const reply = fake.userSends({ chatGuid: GROUP, from: ANN, text: "answering 0.1", replyTo: sent });
    await fake.deliver(reply);
    const event = (await running.waitForEvent((e) => e.type === "message")) as InboundMessageEvent;
    expect(event.replyTo).toEqual({ messageId: sent, fromBot: true });
    expect(fake.server.requestsTo("GET", `/api/v1/message/${sent}`)).toEqual([]); // the record knew it

    // A second start imports nothing again and keeps what the store holds.
    await running.restart();
    expect(new URL(fake.state.webhooks[0]?.url ?? "").searchParams.get("secret")).toBe(OLD_SECRET);
    expect(running.logs.text()).not.toContain(OLD_SECRET);
  });

  it("a corrupt state file is set aside with a warning, and the channel starts (0.1 restart-looped on it)", async () => {
    await writeFile(join(stateDir, "tapbacks.json"), "{ not json", "utf8");
    await writeFile(join(stateDir, "webhook-secret.json"), '{"secret":', "utf8");

    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });

    expect(running.instance.status().state).toBe("running");
    const files = await readdir(stateDir);
    expect(files.filter((f) => f.startsWith("tapbacks.json.corrupt-"))).toHaveLength(1);
    expect(files.filter((f) => f.startsWith("webhook-secret.json.corrupt-"))).toHaveLength(1);
    expect(files).not.toContain("tapbacks.json");
    expect(running.logs.at("warn", true).map((r) => r.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/could not import .*tapbacks\.json \(not valid JSON\); set it aside/u),
        expect.stringMatching(/could not import .*webhook-secret\.json \(not valid JSON\); set it aside/u),
      ]),
    );
    // A new secret was generated: the webhook is registered with it.
    expect(new URL(fake.state.webhooks[0]?.url ?? "").searchParams.get("secret")).toMatch(/^[\w-]{32}$/u);
  });

  it("a state file of the wrong shape is set aside too, naming what was expected", async () => {
    await writeOld("own-messages.json", { not: "a list" });
    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });
    expect(running.instance.status().state).toBe("running");
    expect(running.logs.at("warn", true).map((r) => r.message)).toContainEqual(
      expect.stringMatching(
        /could not import .*own-messages\.json \(expected a list of message GUIDs\); set it aside/u,
      ),
    );
  });
});

describe("state in the store", () => {
  it("the generated webhook secret is kept under its own key and survives restarts", async () => {
    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });
    const secret = new URL(fake.state.webhooks[0]?.url ?? "").searchParams.get("secret");
    expect(secret).toMatch(/^[\w-]{32}$/u);
    expect(await running.store.get("webhookSecret")).toBe(secret);
    await running.stop();
    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });
    const registered = fake.state.webhooks.filter((w) => w.url.startsWith(running?.hooksUrl ?? "-"));
    expect(new URL(registered[0]?.url ?? "").searchParams.get("secret")).toBe(secret);
    expect(running.logs.text()).not.toContain(secret);
  });

  it("the bot's tapback is its bot reaction record, on disk in the store, and survives a restart", async () => {
    running = await startChannel(imessageChannel, { config: fake.config(), stateDir });
    const { guid } = fake.userSends({ chatGuid: GROUP, from: ANN, text: "react to me" });
    const ref = await running.instance.resolveMessageRef({ id: GROUP }, guid);
    await performReaction({ plugin: imessageChannel, instance: running.instance, ref, call: { emoji: "love" } });
    const key = BotReactionRecord.key({ conversationId: GROUP, messageId: guid });
    expect(await running.store.get(key)).toEqual(["love"]);
    expect(await readFile(join(stateDir, ".chorus-store", "botReactions.json"), "utf8")).toContain("love");
    await running.restart();
    await performReaction({ plugin: imessageChannel, instance: running.instance, ref, call: { clearAll: true } });
    expect(fake.botTapbacks(guid)).toEqual([]);
    expect(await running.store.get(key)).toBeUndefined();
  });
});
