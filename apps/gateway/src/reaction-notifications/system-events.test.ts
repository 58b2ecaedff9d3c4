import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateConfig } from "../state/index.js";
import { freshPostgresDatabase, openTestState, type TestState } from "../testing/index.js";
import { SystemEvents } from "./system-events.js";

const A = "agent:main:memory:group:family";
const B = "agent:main:memory:group:work";

let test: TestState;

/** The same on both backends: several gateways share PostgreSQL. */
const BACKENDS: { name: string; config: () => Promise<StateConfig> }[] = [
  { name: "sqlite", config: async () => ({ backend: "sqlite" }) },
  {
    name: "postgres",
    config: async () => ({ backend: "postgres", url: await freshPostgresDatabase("system_events") }),
  },
];

describe.each(BACKENDS)("on $name", (backend) => {
  beforeEach(async () => {
    test = await openTestState(await backend.config());
  });
  afterEach(async () => {
    await test.close();
  });

  describe("SystemEvents", () => {
    it("hands a session's events out once, oldest first, and keeps sessions apart", async () => {
      const events = new SystemEvents(test.state);
      await events.add(A, "Memory reaction added: 👍 by Ann on msg m1");
      await events.add(B, "Memory reaction added: 🔥 by Bob on msg m9");
      await events.add(A, "Memory reaction added: ❤️ by Cy on msg m1");
      expect(await events.drain(A)).toEqual([
        "Memory reaction added: 👍 by Ann on msg m1",
        "Memory reaction added: ❤️ by Cy on msg m1",
      ]);
      expect(await events.drain(A)).toEqual([]);
      expect(await events.drain(B)).toEqual(["Memory reaction added: 🔥 by Bob on msg m9"]);
    });

    it("deduplicates: the same text again is kept once, at its latest place", async () => {
      const events = new SystemEvents(test.state);
      await events.add(A, "added 👍");
      await events.add(A, "removed 👍");
      await events.add(A, "added 👍");
      await events.add(A, "added 👍");
      expect(await events.drain(A)).toEqual(["removed 👍", "added 👍"]);
    });

    it("keeps at most maxPerSession events, dropping the oldest", async () => {
      const events = new SystemEvents(test.state, { maxPerSession: 3 });
      for (let i = 1; i <= 5; i++) await events.add(A, `event ${i}`);
      expect(await events.drain(A)).toEqual(["event 3", "event 4", "event 5"]);
    });

    it("a turn's commit consumes what it showed; an event added meanwhile waits for the next turn", async () => {
      const events = new SystemEvents(test.state);
      await events.add(A, "one");
      const shown = await events.peek(A);
      await events.add(A, "two");
      await test.state.db.tx((sql) => events.consume(sql, A, shown));
      expect(await events.peek(A)).toEqual(["two"]);
    });

    it("a turn that never committed (a crash) leaves them for the turn run again", async () => {
      const events = new SystemEvents(test.state);
      await events.add(A, "one");
      expect(await events.peek(A)).toEqual(["one"]);
      expect(await events.peek(A)).toEqual(["one"]);
    });

    it("is shared: an event noted through one connection (gateway) is seen through another", async () => {
      await new SystemEvents(test.state).add(A, "noted on gateway A");
      const other = new SystemEvents(await test.reopen());
      expect(await other.drain(A)).toEqual(["noted on gateway A"]);
      expect(await new SystemEvents(test.state).peek(A)).toEqual([]);
    });

    it("events wait keepMs at most: older ones are not shown, and prune forgets them", async () => {
      let now = 1_700_000_000_000;
      const events = new SystemEvents(test.state, { keepMs: 60_000, now: () => now });
      await events.add(A, "old");
      now += 30_000;
      await events.add(B, "newer");
      now += 40_000;
      expect(await events.peek(A)).toEqual([]);
      expect(await events.prune()).toBe(1);
      expect(await events.peek(B)).toEqual(["newer"]);
    });
  });
});
