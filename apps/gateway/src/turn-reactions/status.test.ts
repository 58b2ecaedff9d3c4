import { performReaction } from "@chorus/core";
import { afterEach, describe, expect, it } from "vitest";
import { StatusReactions, type StatusReactionsOptions } from "./status.js";
import { type ChannelKind, ManualClock, openWorld, type ReactionWorld, recordingLogger } from "./support.test.util.js";

const worlds: ReactionWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

/** A memory channel of `kind`, a user message in it, and status reactions on that message on a manual clock. */
async function setup(kind: ChannelKind, options: Partial<StatusReactionsOptions> = {}) {
  const w = await openWorld(kind);
  worlds.push(w);
  const message = w.userMessage();
  const clock = new ManualClock();
  const status = new StatusReactions({ target: w.target(message), clock, ...options });
  /** Moves time and waits for the platform calls that caused. */
  const advance = async (ms: number) => {
    clock.advance(ms);
    await status.idle();
  };
  return { w, message, clock, status, advance };
}

const put = (id: string, emoji: string) => `PUT /v1/messages/${id}/reactions/${emoji}`;
const del = (id: string, emoji: string) => `DELETE /v1/messages/${id}/reactions/${emoji}`;

describe("StatusReactions on a channel with several reactions per message", () => {
  it("shows queued at once, then each later state after the debounce: the new one added, then the old removed", async () => {
    const { w, message, status, advance } = await setup("multi");
    const id = message.messageId;
    status.set("queued");
    await status.idle();
    expect(w.held(message)).toEqual(["👀"]);

    status.set("thinking");
    await advance(699);
    expect(w.held(message)).toEqual(["👀"]);
    await advance(1);
    expect(w.held(message)).toEqual(["🤔"]);

    status.set("tool");
    await advance(700);
    expect(w.held(message)).toEqual(["🛠"]);

    await status.finish("done");
    expect(w.held(message)).toEqual(["✅"]);
    expect(w.reactionRequests()).toEqual([
      put(id, "👀"),
      put(id, "🤔"),
      del(id, "👀"),
      put(id, "🛠"),
      del(id, "🤔"),
      put(id, "✅"),
      del(id, "🛠"),
    ]);
  });

  it("never sends a state that lasted less than the debounce", async () => {
    const { w, message, status, advance } = await setup("multi");
    status.set("queued");
    status.set("thinking");
    await advance(400);
    status.set("tool");
    await advance(400);
    status.set("thinking");
    await advance(400);
    status.set("tool");
    await advance(700);
    expect(w.held(message)).toEqual(["🛠"]);
    expect(w.reactionRequests().filter((r) => r.includes("🤔"))).toEqual([]);
  });

  it("applies done and error at once, dropping a state still waiting for its debounce", async () => {
    const { w, message, status, clock } = await setup("multi");
    status.set("queued");
    status.set("thinking");
    status.set("error");
    await status.idle();
    expect(w.held(message)).toEqual(["❌"]);
    expect(clock.pending).toBe(0);
    // Nothing after a final state changes it.
    status.set("tool");
    await status.finish("done");
    expect(w.held(message)).toEqual(["❌"]);
    expect(w.reactionRequests().filter((r) => r.includes("🤔") || r.includes("🛠"))).toEqual([]);
  });

  it("shows the stall hint after stallMs without progress, and moves on when progress resumes", async () => {
    const { w, message, status, advance } = await setup("multi", { stallMs: 30_000 });
    status.set("queued");
    status.set("thinking");
    await advance(29_999);
    expect(w.held(message)).toEqual(["🤔"]);
    await advance(1);
    expect(w.held(message)).toEqual(["⏳"]);
    status.set("tool");
    await advance(700);
    expect(w.held(message)).toEqual(["🛠"]);
    await status.finish();
    expect(w.held(message)).toEqual([]);
  });

  it("gives no stall hint with stallMs 0", async () => {
    const { w, message, status, clock, advance } = await setup("multi", { stallMs: 0 });
    status.set("queued");
    expect(clock.pending).toBe(0);
    await advance(3_600_000);
    expect(w.held(message)).toEqual(["👀"]);
    await status.finish();
  });

  it("finish without a final state removes whatever shows, also with a state still pending", async () => {
    const { w, message, status, clock } = await setup("multi");
    status.set("queued");
    status.set("thinking");
    await status.finish();
    expect(w.held(message)).toEqual([]);
    expect(clock.pending).toBe(0);
    expect(w.reactionRequests().filter((r) => r.includes("🤔"))).toEqual([]);
    // After finish nothing reaches the platform any more.
    status.set("tool");
    status.set("done");
    await status.idle();
    expect(w.held(message)).toEqual([]);
  });

  it("trackToolCalls: retarget moves the status to another message and cleans the first", async () => {
    const { w, message, status, advance } = await setup("multi");
    const reply = await w.botMessage("Looking into it");
    status.set("queued");
    status.set("thinking");
    await advance(700);
    expect(w.held(message)).toEqual(["🤔"]);

    status.retarget(reply);
    await status.idle();
    expect(w.held(message)).toEqual([]);
    expect(w.held(reply)).toEqual(["🤔"]);

    status.set("tool");
    await advance(700);
    await status.finish("done");
    expect(w.held(message)).toEqual([]);
    expect(w.held(reply)).toEqual(["✅"]);
  });

  it("does not take away the agent's own reaction with the same emoji", async () => {
    const { w, message, status, advance } = await setup("multi");
    status.set("queued");
    await status.idle();
    const result = await performReaction({ ...w.target(message), call: { emoji: "eyes" } });
    status.agentReacted(message.messageId, result);
    status.set("thinking");
    await advance(700);
    await status.finish("done");
    expect(w.held(message).sort()).toEqual(["✅", "👀"].sort());
  });
});

