import { isChorusError } from "@chorus/core";
import { waitFor } from "@chorus/testkit";
import { describe, expect, it } from "vitest";
import { TurnQueue } from "./queue.js";

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A task that records its start and ends when released. */
function gatedTask(log: string[], name: string) {
  const gate = deferred<string>();
  return {
    release: () => gate.resolve(name),
    task: async () => {
      log.push(`start ${name}`);
      const value = await gate.promise;
      log.push(`end ${name}`);
      return value;
    },
  };
}

describe("TurnQueue", () => {
  it("runs the tasks of one key one at a time, in arrival order", async () => {
    const queue = new TurnQueue({ maxConcurrent: 4 });
    const log: string[] = [];
    const tasks = ["a1", "a2", "a3"].map((name) => gatedTask(log, name));
    const results = tasks.map((t) => queue.run("a", t.task));
    await waitFor(() => log.includes("start a1"), { timeoutMs: 2000 });
    expect(queue.active).toBe(1);
    expect(queue.size).toBe(2);
    tasks[1]?.release(); // a2 may not finish before it even started
    tasks[2]?.release();
    tasks[0]?.release();
    expect(await Promise.all(results)).toEqual(["a1", "a2", "a3"]);
    expect(log).toEqual(["start a1", "end a1", "start a2", "end a2", "start a3", "end a3"]);
  });

  it("runs different keys concurrently up to maxConcurrent overall", async () => {
    const queue = new TurnQueue({ maxConcurrent: 3 });
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const gates = Array.from({ length: 10 }, () => deferred());
    const results = gates.map((gate, i) =>
      queue.run(`k${i}`, async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        log.push(`k${i}`);
        await gate.promise;
        running--;
        return i;
      }),
    );
    await waitFor(() => log.length === 3, { timeoutMs: 2000 });
    expect(queue.active).toBe(3);
    expect(queue.size).toBe(7);
    expect(log).toEqual(["k0", "k1", "k2"]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(results)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(maxRunning).toBe(3);
    expect(queue.active).toBe(0);
    expect(queue.size).toBe(0);
  });

  it("lets other keys use free slots while one key is busy", async () => {
    const queue = new TurnQueue({ maxConcurrent: 2 });
    const log: string[] = [];
    const a1 = gatedTask(log, "a1");
    const a2 = gatedTask(log, "a2");
    const b1 = gatedTask(log, "b1");
    const results = [queue.run("a", a1.task), queue.run("a", a2.task), queue.run("b", b1.task)];
    await waitFor(() => log.includes("start b1"), { timeoutMs: 2000 });
    expect(log).toEqual(["start a1", "start b1"]);
    b1.release();
    a1.release();
    a2.release();
    await Promise.all(results);
    expect(log.indexOf("start a2")).toBeGreaterThan(log.indexOf("end a1"));
  });

  it("does not let a failing task block the next one of its key", async () => {
    const queue = new TurnQueue({ maxConcurrent: 1 });
    const failing = queue.run("a", async () => {
      throw new Error("model exploded");
    });
    const throwingSync = queue.run("a", (() => {
      throw new Error("sync throw");
    }) as () => Promise<never>);
    const next = queue.run("a", async () => "still runs");
    await expect(failing).rejects.toThrow("model exploded");
    await expect(throwingSync).rejects.toThrow("sync throw");
    expect(await next).toBe("still runs");
  });

  it("turns whose model call timed out give back their slots: a waiting session runs, and theirs run again", async () => {
    const queue = new TurnQueue({ maxConcurrent: 2 });
    const log: string[] = [];
    // What a stalled model call does at its deadline: its fetch is aborted and the turn rejects.
    const timesOut = (name: string) => async () => {
      log.push(`start ${name}`);
      const deadline = new AbortController();
      const failed = new Promise((_resolve, reject) => {
        deadline.signal.addEventListener("abort", () => reject(deadline.signal.reason), { once: true });
      });
      setTimeout(() => deadline.abort(new DOMException("took too long", "TimeoutError")), 20);
      return failed;
    };
    const ann = queue.run("ann", timesOut("ann"));
    const bob = queue.run("bob", timesOut("bob"));
    const carl = queue.run("carl", async () => "carl answered");
    const annAgain = queue.run("ann", async () => "ann answered");
    expect(queue.active).toBe(2);
    await expect(ann).rejects.toMatchObject({ name: "TimeoutError" });
    await expect(bob).rejects.toMatchObject({ name: "TimeoutError" });
    expect(await carl).toBe("carl answered");
    expect(await annAgain).toBe("ann answered");
    expect(await queue.run("bob", async () => "bob answered")).toBe("bob answered");
    expect(log).toEqual(["start ann", "start bob"]);
    await waitFor(() => queue.active === 0 && queue.size === 0, { timeoutMs: 2000 });
  });

  it("drain waits for running and queued tasks and then refuses new ones", async () => {
    const queue = new TurnQueue({ maxConcurrent: 1 });
    const log: string[] = [];
    const a = gatedTask(log, "a");
    const b = gatedTask(log, "b");
    const results = [queue.run("x", a.task), queue.run("y", b.task)];
    await waitFor(() => log.length === 1, { timeoutMs: 2000 });
    const drained = queue.drain(10_000);
    const refused = await queue.run("z", async () => "never").catch((error: unknown) => error);
    expect(isChorusError(refused) && refused.code).toBe("E_DISABLED");
    expect((refused as Error).message).toBe("gateway is shutting down");
    a.release();
    await waitFor(() => log.includes("start b"), { timeoutMs: 2000 }); // queued work still runs while draining
    b.release();
    expect(await drained).toEqual({ drained: true, abandoned: 0 });
    expect(await Promise.all(results)).toEqual(["a", "b"]);
  });

  it("drain of an idle queue resolves at once", async () => {
    const queue = new TurnQueue({ maxConcurrent: 2 });
    expect(await queue.drain(0)).toEqual({ drained: true, abandoned: 0 });
  });

  it("at the deadline aborts running tasks through their signal and drops queued ones", async () => {
    const queue = new TurnQueue({ maxConcurrent: 2 });
    const started: string[] = [];
    const stubborn = (name: string) => (signal: AbortSignal) =>
      new Promise<string>((_resolve, reject) => {
        started.push(name);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    const running1 = queue.run("a", stubborn("a1"));
    const queued = queue.run("a", stubborn("a2"));
    const running2 = queue.run("b", stubborn("b1"));
    await waitFor(() => started.length === 2, { timeoutMs: 2000 });
    const result = await queue.drain(30);
    expect(result).toEqual({ drained: false, abandoned: 3 });
    await expect(running1).rejects.toMatchObject({ code: "E_DISABLED" });
    await expect(running2).rejects.toMatchObject({ code: "E_DISABLED" });
    await expect(queued).rejects.toMatchObject({
      code: "E_DISABLED",
      message: expect.stringMatching(/before it started/),
    });
    expect(started).toEqual(["a1", "b1"]);
    expect(queue.size).toBe(0);
    await waitFor(() => queue.active === 0, { timeoutMs: 2000 });
    expect(await queue.drain(1000)).toEqual({ drained: false, abandoned: 3 }); // the same outcome again
  });

  it("rejects a maxConcurrent that is not a positive integer", () => {
    expect(() => new TurnQueue({ maxConcurrent: 0 })).toThrow(/maxConcurrent/);
  });
});
