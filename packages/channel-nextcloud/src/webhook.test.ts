import { type RunningChannel, startChannel } from "@chorus/testkit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as hooks from "./fixtures/talk-hooks.js";
import { type HookHarness, startHookHarness } from "./hook-harness.test-util.js";
import { nextcloudChannel } from "./index.js";
import { sign } from "./signing.js";
import type { FakeBot, FakeTalk } from "./testing/index.js";

const ann = { id: "ann", name: "Ann" };

let harness: HookHarness;
let fake: FakeTalk;
let bot: FakeBot;
let running: RunningChannel;
let hook: string;
let deliver: HookHarness["deliver"];

beforeEach(async () => {
  harness = await startHookHarness();
  ({ fake, bot, running, hook, deliver } = harness);
});

afterEach(() => harness.close());

const warnings = () => running.logs.at("warn", true);

describe("a verified body the plugin cannot read: 400 and a warning naming the field and the problem", () => {
  const skipped = "nextcloud: skipped a delivery it cannot read: ";

  it("a Create whose participant type is no number and whose note has no id", async () => {
    expect(await deliver(fake.unreadableEvent("team", ann))).toBe(400);
    expect(running.events).toEqual([]);
    expect(warnings().map((w) => w.message)).toEqual([
      `${skipped}a "Create" webhook from Talk: ` +
        'actor.talkParticipantType: expected a participant type (a number, or a numeric string such as "3"), received "moderator"; ' +
        "object.id: expected the message id (a numeric string), received nothing",
    ]);
  });

  it("a Like without its emoji, a Join without its conversation", async () => {
    const like = JSON.parse(hooks.like) as Record<string, unknown>;
    delete like.content;
    expect(await deliver(like)).toBe(400);
    expect(await deliver({ ...(JSON.parse(hooks.join) as object), object: undefined })).toBe(400);
    expect(warnings().map((w) => w.message)).toEqual([
      expect.stringMatching(/^nextcloud: skipped a delivery it cannot read: a "Like" webhook from Talk: content: /),
      expect.stringMatching(/^nextcloud: skipped a delivery it cannot read: a "Join" webhook from Talk: object: /),
    ]);
  });

  it("a body that is not JSON, or has no activity type", async () => {
    expect(await deliver("{not json")).toBe(400);
    expect(await deliver({ actor: {} })).toBe(400);
    expect(warnings().map((w) => w.message)).toEqual([
      expect.stringMatching(/^nextcloud: skipped a delivery it cannot read: a webhook from Talk: \(body\): not JSON/),
      `${skipped}a webhook from Talk: type: expected the activity type (Create, Like, …)`,
    ]);
    expect(running.events).toEqual([]);
  });

  it("an activity it does not handle is read and acknowledged, without a warning", async () => {
    expect(await deliver({ type: "Update", object: {} })).toBe(200);
    expect(warnings()).toEqual([]);
    expect(running.logs.at("debug").map((r) => r.message)).toEqual([
      'nextcloud: ignored an activity of type "Update" this plugin does not handle',
    ]);
  });
});

describe("verification: forged, foreign and replayed requests get 401 and nothing is processed", () => {
  it("accepts Talk's own headers: a 64-character random with + and /, the backend with a trailing slash", async () => {
    const random = `${"aZ09+/".repeat(10)}q+/w`;
    expect(await deliver(hooks.groupTypedName, { random })).toBe(200);
    expect(fake.deliveries[0]?.headers["x-nextcloud-talk-backend"]).toBe(`${fake.url}/`);
    expect(running.events).toHaveLength(1);
  });

  it("refuses a wrong secret", async () => {
    expect(await deliver(hooks.groupTypedName, { secret: "x".repeat(64) })).toBe(401);
    expect(running.events).toEqual([]);
    expect(warnings().map((w) => w.message)).toEqual(["nextcloud: refused a webhook (signature does not match)"]);
  });

  it("refuses a tampered body (signature over another body)", async () => {
    const random = "r".repeat(64);
    const response = await fetch(hook, {
      method: "POST",
      headers: {
        "x-nextcloud-talk-random": random,
        "x-nextcloud-talk-signature": sign(bot.secret, random, "{}"),
        "x-nextcloud-talk-backend": `${fake.url}/`,
      },
      body: hooks.groupTypedName,
    });
    expect(response.status).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses missing headers and a short random", async () => {
    expect((await fetch(hook, { method: "POST", body: hooks.like })).status).toBe(401);
    expect(await deliver(hooks.like, { random: "short" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a delivery from another Nextcloud (X-Nextcloud-Talk-Backend)", async () => {
    expect(await deliver(hooks.like, { backend: "https://evil.example.com/" })).toBe(401);
    expect(running.events).toEqual([]);
  });

  it("refuses a replay of a captured delivery (same random and signature), also of a message", async () => {
    expect(await deliver(hooks.like)).toBe(200);
    expect((await fake.replayLast()).status).toBe(401);
    expect(await deliver(hooks.groupTypedName)).toBe(200);
    expect((await fake.replayLast()).status).toBe(401);
    expect(running.events).toHaveLength(2);
    expect(running.duplicates).toEqual([]);
    expect(warnings().map((w) => w.fields.reason)).toEqual([
      "replayed X-Nextcloud-Talk-Random",
      "replayed X-Nextcloud-Talk-Random",
    ]);
  });
});

describe("routing", () => {
  it("serves each account's hook under /hooks/nextcloud/<account>", async () => {
    const work = fake.installBot({ name: "Work bot", secret: "w".repeat(64), url: "https://gw/hooks/nextcloud/work" });
    const other = await startChannel(nextcloudChannel, { config: fake.config(work), accountId: "work" });
    try {
      const url = other.ctx.http.url("/work");
      expect(new URL(url).pathname).toBe("/hooks/nextcloud/work");
      expect((await fake.deliver(url, work, hooks.like)).status).toBe(200);
      // The default account's secret does not open the work account's hook.
      expect((await fake.deliver(url, bot, hooks.like)).status).toBe(401);
      expect(other.events).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it("answers 503 (verified, not processed) before start", async () => {
    const idle = await startChannel(nextcloudChannel, { config: fake.config(bot), start: false });
    try {
      expect((await fake.deliver(idle.ctx.http.url("/default"), bot, hooks.like)).status).toBe(503);
      expect(idle.events).toEqual([]);
    } finally {
      await idle.stop();
    }
  });
});
