import { describe, expect, it } from "vitest";
import { EventDeduper } from "./dedupe.js";

describe("EventDeduper", () => {
  it("says true the first time an id is seen and false after", () => {
    const deduper = new EventDeduper();
    expect(deduper.firstTime("a")).toBe(true);
    expect(deduper.firstTime("a")).toBe(false);
    expect(deduper.firstTime("b")).toBe(true);
    expect(deduper.firstTime("a")).toBe(false);
  });

  it("forgets the least recently seen ids beyond its capacity", () => {
    const deduper = new EventDeduper(3);
    for (const id of ["a", "b", "c"]) deduper.firstTime(id);
    expect(deduper.firstTime("a")).toBe(false); // refreshes a: b is now the oldest
    expect(deduper.firstTime("d")).toBe(true); // evicts b
    expect(deduper.size).toBe(3);
    expect(deduper.firstTime("c")).toBe(false);
    expect(deduper.firstTime("a")).toBe(false);
    expect(deduper.firstTime("b")).toBe(true);
  });

  it("stays bounded under many ids", () => {
    const deduper = new EventDeduper(100);
    let fresh = 0;
    for (let i = 0; i < 10_000; i++) if (deduper.firstTime(`id-${i}`)) fresh++;
    expect(fresh).toBe(10_000);
    expect(deduper.size).toBe(100);
    expect(deduper.firstTime("id-9999")).toBe(false);
    expect(deduper.firstTime("id-0")).toBe(true);
  });

  it("rejects a capacity that is not a positive integer", () => {
    expect(() => new EventDeduper(0)).toThrow(/capacity must be a positive integer/);
    expect(() => new EventDeduper(1.5)).toThrow(/capacity/);
  });
});
