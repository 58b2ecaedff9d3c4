import { describe, expect, it } from "vitest";
import { InFlight } from "./in-flight.js";

describe("InFlight", () => {
  it("runs what comes after at once when nothing runs under its key", () => {
    const inFlight = new InFlight();
    const ran: string[] = [];
    inFlight.after("a", () => ran.push("next"));
    expect(ran).toEqual(["next"]);
  });

  it("waits for every piece of work of the key, and only of that key", async () => {
    const inFlight = new InFlight();
    const ran: string[] = [];
    let endFirst!: () => void;
    let endSecond!: () => void;
    inFlight.track("a", new Promise<void>((resolve) => (endFirst = resolve)));
    inFlight.track("a", new Promise<void>((resolve) => (endSecond = resolve)));
    const next = new Promise<void>((resolve) =>
      inFlight.after("a", () => {
        ran.push("a-next");
        resolve();
      }),
    );
    inFlight.after("b", () => ran.push("b-next"));
    expect(ran).toEqual(["b-next"]);
    endFirst();
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toEqual(["b-next"]);
    endSecond();
    await next;
    expect(ran).toEqual(["b-next", "a-next"]);
    // Ended work is forgotten: the next one runs at once.
    inFlight.after("a", () => ran.push("later"));
    expect(ran).toEqual(["b-next", "a-next", "later"]);
  });
});
