import { performReaction } from "@chorus/core";
import { eventually, faults, type MemoryChannelOptions } from "@chorus/testkit";
import { afterEach, describe, expect, it } from "vitest";
import { AckReactions, ackApplies, type TurnOutcome } from "./ack.js";
import { type ChannelKind, openWorld, type ReactionWorld, recordingLogger } from "./support.test.util.js";

const worlds: ReactionWorld[] = [];
afterEach(async () => {
  for (const world of worlds.splice(0)) await world.close();
});

async function world(kind: ChannelKind, plugin?: MemoryChannelOptions) {
  const opened = await openWorld(kind, plugin ? { plugin } : {});
  worlds.push(opened);
  return opened;
}

const OUTCOMES: TurnOutcome[] = ["done", "noreply", "error"];

describe("ackApplies", () => {
  const cases = [
    // scope, direct, group mentioned, group not mentioned
    ["all", true, true, true],
    ["direct", true, false, false],
    ["group-all", false, true, true],
    ["group-mentions", false, true, false],
    ["off", false, false, false],
  ] as const;

  it.each(cases)("scope %s: direct %s, group mentioned %s, group unmentioned %s", (scope, dm, mentioned, quiet) => {
    expect(ackApplies(scope, "direct", false, "minimal")).toBe(dm);
    expect(ackApplies(scope, "direct", true, "minimal")).toBe(dm);
    expect(ackApplies(scope, "group", true, "minimal")).toBe(mentioned);
    expect(ackApplies(scope, "group", false, "minimal")).toBe(quiet);
  });

  it("never applies at reactionLevel off, whatever the scope; at every other level the scope decides", () => {
    for (const [scope] of cases) expect(ackApplies(scope, "group", true, "off")).toBe(false);
    for (const level of ["ack", "minimal", "extensive"] as const)
      expect(ackApplies("all", "direct", false, level)).toBe(true);
  });
});

describe("AckReactions on a channel with several reactions per message", () => {
  it.each(OUTCOMES)("places 👀 when the turn starts and removes it after %s", async (outcome) => {
    const w = await world("multi");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀" });
    ack.begin(w.target(message), true);
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    await ack.end(outcome);
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests()).toEqual([
      `PUT /v1/messages/${message.messageId}/reactions/👀`,
      `DELETE /v1/messages/${message.messageId}/reactions/👀`,
    ]);
  });

  it("does nothing at all when the scope does not apply", async () => {
    const w = await world("multi");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀" });
    ack.begin(w.target(message), false);
    await ack.end("done");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests()).toEqual([]);
  });

  it("is not left behind when the turn ends before the ack reached the platform", async () => {
    const w = await world("multi");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀" });
    ack.begin(w.target(message), true);
    await ack.end("noreply");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests()).toEqual([
      `PUT /v1/messages/${message.messageId}/reactions/👀`,
      `DELETE /v1/messages/${message.messageId}/reactions/👀`,
    ]);
  });

  it("with ackReactionAfter done, replaces the ack by ✅ after a reply", async () => {
    const w = await world("multi");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀", after: "done", doneEmoji: "✅" });
    ack.begin(w.target(message), true);
    await ack.end("done");
    expect(w.held(message)).toEqual(["✅"]);
  });

  it.each(["noreply", "error"] as const)(
    "with ackReactionAfter done, still removes the ack after %s",
    async (outcome) => {
      const w = await world("multi");
      const message = w.userMessage();
      const ack = new AckReactions({ emoji: "👀", after: "done" });
      ack.begin(w.target(message), true);
      await ack.end(outcome);
      expect(w.held(message)).toEqual([]);
    },
  );

  it("keeps 👀 when the agent itself reacted with it during the turn, and the agent's other emoji always", async () => {
    const w = await world("multi");
    const first = w.userMessage("first");
    const second = w.userMessage("second");

    const keeps = new AckReactions({ emoji: "👀" });
    keeps.begin(w.target(first), true);
    await eventually(() => expect(w.held(first)).toEqual(["👀"]));
    await performReaction({ ...w.target(first), call: { emoji: ":eyes:" } });
    keeps.agentReacted(first.messageId, { op: "add", emoji: "👀" });
    await keeps.end("done");
    expect(w.held(first)).toEqual(["👀"]);

    const removes = new AckReactions({ emoji: "👀" });
    removes.begin(w.target(second), true);
    await eventually(() => expect(w.held(second)).toEqual(["👀"]));
    await performReaction({ ...w.target(second), call: { emoji: "🎉" } });
    removes.agentReacted(second.messageId, { op: "add", emoji: "🎉" });
    // A reaction on another message does not concern this ack.
    removes.agentReacted(first.messageId, { op: "add", emoji: "👀" });
    await removes.end("done");
    expect(w.held(second)).toEqual(["🎉"]);
  });

  it("logs a platform failure instead of throwing, and leaves nothing behind", async () => {
    const w = await world("multi");
    const message = w.userMessage();
    w.platform.server.inject(faults.serverError({ method: "PUT", path: "/v1/messages/:id/reactions/:emoji" }));
    const logger = recordingLogger();
    const ack = new AckReactions({ emoji: "👀", logger });
    ack.begin(w.target(message), true);
    await expect(ack.end("done")).resolves.toBeUndefined();
    expect(w.held(message)).toEqual([]);
    expect(logger.lines).toContainEqual(
      expect.objectContaining({
        level: "warn",
        message: "ack reaction failed",
        fields: expect.objectContaining({ code: "E_PLATFORM" }),
      }),
    );
    // Nothing was placed, so nothing is removed either.
    expect(w.reactionRequests()).toEqual([`PUT /v1/messages/${message.messageId}/reactions/👀`]);
  });
});

