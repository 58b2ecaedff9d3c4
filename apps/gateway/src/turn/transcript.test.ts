import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionStore } from "../sessions/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { recordTurn } from "./transcript.js";

let dir: string;
let test: TestState;
let store: SessionStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-record-turn-"));
  test = await openTestState(undefined, dir);
  store = await SessionStore.open(test.state, "main", dir, { onWarning: () => undefined });
});
afterEach(async () => {
  await store.flush();
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

const KEY = "agent:main:telegram:group:-100";
const trigger = {
  ref: { channel: "telegram", accountId: "default", conversationId: "-100", messageId: "7" },
  senderName: "Ada",
  text: "hi",
};

describe("recordTurn", () => {
  it("counts the turn and keeps the session's settings, adding the group intro when the turn carried it", () => {
    store.ensure(KEY, {
      agentId: "main",
      channel: "telegram",
      accountId: "default",
      conversationId: "-100",
      chatType: "group",
    });
    const session = store.changeSettings(KEY, { verbose: true });
    const first = recordTurn({
      store,
      session,
      userText: "hi",
      trigger,
      result: undefined,
      reply: "hello",
      introduced: true,
    });
    expect(first.session).toEqual({
      ...session,
      turns: 1,
      updatedAt: first.entries[0]?.at,
      settings: { verbose: true, groupIntroduced: true },
    });
    expect(first.entries.map((e) => [e.role, e.content])).toEqual([
      ["user", "hi"],
      ["assistant", "hello"],
    ]);
    store.committed(first.session);
    const second = recordTurn({
      store,
      session,
      userText: "again",
      trigger,
      result: undefined,
      reply: "yes",
      introduced: false,
    });
    expect(second.session.turns).toBe(2);
    expect(second.session.settings).toEqual({ verbose: true, groupIntroduced: true });
  });

  it("keeps a message call's media without their inline bytes, so history never sends them again", () => {
    const session = store.ensure(KEY, {
      agentId: "main",
      channel: "telegram",
      accountId: "default",
      conversationId: "-100",
      chatType: "group",
    });
    const data = Buffer.alloc(3000, 7).toString("base64");
    const input = { action: "send", media: [{ data, filename: "chart.png" }, { mediaId: "med_1" }] };
    const { entries } = recordTurn({
      store,
      session,
      userText: "chart please",
      trigger,
      result: {
        text: "",
        toolCalls: [{ id: "c1", name: "message", input, output: { ok: true } }],
        steps: 1,
        finishReason: "stop",
      },
      reply: "here",
      introduced: false,
    });
    const tool = entries.find((e) => e.role === "tool");
    expect(tool?.input).toEqual({
      action: "send",
      media: [{ data: "[inline data, 3000 bytes, not kept]", filename: "chart.png" }, { mediaId: "med_1" }],
    });
    expect(JSON.stringify(entries)).not.toContain(data.slice(0, 40));
  });

  it("refuses a session deleted while its turn ran, naming it", () => {
    const session = store.ensure(KEY, {
      agentId: "main",
      channel: "telegram",
      accountId: "default",
      conversationId: "-100",
      chatType: "group",
    });
    store.delete(KEY);
    expect(() =>
      recordTurn({ store, session, userText: "hi", trigger, result: undefined, reply: "hello", introduced: false }),
    ).toThrow(/no session "agent:main:telegram:group:-100"/);
  });
});