describe("StatusReactions on a single-slot channel", () => {
  it("replaces the slot at each state, never removing in between", async () => {
    const { w, message, status, advance } = await setup("single");
    status.set("queued");
    await status.idle();
    expect(w.held(message)).toEqual(["👀"]);
    status.set("thinking");
    await advance(700);
    expect(w.held(message)).toEqual(["🤔"]);
    status.set("tool");
    await advance(700);
    expect(w.held(message)).toEqual(["🛠"]);
    await status.finish("done");
    expect(w.held(message)).toEqual(["✅"]);
    expect(w.reactionRequests().filter((r) => r.startsWith("DELETE"))).toEqual([]);
  });

  it("finish without a final state empties the slot", async () => {
    const { w, message, status, advance } = await setup("single");
    status.set("queued");
    status.set("thinking");
    await advance(700);
    await status.finish();
    expect(w.held(message)).toEqual([]);
  });

  it("leaves the slot to the agent once it reacted there itself", async () => {
    const { w, message, status, advance } = await setup("single");
    status.set("queued");
    await status.idle();
    const result = await performReaction({ ...w.target(message), call: { emoji: "🎉" } });
    status.agentReacted(message.messageId, result);
    status.set("thinking");
    await advance(700);
    await status.finish("done");
    expect(w.held(message)).toEqual(["🎉"]);
  });

  it("retarget empties the first message's slot and shows the state on the new one", async () => {
    const { w, message, status } = await setup("single");
    const reply = await w.botMessage();
    status.set("queued");
    status.retarget(reply);
    await status.finish("error");
    expect(w.held(message)).toEqual([]);
    expect(w.held(reply)).toEqual(["❌"]);
  });
});

describe("StatusReactions on restricted channels", () => {
  it("uses fallbacks from the channel's vocabulary for states it cannot show", async () => {
    const { w, message, status, advance } = await setup("closed");
    status.set("queued");
    await status.idle();
    expect(w.held(message)).toEqual(["👍"]);
    status.set("thinking");
    await advance(700);
    expect(w.held(message)).toEqual(["🤔"]);
    status.set("tool");
    await advance(700);
    expect(w.held(message)).toEqual(["🔥"]);
    await status.finish("done");
    expect(w.held(message)).toEqual(["👍"]);
    expect(w.platform.server.requests.filter((r) => r.status >= 400)).toEqual([]);
  });

  it("does nothing on an add-only channel, where a status could never be taken back", async () => {
    const { w, message, status, advance } = await setup("addOnly");
    status.set("queued");
    status.set("thinking");
    await advance(700);
    await status.finish("done");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests()).toEqual([]);
  });

  it("logs failed platform calls and carries on", async () => {
    const logger = recordingLogger();
    const { w, message, status, advance } = await setup("multi", { logger });
    status.set("queued");
    await status.idle();
    await w.platform.close();
    status.set("thinking");
    await advance(700);
    await expect(status.finish("done")).resolves.toBeUndefined();
    expect(logger.lines.filter((l) => l.level === "warn").map((l) => l.message)).toEqual([
      "status thinking reaction failed",
      "status done reaction failed",
      // A final state that could not be shown still tries to take the working state away.
      "status removal reaction failed",
    ]);
    expect(w.held(message)).toEqual(["👀"]);
  });
});
