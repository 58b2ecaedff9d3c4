import { describe, expect, it } from "vitest";
import { agentFor, resolveAgents } from "./agents.js";
import { ConfigError } from "./errors.js";
import { parseConfig } from "./load.js";
import { compileMentionPattern, defaultMentionPatterns } from "./mention-patterns.js";
import type { GatewayConfigInput } from "./schema.js";

const config = (input: GatewayConfigInput) => parseConfig(input, { env: {} });

function thrown(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error("expected a ConfigError");
}

const openai = { provider: "openai-compatible", baseURL: "http://127.0.0.1:1/v1", model: "gpt-test" } as const;

describe("resolveAgents", () => {
  it("gives one demo agent named Chorus without agents.list", () => {
    const [main, ...rest] = resolveAgents(config({}));
    expect(rest).toEqual([]);
    expect(main).toEqual({
      id: "main",
      name: "Chorus",
      model: { provider: "demo" },
      mentionPatterns: ["\\bChorus\\b"],
      isDefault: true,
    });
  });

  it("falls back to agents.defaults for model and system prompt", () => {
    const agents = resolveAgents(
      config({
        agents: {
          defaults: { model: openai, systemPrompt: "Be brief." },
          list: [{ id: "a" }, { id: "b", model: { provider: "demo" }, systemPrompt: "Be kind." }],
        },
      }),
    );
    expect(agents[0]).toMatchObject({
      id: "a",
      model: { provider: "openai-compatible", model: "gpt-test" },
      systemPrompt: "Be brief.",
    });
    expect(agents[1]).toMatchObject({ id: "b", model: { provider: "demo" }, systemPrompt: "Be kind." });
  });

  it("leaves systemPrompt out when nobody sets one", () => {
    expect(resolveAgents(config({}))[0]).not.toHaveProperty("systemPrompt");
  });

  it("takes mention patterns from the agent, then messages.groupChat, then the name", () => {
    const agents = resolveAgents(
      config({
        messages: { groupChat: { mentionPatterns: ["\\bhey bots\\b"] } },
        agents: {
          list: [
            { id: "a", groupChat: { mentionPatterns: ["@alice", "^alice[,:]"] } },
            { id: "b", name: "Bob" },
          ],
        },
      }),
    );
    expect(agents.map((agent) => agent.mentionPatterns)).toEqual([["@alice", "^alice[,:]"], ["\\bhey bots\\b"]]);
    const named = resolveAgents(config({ agents: { list: [{ id: "c", name: "Dr. Who (bot)" }] } }))[0];
    expect(named?.mentionPatterns).toEqual(["\\bDr\\.\\s+Who\\s+\\(bot\\)(?!\\w)", "@drwhobot\\b"]);
  });

  it("builds default patterns that match the name, case-insensitively, as a word", () => {
    const [pattern] = defaultMentionPatterns("Chorus").map(compileMentionPattern);
    expect(pattern?.test("hey chorus, what's up")).toBe(true);
    expect(pattern?.test("@Chorus ping")).toBe(true);
    expect(pattern?.test("the chorusline")).toBe(false);
    const regexes = defaultMentionPatterns("Helper Bot").map(compileMentionPattern);
    expect(regexes.some((regex) => regex.test("ok helper   bot?"))).toBe(true);
    expect(regexes.some((regex) => regex.test("@helperbot do it"))).toBe(true);
    expect(regexes.some((regex) => regex.test("helpers"))).toBe(false);
  });

  it("marks the agent with default: true, else the first", () => {
    const marked = resolveAgents(config({ agents: { list: [{ id: "a" }, { id: "b", default: true }] } }));
    expect(marked.map((agent) => agent.isDefault)).toEqual([false, true]);
    const first = resolveAgents(config({ agents: { list: [{ id: "a" }, { id: "b" }] } }));
    expect(first.map((agent) => agent.isDefault)).toEqual([true, false]);
  });

  it("rejects duplicate ids and several defaults", () => {
    const error = thrown(() =>
      resolveAgents(
        config({
          agents: { list: [{ id: "a", default: true }, { id: "b" }, { id: "a" }, { id: "c", default: true }] },
        }),
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(["agents.list[2].id", "agents.list[3].default"]);
    expect(error.issues[0]?.message).toContain('duplicate agent id "a" (also agents.list[0])');
    expect(error.issues[1]?.message).toContain("only one agent can be the default");
  });

  it("rejects a channel or account naming an unknown agent", () => {
    const error = thrown(() =>
      resolveAgents(
        config({
          agents: { list: [{ id: "main" }, { id: "work" }] },
          channels: { telegram: { agent: "wrok", accounts: { home: { agent: "main" }, side: { agent: "nobody" } } } },
        }),
      ),
    );
    expect(error.issues).toEqual([
      { path: "channels.telegram.agent", message: 'unknown agent "wrok"; agents are "main", "work"', value: "wrok" },
      {
        path: "channels.telegram.accounts.side.agent",
        message: 'unknown agent "nobody"; agents are "main", "work"',
        value: "nobody",
      },
    ]);
  });

  it("rejects mention patterns that are not valid regexes", () => {
    const error = thrown(() =>
      resolveAgents(
        config({
          messages: { groupChat: { mentionPatterns: ["ok", "(unclosed"] } },
          agents: { list: [{ id: "a", groupChat: { mentionPatterns: ["[z-a]"] } }] },
        }),
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      "messages.groupChat.mentionPatterns[1]",
      "agents.list[0].groupChat.mentionPatterns[0]",
    ]);
    expect(error.issues[0]?.message).toMatch(/^not a valid regular expression/);
    expect(error.issues[0]?.value).toBe("(unclosed");
  });
});

describe("resolveAgents: unsafe mention patterns", () => {
  it("refuses patterns that can backtrack catastrophically, in either place, naming the path", () => {
    const error = thrown(() =>
      resolveAgents(
        config({
          messages: { groupChat: { mentionPatterns: ["(a+)+$"] } },
          agents: { list: [{ id: "a", groupChat: { mentionPatterns: ["chorus", "(x|xx)+y"] } }] },
        }),
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      "messages.groupChat.mentionPatterns[0]",
      "agents.list[0].groupChat.mentionPatterns[1]",
    ]);
    expect(error.issues.map((issue) => issue.value)).toEqual(["(a+)+$", "(x|xx)+y"]);
  });
});

describe("agentFor", () => {
  const agents = resolveAgents(config({ agents: { list: [{ id: "a" }, { id: "b", default: true }] } }));

  it("picks the agent a channel names, else the default one", () => {
    expect(agentFor(agents, { agent: "a" }).id).toBe("a");
    expect(agentFor(agents, {}).id).toBe("b");
  });

  it("throws a ConfigError for an unknown agent", () => {
    expect(thrown(() => agentFor(agents, { agent: "zzz" })).message).toContain(
      'unknown agent "zzz"; agents are "a", "b"',
    );
    expect(thrown(() => agentFor([], {})).message).toContain("no agents are configured");
  });
});