describe("AckReactions on a single-slot channel", () => {
  it.each(OUTCOMES)("places 👀 and clears the slot after %s", async (outcome) => {
    const w = await world("single");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀" });
    ack.begin(w.target(message), true);
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    await ack.end(outcome);
    expect(w.held(message)).toEqual([]);
  });

  it("with ackReactionAfter done, ✅ takes the slot after a reply", async () => {
    const w = await world("single");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀", after: "done" });
    ack.begin(w.target(message), true);
    await ack.end("done");
    expect(w.held(message)).toEqual(["✅"]);
    expect(w.reactionRequests().filter((r) => r.startsWith("DELETE"))).toEqual([]);
  });

  it.each([
    ["remove", "done"],
    ["remove", "noreply"],
    ["done", "done"],
    ["done", "error"],
  ] as const)("after %s / %s, a reaction the agent set during the turn stays", async (after, outcome) => {
    const w = await world("single");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀", after });
    ack.begin(w.target(message), true);
    await eventually(() => expect(w.held(message)).toEqual(["👀"]));
    const result = await performReaction({ ...w.target(message), call: { emoji: "🎉" } });
    ack.agentReacted(message.messageId, result);
    await ack.end(outcome);
    expect(w.held(message)).toEqual(["🎉"]);
  });
});

describe("AckReactions where 👀 is not allowed", () => {
  it("uses the first allowed fallback (👍) on a closed vocabulary, and removes it", async () => {
    const w = await world("closed");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀" });
    ack.begin(w.target(message), true);
    await eventually(() => expect(w.held(message)).toEqual(["👍"]));
    await ack.end("noreply");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests().some((r) => r.includes("👀"))).toBe(false);
  });

  it("falls back to a done emoji the vocabulary allows", async () => {
    const w = await world("closed");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "🔥", after: "done", doneEmoji: "✅" });
    ack.begin(w.target(message), true);
    await ack.end("done");
    expect(w.held(message)).toEqual(["👍"]);
  });

  it("moves on to the next fallback when the platform refuses one the plugin did not know about", async () => {
    // The plugin declares no vocabulary, the platform still has one: the refusal is the only signal.
    const w = await world("closed", { vocabulary: undefined });
    const message = w.userMessage();
    const logger = recordingLogger();
    const ack = new AckReactions({ emoji: "👀", logger });
    ack.begin(w.target(message), true);
    await eventually(() => expect(w.held(message)).toEqual(["👍"]));
    await ack.end("done");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests().map((r) => r.split("/").pop())).toEqual(["👀", "👍", "👍"]);
    expect(logger.lines.filter((line) => line.level === "warn")).toEqual([]);
  });
});

describe("AckReactions on an add-only channel", () => {
  it("places no ack, since it could never be taken back", async () => {
    const w = await world("addOnly");
    const message = w.userMessage();
    const ack = new AckReactions({ emoji: "👀", after: "done" });
    ack.begin(w.target(message), true);
    await ack.end("done");
    expect(w.held(message)).toEqual([]);
    expect(w.reactionRequests()).toEqual([]);
  });
});
