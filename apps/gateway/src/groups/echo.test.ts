import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { EchoGuard } from "./echo.js";

const batch = "Carol: hello\n[from: Carol (+15551234567)]";

describe("EchoGuard", () => {
  it("the same batch twice without a mention is a repeat", () => {
    const echo = new EchoGuard();
    expect(echo.isRepeat("g1", batch, false)).toBe(false);
    expect(echo.isRepeat("g1", batch, false)).toBe(true);
    expect(echo.isRepeat("g1", batch, false)).toBe(true);
  });

  it("with a mention it is never a repeat", () => {
    const echo = new EchoGuard();
    expect(echo.isRepeat("g1", batch, true)).toBe(false);
    expect(echo.isRepeat("g1", batch, true)).toBe(false);
    expect(echo.isRepeat("g1", batch, false)).toBe(true);
  });

  it("different text is not a repeat, and only the previous batch counts", () => {
    const echo = new EchoGuard();
    expect(echo.isRepeat("g1", batch, false)).toBe(false);
    expect(echo.isRepeat("g1", `${batch} `, false)).toBe(false);
    expect(echo.isRepeat("g1", batch, false)).toBe(false);
  });

  it("is per session key", () => {
    const echo = new EchoGuard();
    expect(echo.isRepeat("g1", batch, false)).toBe(false);
    expect(echo.isRepeat("g2", batch, false)).toBe(false);
    expect(echo.isRepeat("g1", batch, false)).toBe(true);
    expect(echo.isRepeat("g2", batch, false)).toBe(true);
  });

  it("clear forgets a session", () => {
    const echo = new EchoGuard();
    echo.isRepeat("g1", batch, false);
    echo.clear("g1");
    expect(echo.isRepeat("g1", batch, false)).toBe(false);
  });

  it("remembers at most maxKeys sessions, dropping the least recently used", () => {
    const echo = new EchoGuard({ maxKeys: 2 });
    echo.isRepeat("a", batch, false);
    echo.isRepeat("b", batch, false);
    echo.isRepeat("a", "other", false); // a is now the most recent
    echo.isRepeat("c", batch, false); // drops b
    expect(echo.size).toBe(2);
    expect(echo.isRepeat("b", batch, false)).toBe(false); // b was forgotten; now it drops a
    expect(echo.isRepeat("c", batch, false)).toBe(true);
    expect(echo.isRepeat("a", "other", false)).toBe(false);
  });

  it("rejects a bad maxKeys with a typed error", () => {
    expect(() => new EchoGuard({ maxKeys: 0 })).toThrow(ChorusError);
  });
});
