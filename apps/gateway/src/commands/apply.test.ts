import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ResolvedAgent } from "../config/index.js";
import { type SessionInit, SessionStore, type TranscriptEntry, TranscriptStore } from "../sessions/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { applyCommand, type CommandContext } from "./apply.js";
import { type Command, parseCommand } from "./parse.js";

const GROUP_KEY = "agent:main:whatsapp:group:120363@g.us";
const DM_KEY = "agent:main:main";
const groupInit: SessionInit = {
  agentId: "main",
  channel: "whatsapp",
  accountId: "default",
  conversationId: "120363@g.us",
  chatType: "group",
  title: "Family",
};
const dmInit: SessionInit = {
  agentId: "main",
  channel: "whatsapp",
  accountId: "default",
  conversationId: "+15550001",
  chatType: "direct",
};
const agent: ResolvedAgent = {
  id: "main",
  name: "Chorus",
  model: {
    provider: "openai-compatible",
    baseURL: "http://127.0.0.1:9/v1",
    model: "llama3.1",
    name: "ollama",
    timeoutMs: 60_000,
    maxRetries: 2,
    stream: false,
  },
  mentionPatterns: ["\\bchorus\\b"],
  isDefault: true,
};

let dir: string;
let test: TestState;
let store: SessionStore;
let transcripts: TranscriptStore;
/** Session keys `forget` was called with (buffered messages and echo memory). */
let forgotten: string[];
let summarised: (readonly TranscriptEntry[])[];
let summary: () => Promise<string>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-commands-"));
  test = await openTestState(undefined, dir);
  store = await SessionStore.open(test.state, "main", dir, { onWarning: () => undefined });
  transcripts = new TranscriptStore(test.state);
  forgotten = [];
  summarised = [];
  summary = async () => "Ann asked about the trip; the agent suggested Lisbon.";
});
afterEach(async () => {
  await store.flush();
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

function context(overrides: Partial<CommandContext> = {}): CommandContext {
  return {
    owner: true,
    chatType: "group",
    sessionKey: GROUP_KEY,
    init: groupInit,
    store,
    transcripts,
    agent,
    channelLabel: "WhatsApp",
    summarise: async (entries) => {
      summarised.push(entries);
      return summary();
    },
    forget: (key) => void forgotten.push(key),
    now: () => new Date("2025-01-02T03:04:05.000Z"),
    ...overrides,
  };
}

async function apply(text: string, overrides: Partial<CommandContext> = {}) {
  const command = parseCommand(text);
  if (command === undefined) throw new Error(`${text} is not a command`);
  return applyCommand(command, context(overrides));
}

async function sessionsOnDisk(): Promise<Record<string, { sessionId: string; settings: Record<string, unknown> }>> {
  return JSON.parse(await readFile(join(dir, "sessions.json"), "utf8")).sessions;
}

describe("applyCommand /activation", () => {
  it("persists the owner's choice in the session entry, across a reopened store", async () => {
    const result = await apply("/activation always");
    expect(result.handled).toBe(true);
    expect(result.reply).toContain("always");
    expect(store.get(GROUP_KEY)?.settings).toEqual({ activation: "always", groupIntroduced: false });
    expect((await sessionsOnDisk())[GROUP_KEY]?.settings.activation).toBe("always");

    const reopened = await SessionStore.open(test.state, "main", dir, { onWarning: () => undefined });
    expect(reopened.get(GROUP_KEY)?.settings).toMatchObject({ activation: "always", groupIntroduced: false });
    expect(reopened.get(GROUP_KEY)?.title).toBe("Family");
  });

  it("sets groupIntroduced back to false so the group intro is sent again", async () => {
    store.changeSettings(GROUP_KEY, { groupIntroduced: true, verbose: true }, groupInit);
    await apply("/activation mention");
    expect(store.get(GROUP_KEY)?.settings).toEqual({ activation: "mention", groupIntroduced: false, verbose: true });
  });

  it("ignores a non-owner: not handled, nothing persisted", async () => {
    store.ensure(GROUP_KEY, groupInit);
    await store.flush();
    const before = await readFile(join(dir, "sessions.json"), "utf8");
    expect(await apply("/activation always", { owner: false })).toEqual({ reply: "", handled: false });
    expect(await apply("/activation maybe", { owner: false })).toEqual({ reply: "", handled: false });
    expect(store.get(GROUP_KEY)?.settings).toEqual({});
    await store.flush();
    expect(await readFile(join(dir, "sessions.json"), "utf8")).toBe(before);
  });

  it("does not create a session for a non-owner", async () => {
    await apply("/activation always", { owner: false });
    expect(store.get(GROUP_KEY)).toBeUndefined();
  });

  it("explains the valid values for a bad argument without changing anything", async () => {
    const result = await apply("/activation maybe");
    expect(result.handled).toBe(true);
    expect(result.reply).toMatch(/mention\|always/);
    expect(store.get(GROUP_KEY)).toBeUndefined();
  });

  it("explains that it is for groups when sent in a direct chat", async () => {
    const result = await apply("/activation always", { chatType: "direct", sessionKey: DM_KEY, init: dmInit });
    expect(result.handled).toBe(true);
    expect(result.reply).toContain("only applies in groups");
    expect(store.get(DM_KEY)).toBeUndefined();
  });
});

describe("applyCommand /status", () => {
  it("shows the activation mode, model, session key and channel", async () => {
    await apply("/activation always");
    const { reply, handled } = await apply("/status", { owner: false });
    expect(handled).toBe(true);
    expect(reply).toContain("Activation: always (set with /activation)");
    expect(reply).toContain("Model: ollama/llama3.1");
    expect(reply).toContain(`Session: ${GROUP_KEY}`);
    expect(reply).toContain(store.get(GROUP_KEY)?.sessionId as string);
    expect(reply).toContain("Channel: WhatsApp (whatsapp, account default), group");
  });

  it("shows the configured default before any /activation, without creating the session", async () => {
    const mention = await apply("/status");
    expect(mention.reply).toContain("Activation: mention (default)");
    expect(mention.reply).toContain("(no turns yet)");
    const always = await apply("/status", { defaultActivation: "always" });
    expect(always.reply).toContain("Activation: always (default)");
    expect(store.get(GROUP_KEY)).toBeUndefined();
  });

  it("names the demo model and says direct chats answer every message", async () => {
    const { reply } = await apply("/status", {
      chatType: "direct",
      sessionKey: DM_KEY,
      init: dmInit,
      agent: { ...agent, model: { provider: "demo" } },
    });
    expect(reply).toContain("Model: demo");
    expect(reply).toContain("Activation: every message (direct chat)");
    expect(reply).toContain(`Session: ${DM_KEY}`);
  });

  it("shows verbose and think after they are set", async () => {
    await apply("/verbose on");
    await apply("/think high");
    const { reply } = await apply("/status");
    expect(reply).toContain("Verbose: on");
    expect(reply).toContain("Think: high");
  });
});

describe("applyCommand /verbose and /think", () => {
  it("stores them in this session's settings only", async () => {
    store.ensure(DM_KEY, dmInit);
    expect((await apply("/verbose on")).reply).toContain("Verbose is on");
    expect((await apply("/think medium")).reply).toContain("medium");
    expect(store.get(GROUP_KEY)?.settings).toEqual({ verbose: true, think: "medium" });
    expect(store.get(DM_KEY)?.settings).toEqual({});
    await apply("/verbose off");
    expect((await sessionsOnDisk())[GROUP_KEY]?.settings).toEqual({ verbose: false, think: "medium" });
  });

  it("apply to non-owners too", async () => {
    expect((await apply("/verbose on", { owner: false })).handled).toBe(true);
    expect(store.get(GROUP_KEY)?.settings.verbose).toBe(true);
  });
});

describe("applyCommand /new and /reset", () => {
  it.each(["/new", "/reset"])(
    "%s gives a new session id, keeps settings, and forgets buffered messages and echo memory",
    async (text) => {
      const first = store.changeSettings(GROUP_KEY, { activation: "always", groupIntroduced: true }, groupInit);
      store.update(GROUP_KEY, { turns: 3 });
      const result = await apply(text);
      expect(result.handled).toBe(true);
      const after = store.get(GROUP_KEY);
      expect(after?.sessionId).not.toBe(first.sessionId);
      expect(after?.turns).toBe(0);
      expect(after?.settings).toEqual({ activation: "always", groupIntroduced: false });
      expect(forgotten).toEqual([GROUP_KEY]);
      expect((await sessionsOnDisk())[GROUP_KEY]?.sessionId).toBe(after?.sessionId);
    },
  );

  it("forgets them even when the session has never run", async () => {
    expect((await apply("/reset")).handled).toBe(true);
    expect(forgotten).toEqual([GROUP_KEY]);
    expect(store.get(GROUP_KEY)).toBeUndefined();
  });
});

describe("applyCommand /compact", () => {
  const history: TranscriptEntry[] = [
    { at: "2025-01-01T00:00:00.000Z", role: "user", content: "Where should we go?", name: "Ann" },
    { at: "2025-01-01T00:00:01.000Z", role: "assistant", content: "Lisbon is lovely in spring." },
    { at: "2025-01-01T00:00:02.000Z", role: "user", content: "Book it", name: "Ann" },
  ];

  it("summarises the transcript and rewrites it to one system entry", async () => {
    const session = store.ensure(GROUP_KEY, groupInit);
    await transcripts.append(session.sessionId, history);
    const result = await apply("/compact");
    expect(result.handled).toBe(true);
    expect(result.reply).toContain("3 entries");
    expect(summarised).toEqual([history]);
    expect(await transcripts.read(session.sessionId)).toEqual([
      {
        at: "2025-01-02T03:04:05.000Z",
        role: "system",
        content: "Ann asked about the trip; the agent suggested Lisbon.",
      },
    ]);
    expect(store.get(GROUP_KEY)?.sessionId).toBe(session.sessionId);
  });

  it("leaves the transcript alone when the summary fails or is empty", async () => {
    const session = store.ensure(GROUP_KEY, groupInit);
    await transcripts.append(session.sessionId, history);
    const before = await transcripts.read(session.sessionId);
    summary = async () => {
      throw new Error("model unavailable");
    };
    const failed = await apply("/compact");
    expect(failed.reply).toContain("model unavailable");
    expect(failed.reply).toContain("unchanged");
    summary = async () => "   ";
    expect((await apply("/compact")).reply).toContain("empty");
    expect(await transcripts.read(session.sessionId)).toEqual(before);
  });

  it("says there is nothing to compact in an empty session, without asking the model", async () => {
    expect((await apply("/compact")).reply).toContain("Nothing to compact");
    store.ensure(GROUP_KEY, groupInit);
    expect((await apply("/compact")).reply).toContain("Nothing to compact");
    expect(summarised).toEqual([]);
  });
});

describe("applyCommand with an invalid command", () => {
  it("replies with the usage for everyone except on /activation", async () => {
    const invalid = parseCommand("/think hard") as Command;
    const result = await applyCommand(invalid, context({ owner: false }));
    expect(result.handled).toBe(true);
    expect(result.reply).toContain("/think");
    expect(store.get(GROUP_KEY)).toBeUndefined();
  });
});
