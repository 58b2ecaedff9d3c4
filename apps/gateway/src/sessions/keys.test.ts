import { describe, expect, it } from "vitest";
import { parseSessionKey, type SessionKeyInput, sessionKeyFor } from "./keys.js";

const base: SessionKeyInput = {
  agentId: "main",
  channel: "whatsapp",
  conversation: { id: "120363@g.us", kind: "group" },
  senderId: "+4915550001",
  dmScope: "main",
};

describe("sessionKeyFor", () => {
  it("gives every group its own session", () => {
    expect(sessionKeyFor(base)).toBe("agent:main:whatsapp:group:120363@g.us");
  });

  it("adds the topic of a threaded group", () => {
    const key = sessionKeyFor({
      ...base,
      channel: "telegram",
      conversation: { id: "-100123", kind: "group", threadId: "42" },
    });
    expect(key).toBe("agent:main:telegram:group:-100123:topic:42");
  });

  it("shares one main session for direct chats with dmScope main", () => {
    const direct = { ...base, conversation: { id: "+4915550001", kind: "direct" as const } };
    expect(sessionKeyFor(direct)).toBe("agent:main:main");
    expect(sessionKeyFor({ ...direct, channel: "telegram", senderId: "99" })).toBe("agent:main:main");
  });

  it("gives each peer its own session per channel with dmScope per-peer", () => {
    const direct = {
      ...base,
      conversation: { id: "+4915550001", kind: "direct" as const },
      dmScope: "per-peer" as const,
    };
    expect(sessionKeyFor(direct)).toBe("agent:main:whatsapp:dm:+4915550001");
    expect(sessionKeyFor({ ...direct, channel: "signal" })).toBe("agent:main:signal:dm:+4915550001");
  });

  it("dmScope owner-main (the default): the owner's direct chats share main, everyone else has their own", () => {
    const direct = {
      ...base,
      conversation: { id: "+4915550001", kind: "direct" as const },
      dmScope: "owner-main" as const,
    };
    expect(sessionKeyFor({ ...direct, owner: true })).toBe("agent:main:main");
    expect(sessionKeyFor({ ...direct, owner: true, channel: "telegram", senderId: "99" })).toBe("agent:main:main");
    expect(sessionKeyFor(direct)).toBe("agent:main:whatsapp:dm:+4915550001");
    expect(sessionKeyFor({ ...direct, owner: false, senderId: "+4915550002" })).toBe(
      "agent:main:whatsapp:dm:+4915550002",
    );
  });

  it("percent-encodes : (and %) in ids so the key stays parseable", () => {
    const key = sessionKeyFor({
      ...base,
      channel: "matrix",
      conversation: { id: "!room:example.org", kind: "group", threadId: "$event:example.org" },
    });
    expect(key).toBe("agent:main:matrix:group:!room%3Aexample.org:topic:$event%3Aexample.org");
    expect(parseSessionKey(key)).toEqual({
      kind: "group",
      agentId: "main",
      channel: "matrix",
      conversationId: "!room:example.org",
      threadId: "$event:example.org",
    });
    const tricky = sessionKeyFor({ ...base, conversation: { id: "50%3A:x", kind: "group" } });
    expect(parseSessionKey(tricky)).toMatchObject({ conversationId: "50%3A:x" });
  });

  it("rejects empty ids naming the part", () => {
    expect(() => sessionKeyFor({ ...base, conversation: { id: "", kind: "group" } })).toThrow(/conversation\.id/);
    expect(() => sessionKeyFor({ ...base, agentId: "" })).toThrow(/agentId/);
    expect(() =>
      sessionKeyFor({ ...base, senderId: "", dmScope: "per-peer", conversation: { id: "x", kind: "direct" } }),
    ).toThrow(/senderId/);
  });
});

describe("parseSessionKey", () => {
  it("parses each kind of key back", () => {
    expect(parseSessionKey("agent:main:main")).toEqual({ kind: "main", agentId: "main" });
    expect(parseSessionKey("agent:ops:signal:dm:+4915550001")).toEqual({
      kind: "dm",
      agentId: "ops",
      channel: "signal",
      peerId: "+4915550001",
    });
    expect(parseSessionKey("agent:main:slack:group:C123")).toEqual({
      kind: "group",
      agentId: "main",
      channel: "slack",
      conversationId: "C123",
    });
  });

  it("round-trips keys made by sessionKeyFor", () => {
    for (const id of ["a", "a:b", "%", "::", "x%25y", "🙂 group"]) {
      const key = sessionKeyFor({ ...base, conversation: { id, kind: "group", threadId: `t:${id}` } });
      expect(parseSessionKey(key)).toEqual({
        kind: "group",
        agentId: "main",
        channel: "whatsapp",
        conversationId: id,
        threadId: `t:${id}`,
      });
      const dm = sessionKeyFor({
        ...base,
        senderId: id,
        dmScope: "per-peer",
        conversation: { id: "d", kind: "direct" },
      });
      expect(parseSessionKey(dm)).toEqual({ kind: "dm", agentId: "main", channel: "whatsapp", peerId: id });
    }
  });

  it("rejects anything else with E_INVALID_INPUT", () => {
    for (const key of [
      "",
      "main",
      "agent:main",
      "agent::main",
      "agent:main:x:dm",
      "agent:main:x:chat:1",
      "user:a:main",
    ]) {
      expect(() => parseSessionKey(key), key).toThrow(expect.objectContaining({ code: "E_INVALID_INPUT" }));
    }
  });
});
