import type { MessageToolInput, MessageToolSuccess } from "@chorus/core";
import { describe, expect, it } from "vitest";
import type { MessageCallOptions, MessageToolCalls, TurnScope } from "../channels/index.js";
import { forceGc } from "../testing/index.js";
import { ExternalTurns } from "./external.js";

/** Records each call and the scope it ran in; a send answers with a message id. */
class RecordingTools implements MessageToolCalls {
  readonly calls: { input: MessageToolInput; scope: TurnScope | undefined }[] = [];
  async execute(
    input: MessageToolInput,
    scope?: TurnScope,
    _options?: MessageCallOptions,
  ): Promise<MessageToolSuccess> {
    this.calls.push({ input, scope });
    if (input.action === "send") return { ok: true, action: "send", messageId: `sent-${this.calls.length}` };
    return { ok: true, action: "react", op: "add", emoji: input.emoji ?? "" };
  }
}

const scope: TurnScope = {
  channel: "memory",
  accountId: "default",
  conversation: { id: "team", threadId: "t1" },
  message: { channel: "memory", accountId: "default", conversationId: "team", messageId: "m1" },
};

describe("ExternalTurns: turns of an outside agent", () => {
  it("a react from outside runs in the waiting turn's scope and does not end it; the first send does", async () => {
    const tools = new RecordingTools();
    const turns = new ExternalTurns(tools);
    const waiting = turns.wait(scope, 60_000, new AbortController().signal);
    await turns.execute({ action: "react", channel: "memory", target: "team", emoji: "👍" });
    expect(tools.calls[0]?.scope).toBe(scope);
    await turns.execute({ action: "send", channel: "memory", target: "team", text: "hi" });
    await expect(waiting).resolves.toEqual({ kind: "sent", text: "hi", messageId: "sent-2" });
    // The turn is over: a later call goes out without a turn's scope.
    await turns.execute({ action: "send", channel: "memory", target: "team", text: "more" });
    expect(tools.calls[2]?.scope).toBeUndefined();
  });

  it("a send of media or a location without text answers the waiting turn too", async () => {
    const tools = new RecordingTools();
    const turns = new ExternalTurns(tools);
    const photo = turns.wait(scope, 60_000, new AbortController().signal);
    await turns.execute({ action: "send", channel: "memory", target: "team", media: [{ mediaId: "med_1" }] });
    await expect(photo).resolves.toEqual({ kind: "sent", text: "", messageId: "sent-1" });
    const pin = turns.wait(scope, 60_000, new AbortController().signal);
    await turns.execute({ action: "send", channel: "memory", target: "team", location: { latitude: 1, longitude: 2 } });
    await expect(pin).resolves.toEqual({ kind: "sent", text: "", messageId: "sent-2" });
  });

  it("a send to another conversation, channel or account leaves the turn waiting", async () => {
    const tools = new RecordingTools();
    const turns = new ExternalTurns(tools);
    const controller = new AbortController();
    let outcome: unknown;
    const waiting = turns.wait(scope, 60_000, controller.signal).then((o) => {
      outcome = o;
    });
    await turns.execute({ action: "send", channel: "memory", target: "elsewhere", text: "x" });
    await turns.execute({ action: "send", channel: "other", target: "team", text: "x" });
    await turns.execute({ action: "send", channel: "memory", account: "work", target: "team", text: "x" });
    expect(outcome).toBeUndefined();
    expect(tools.calls.every((c) => c.scope === undefined)).toBe(true);
    controller.abort();
    await waiting;
    expect(outcome).toEqual({ kind: "timeout" });
  });

  it("a send that came before the turn waited answers it, when it came after the message was received", async () => {
    const tools = new RecordingTools();
    const turns = new ExternalTurns(tools);
    const received = Date.now();
    // The outside agent answered from the event stream before the gateway started the message's turn.
    await turns.execute({ action: "send", channel: "memory", target: "team", text: "early" });
    await expect(turns.wait(scope, 60_000, new AbortController().signal, received)).resolves.toEqual({
      kind: "sent",
      text: "early",
      messageId: "sent-1",
    });
    // Taken once: the next turn waits for its own answer.
    const controller = new AbortController();
    const next = turns.wait(scope, 60_000, controller.signal, received);
    controller.abort();
    await expect(next).resolves.toEqual({ kind: "timeout" });
  });

  it("a turn that began waiting while a send was on its way is answered by that send", async () => {
    let release: () => void = () => undefined;
    const slow: MessageToolCalls = {
      execute: async () => {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { ok: true, action: "send", messageId: "slow-1" };
      },
    };
    const turns = new ExternalTurns(slow);
    const received = Date.now();
    const sending = turns.execute({ action: "send", channel: "memory", target: "team", text: "in flight" });
    const waiting = turns.wait(scope, 60_000, new AbortController().signal, received);
    release();
    await sending;
    await expect(waiting).resolves.toEqual({ kind: "sent", text: "in flight", messageId: "slow-1" });
  });

  it("a send older than the message a turn answers does not answer it", async () => {
    const turns = new ExternalTurns(new RecordingTools());
    await turns.execute({ action: "send", channel: "memory", target: "team", text: "before the question" });
    const controller = new AbortController();
    const waiting = turns.wait(scope, 60_000, controller.signal, Date.now() + 1);
    controller.abort();
    await expect(waiting).resolves.toEqual({ kind: "timeout" });
  });

  it("ends without an answer after its timeout", async () => {
    const turns = new ExternalTurns(new RecordingTools());
    await expect(turns.wait(scope, 5, new AbortController().signal)).resolves.toEqual({ kind: "timeout" });
  });

  it("ends at its timeout with garbage collected while it waits: nothing but its timer has to hold it", async () => {
    const gc = forceGc();
    const turns = new ExternalTurns(new RecordingTools());
    const collecting = setInterval(gc, 10);
    try {
      await expect(turns.wait(scope, 150, new AbortController().signal)).resolves.toEqual({ kind: "timeout" });
    } finally {
      clearInterval(collecting);
    }
  });

  it("a turn whose signal aborted before it waited ends at once, not at its timeout", async () => {
    const turns = new ExternalTurns(new RecordingTools());
    const controller = new AbortController();
    controller.abort();
    let timer: NodeJS.Timeout | undefined;
    const stuck = new Promise((resolve) => {
      timer = setTimeout(resolve, 5_000, "still waiting");
    });
    const outcome = await Promise.race([turns.wait(scope, 60_000, controller.signal), stuck]);
    clearTimeout(timer);
    expect(outcome).toEqual({ kind: "timeout" });
  });

  it("a call made inside a turn (the built-in agent's) keeps its own scope", async () => {
    const tools = new RecordingTools();
    const turns = new ExternalTurns(tools);
    const own: TurnScope = { channel: "memory", accountId: "default", conversation: { id: "dm" } };
    await turns.execute({ action: "send", text: "hi" }, own);
    expect(tools.calls[0]?.scope).toBe(own);
  });
});
