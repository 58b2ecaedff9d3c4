import { execFile } from "node:child_process";
import { access, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { FileStore } from "@chorus/channel-kit/state";
import { eventually } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { channelStoreDir, chorusPaths, pairingFilePath, sessionsDir } from "../../src/testing/index.js";
import { CLI, type GatewayProcess, removeHome, startGatewayProcess } from "../support/gateway-process.js";
import { createModelWorld, type ModelWorld } from "../support/memory-setup.js";
import { MessageIndex as ReleasedMessageIndex } from "../support/release-0.1/message-index.js";
import { PairingStore as ReleasedPairingStore } from "../support/release-0.1/pairing-store.js";
import { SessionStore as ReleasedSessionStore } from "../support/release-0.1/store.js";
import { TranscriptStore as ReleasedTranscriptStore } from "../support/release-0.1/transcript.js";
import { readTranscriptFromState, withStateDb } from "../support/state-db.js";

const run = promisify(execFile);
const KEY = "agent:main:memory:group:family";

/** Writes a home the way release 0.1 did: its own classes, its own files. */
async function writeReleasedHome(home: string): Promise<{ sessionId: string; code: string }> {
  const paths = chorusPaths(home, {});
  const dir = sessionsDir(home, "main");
  const sessions = await ReleasedSessionStore.open(dir);
  const session = sessions.ensure(KEY, {
    agentId: "main",
    channel: "memory",
    accountId: "default",
    conversationId: "family",
    chatType: "group",
    title: "Family",
  });
  sessions.changeSettings(KEY, { think: "low", groupIntroduced: true });
  sessions.update(KEY, { turns: 2 });
  await sessions.flush();
  const transcripts = new ReleasedTranscriptStore(dir);
  const turn = (n: number, question: string, answer: string) => [
    {
      at: "2030-01-01T10:00:00.000Z",
      role: "user" as const,
      content: question,
      name: "Ann",
      messageId: `old-${n}`,
      turnId: `t${n}`,
    },
    {
      at: "2030-01-01T10:00:01.000Z",
      role: "assistant" as const,
      content: answer,
      messageId: `bot-${n}`,
      turnId: `t${n}`,
    },
  ];
  await transcripts.append(session.sessionId, turn(1, "Ann: remember the word swordfish", "Noted: swordfish."));
  await transcripts.append(session.sessionId, turn(2, "Ann: and the number 42", "Noted: 42."));
  const index = new ReleasedMessageIndex({ dir: join(paths.state, "message-index") });
  index.put({ channel: "memory", accountId: "default", conversationId: "family", messageId: "old-1", data: { n: 1 } });
  index.put({ channel: "memory", accountId: "default", conversationId: "family", messageId: "bot-1", fromBot: true });
  await index.flush();
  const pairing = await ReleasedPairingStore.open(pairingFilePath(paths));
  const { code } = await pairing.request("memory", "default", { id: "carol", name: "Carol" });
  await pairing.approve(code);
  await pairing.request("memory", "default", { id: "dave", name: "Dave" });
  const store = new FileStore({ dir: channelStoreDir(paths, "memory", "default") });
  await store.set("botReactions/family/old-1", ["👍"]);
  await store.set("cursor", { since: 17 });
  await store.flush();
  return { sessionId: session.sessionId, code };
}

describe("a home written by release 0.1 is imported on the first start", () => {
  let world: ModelWorld | undefined;
  let gateway: GatewayProcess | undefined;
  let home: string | undefined;
  afterEach(async () => {
    await gateway?.stop();
    await world?.close();
    if (home) await removeHome(home);
  });

  it("finds every session, transcript, message ref, pairing and channel store entry, and goes on from them", async () => {
    home = await mkdtemp(join(tmpdir(), "chorus-home-released-"));
    const { sessionId, code } = await writeReleasedHome(home);
    world = await createModelWorld();
    world.platform.addConversation({ id: "dm-carol", kind: "direct", members: [{ id: "carol", name: "Carol" }] });
    const config = world.config({ memory: { dmPolicy: "pairing" } });
    gateway = await startGatewayProcess({ home, config });

    // The database holds it all.
    const db = (sql: string, ...args: unknown[]) =>
      withStateDb(home as string, [] as unknown[], (d) => d.prepare(sql).all(...args));
    expect(readTranscriptFromState(home, sessionId).map((e) => e.content)).toEqual([
      "Ann: remember the word swordfish",
      "Noted: swordfish.",
      "Ann: and the number 42",
      "Noted: 42.",
    ]);
    expect(
      db("SELECT ref FROM message_refs WHERE conversation = 'family' ORDER BY message_id").map((r) =>
        JSON.parse((r as { ref: string }).ref),
      ),
    ).toEqual([
      { channel: "memory", accountId: "default", conversationId: "family", messageId: "bot-1", fromBot: true },
      { channel: "memory", accountId: "default", conversationId: "family", messageId: "old-1", data: { n: 1 } },
    ]);
    expect(db("SELECT key, value FROM kv WHERE scope = 'store:memory:default' ORDER BY key")).toEqual([
      { key: "botReactions/family/old-1", value: '["👍"]' },
      { key: "cursor", value: '{"since":17}' },
    ]);
    const pairing = JSON.parse(
      (db("SELECT value FROM kv WHERE scope = 'gateway' AND key = 'pairing'")[0] as { value: string }).value,
    );
    expect(pairing.approved.map((p: { senderId: string; code: string }) => [p.senderId, p.code])).toEqual([
      ["carol", code],
    ]);
    expect(pairing.pending.map((p: { senderId: string }) => p.senderId)).toEqual(["dave"]);

    // `chorus sessions` shows the imported session; `show` its transcript.
    const env = { ...process.env, CHORUS_HOME: home, CHORUS_CONFIG: "" };
    const listed = JSON.parse((await run(process.execPath, [CLI, "sessions", "--json"], { env })).stdout);
    expect(listed).toEqual([
      expect.objectContaining({ key: KEY, sessionId, turns: 2, settings: { think: "low", groupIntroduced: true } }),
    ]);
    expect((await run(process.execPath, [CLI, "sessions", "show", KEY], { env })).stdout).toContain("swordfish");
    expect((await run(process.execPath, [CLI, "pairing", "list"], { env })).stdout).toContain("Dave");

    // The session goes on: the next turn has the imported history, and the count goes up from 2.
    world.model.script({ text: "It was swordfish." });
    const asked = world.platform.userSends({ conversationId: "family", senderId: "ann", text: "Chorus, which word?" });
    await eventually(() =>
      expect(world?.platform.messagesIn("family").some((m) => m.senderId === "bot" && m.replyTo?.id === asked.id)).toBe(
        true,
      ),
    );
    const request = world.model.requests.at(-1);
    expect(JSON.stringify(request?.messages)).toContain("remember the word swordfish");
    await eventually(() => expect(readTranscriptFromState(home as string, sessionId)).toHaveLength(6));
    // Carol was approved under release 0.1: her direct message reaches the agent, no pairing code.
    world.model.script({ text: "Hello Carol." });
    world.platform.userSends({ conversationId: "dm-carol", senderId: "carol", text: "hi" });
    await eventually(() => expect(world?.platform.messagesIn("dm-carol").map((m) => m.text)).toContain("Hello Carol."));

    // The files are left where they were; sessions.json goes on as the mirror of the database.
    await access(pairingFilePath(chorusPaths(home, {})));
    await access(join(channelStoreDir(chorusPaths(home, {}), "memory", "default"), "botReactions.json"));
    await eventually(async () => {
      const { readFile } = await import("node:fs/promises");
      const mirror = JSON.parse(await readFile(join(sessionsDir(home as string, "main"), "sessions.json"), "utf8"));
      expect(mirror.sessions[KEY]).toMatchObject({ sessionId, turns: 3, settings: { think: "low" } });
    });

    // A restart imports nothing again.
    await gateway.stop();
    gateway = await startGatewayProcess({ home, config });
    expect(readTranscriptFromState(home, sessionId)).toHaveLength(6);
    expect(db("SELECT count(*) AS n FROM kv WHERE scope = 'store:memory:default'")).toEqual([{ n: 2 }]);
    expect(gateway.output()).not.toMatch(/imported the files/);
  });
});
