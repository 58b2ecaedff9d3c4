import { describe, expect, it } from "vitest";
import { SystemEvents } from "./system-events.js";

const A = "agent:main:memory:group:family";
const B = "agent:main:memory:group:work";

describe("SystemEvents", () => {
  it("hands a session's events out once, oldest first, and keeps sessions apart", () => {
    const events = new SystemEvents();
    events.add(A, "Memory reaction added: 👍 by Ann on msg m1");
    events.add(B, "Memory reaction added: 🔥 by Bob on msg m9");
    events.add(A, "Memory reaction added: ❤️ by Cy on msg m1");
    expect(events.drain(A)).toEqual([
      "Memory reaction added: 👍 by Ann on msg m1",
      "Memory reaction added: ❤️ by Cy on msg m1",
    ]);
    expect(events.drain(A)).toEqual([]);
    expect(events.drain(B)).toEqual(["Memory reaction added: 🔥 by Bob on msg m9"]);
    expect(events.size).toBe(0);
  });

  it("deduplicates: the same text again is kept once, at its latest place", () => {
    const events = new SystemEvents();
    events.add(A, "added 👍");
    events.add(A, "removed 👍");
    events.add(A, "added 👍");
    events.add(A, "added 👍");
    expect(events.drain(A)).toEqual(["removed 👍", "added 👍"]);
  });

  it("keeps at most maxPerSession events, dropping the oldest", () => {
    const events = new SystemEvents({ maxPerSession: 3 });
    for (let i = 1; i <= 5; i++) events.add(A, `event ${i}`);
    expect(events.drain(A)).toEqual(["event 3", "event 4", "event 5"]);
  });

  it("keeps at most maxSessions sessions, dropping the one added to least recently", () => {
    const events = new SystemEvents({ maxSessions: 2 });
    events.add("s1", "one");
    events.add("s2", "two");
    events.add("s1", "one again");
    events.add("s3", "three");
    expect(events.size).toBe(2);
    expect(events.drain("s2")).toEqual([]);
    expect(events.drain("s1")).toEqual(["one", "one again"]);
    expect(events.drain("s3")).toEqual(["three"]);
  });

  it("stays bounded under many sessions and events", () => {
    const events = new SystemEvents({ maxPerSession: 20, maxSessions: 1000 });
    // 5000 sessions take turns: each is evicted before its next event, so only its latest one is kept.
    for (let i = 0; i < 50_000; i++) events.add(`s${i % 5000}`, `event ${i}`);
    expect(events.size).toBe(1000);
    expect(events.drain("s3999")).toEqual([]);
    expect(events.drain("s4999")).toEqual(["event 49999"]);
    // 200 sessions fit: each keeps its 20 latest of 100 events.
    for (let i = 0; i < 20_000; i++) events.add(`t${i % 200}`, `event ${i}`);
    const t7 = events.drain("t7");
    expect(t7).toHaveLength(20);
    expect(t7[19]).toBe("event 19807");
  });
});
