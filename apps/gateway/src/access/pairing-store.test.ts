import { ChorusError } from "@chorus/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StateStore } from "../state/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import { describeSender, normalizePairingCode, PAIRING_CODE_ALPHABET, PAIRING_CODE_TTL_MS } from "./pairing.js";
import { PAIRING_KEY, PAIRING_SCOPE, PairingStore } from "./pairing-store.js";

const CODE = new RegExp(`^[${PAIRING_CODE_ALPHABET}]{6}$`);
const alice = { id: "u-alice", name: "Alice", e164: "+4915112345678" };
const bob = { id: "u-bob", name: "Bob" };

let test: TestState;
let file: StateStore;
let clock: number;
const now = () => clock;
beforeEach(async () => {
  test = await openTestState();
  file = test.state;
  clock = Date.parse("2030-01-01T12:00:00Z");
});
afterEach(async () => {
  await test.close();
});

/** The pairing document as the state layer holds it. */
async function saved(state: StateStore = file) {
  return JSON.parse((await state.kv.get(PAIRING_SCOPE, PAIRING_KEY, 0)) ?? "{}") as {
    version: number;
    pending: { senderId: string }[];
    approved: unknown[];
  };
}

async function rejection(promise: Promise<unknown>): Promise<ChorusError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ChorusError);
  return error as ChorusError;
}

describe("pairing codes", () => {
  it("uses an alphabet without look-alikes", () => {
    for (const ambiguous of ["0", "O", "1", "I", "L"]) expect(PAIRING_CODE_ALPHABET).not.toContain(ambiguous);
    expect(new Set(PAIRING_CODE_ALPHABET).size).toBe(PAIRING_CODE_ALPHABET.length);
  });

  it("are 6 characters of that alphabet and differ between senders", async () => {
    const store = await PairingStore.open(file, { now, maxPendingPerAccount: 100 });
    const codes = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const { code, firstTime } = await store.request("webchat", "default", { id: `u-${i}` });
      expect(code).toMatch(CODE);
      expect(firstTime).toBe(true);
      codes.add(code);
    }
    expect(codes.size).toBe(40);
  });

  it("normalizes what a person types: case, spaces, dashes", () => {
    expect(normalizePairingCode(" k7q-2xm ")).toBe("K7Q2XM");
  });
});

describe("PairingStore.request", () => {
  it("gives the same code again within the hour, with firstTime false", async () => {
    const store = await PairingStore.open(file, { now });
    const first = await store.request("webchat", "default", alice);
    expect(first.firstTime).toBe(true);
    clock += PAIRING_CODE_TTL_MS - 1;
    expect(await store.request("webchat", "default", alice)).toEqual({ code: first.code, firstTime: false });
  });

  it("issues a new code after the hour, and the old one is gone", async () => {
    const store = await PairingStore.open(file, { now });
    const first = await store.request("webchat", "default", alice);
    clock += PAIRING_CODE_TTL_MS;
    const second = await store.request("webchat", "default", alice);
    expect(second.firstTime).toBe(true);
    expect(second.code).not.toBe(first.code);
    expect((await rejection(store.approve(first.code))).code).toBe("E_INVALID_INPUT");
    expect((await store.list()).pending.map((p) => p.code)).toEqual([second.code]);
  });

  it("keeps channels and accounts apart", async () => {
    const store = await PairingStore.open(file, { now });
    const a = await store.request("webchat", "default", alice);
    const b = await store.request("webchat", "work", alice);
    const c = await store.request("telegram", "default", alice);
    expect([a.firstTime, b.firstTime, c.firstTime]).toEqual([true, true, true]);
    expect(new Set([a.code, b.code, c.code]).size).toBe(3);
  });

  it("answers concurrent requests of one sender with one code, issued once", async () => {
    const store = await PairingStore.open(file, { now });
    const results = await Promise.all(Array.from({ length: 8 }, () => store.request("webchat", "default", alice)));
    expect(new Set(results.map((r) => r.code)).size).toBe(1);
    expect(results.filter((r) => r.firstTime)).toHaveLength(1);
  });

  it("refuses a new code with E_RATE_LIMITED when an account has too many pending, until one expires", async () => {
    const store = await PairingStore.open(file, { now, maxPendingPerAccount: 2 });
    await store.request("webchat", "default", { id: "a" });
    await store.request("webchat", "default", { id: "b" });
    const error = await rejection(store.request("webchat", "default", { id: "c" }));
    expect(error.code).toBe("E_RATE_LIMITED");
    expect(error.message).toContain("already has 2 pending pairing requests");
    expect((await store.request("webchat", "other", { id: "c" })).firstTime).toBe(true);
    expect(await store.request("webchat", "default", { id: "a" })).toMatchObject({ firstTime: false });
    clock += PAIRING_CODE_TTL_MS;
    expect((await store.request("webchat", "default", { id: "c" })).firstTime).toBe(true);
  });
});

describe("PairingStore.approve", () => {
  it("approves by code in any case: the sender is allowed and no longer pending", async () => {
    const store = await PairingStore.open(file, { now });
    const { code } = await store.request("webchat", "default", alice);
    expect(await store.isApproved("webchat", "default", "u-alice")).toBe(false);
    clock += 60_000;
    const entry = await store.approve(` ${code.toLowerCase()} `);
    expect(entry).toEqual({
      channel: "webchat",
      accountId: "default",
      senderId: "u-alice",
      name: "Alice",
      e164: "+4915112345678",
      code,
      approvedAt: new Date(clock).toISOString(),
    });
    expect(await store.isApproved("webchat", "default", "u-alice")).toBe(true);
    expect(await store.isApproved("webchat", "work", "u-alice")).toBe(false);
    expect(await store.isApproved("telegram", "default", "u-alice")).toBe(false);
    expect(await store.list()).toEqual({ pending: [], approved: [entry] });
  });

  it("is one-time: the same code a second time is unknown", async () => {
    const store = await PairingStore.open(file, { now });
    const { code } = await store.request("webchat", "default", alice);
    await store.approve(code);
    const error = await rejection(store.approve(code));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe(`no pending pairing request has the code "${code}"`);
  });

  it("rejects an unknown code with E_INVALID_INPUT and a hint to list the pending ones", async () => {
    const store = await PairingStore.open(file, { now });
    const error = await rejection(store.approve("zzzzzz"));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe('no pending pairing request has the code "zzzzzz"');
    expect(error.hint).toContain("chorus pairing list");
    expect(error.retryable).toBe(false);
  });

  it("rejects an expired code saying it expired, whose it was and when", async () => {
    const store = await PairingStore.open(file, { now });
    const { code } = await store.request("webchat", "default", alice);
    const expiresAt = new Date(clock + PAIRING_CODE_TTL_MS).toISOString();
    clock += PAIRING_CODE_TTL_MS;
    const error = await rejection(store.approve(code));
    expect(error.code).toBe("E_INVALID_INPUT");
    expect(error.message).toBe(
      `the pairing code "${code}" of Alice (+4915112345678, id u-alice) on webchat expired at ${expiresAt}`,
    );
    expect(error.hint).toContain("new code");
    expect(await store.isApproved("webchat", "default", "u-alice")).toBe(false);
    expect((await store.list()).pending).toEqual([]);
  });

  it("approving the same sender again replaces the earlier approval", async () => {
    const store = await PairingStore.open(file, { now });
    await store.approve((await store.request("webchat", "default", bob)).code);
    clock += 1000;
    const again = await store.request("webchat", "default", { ...bob, name: "Bobby" });
    await store.approve(again.code);
    const { approved } = await store.list();
    expect(approved).toHaveLength(1);
    expect(approved[0]).toMatchObject({ senderId: "u-bob", name: "Bobby", code: again.code });
  });
});

describe("PairingStore persistence (the state layer)", () => {
  it("keeps one versioned document of requests and approvals", async () => {
    const store = await PairingStore.open(file, { now });
    const { code } = await store.request("webchat", "default", alice);
    expect(await saved()).toEqual({
      version: 1,
      approved: [],
      pending: [
        {
          channel: "webchat",
          accountId: "default",
          senderId: "u-alice",
          name: "Alice",
          e164: "+4915112345678",
          code,
          createdAt: "2030-01-01T12:00:00.000Z",
          expiresAt: "2030-01-01T13:00:00.000Z",
        },
      ],
    });
  });

  it("a new store instance sees pending codes and approvals", async () => {
    const first = await PairingStore.open(file, { now });
    const { code } = await first.request("webchat", "default", alice);
    const pendingBob = await first.request("webchat", "default", bob);
    await first.approve(code);
    const second = await PairingStore.open(file, { now });
    expect(await second.isApproved("webchat", "default", "u-alice")).toBe(true);
    expect(await second.request("webchat", "default", bob)).toEqual({ code: pendingBob.code, firstTime: false });
  });

  it("picks up an approval made by another process on the same database (the CLI next to the gateway)", async () => {
    const gateway = await PairingStore.open(file, { now });
    const cli = await PairingStore.open(await test.reopen(), { now });
    const { code } = await gateway.request("webchat", "default", alice);
    expect(await gateway.isApproved("webchat", "default", "u-alice")).toBe(false);
    await cli.approve(code);
    expect(await gateway.isApproved("webchat", "default", "u-alice")).toBe(true);
  });

  it("two processes writing at once (gateway and CLI) lose no change", async () => {
    const a = await PairingStore.open(file, { now, maxPendingPerAccount: 100 });
    const b = await PairingStore.open(await test.reopen(), { now, maxPendingPerAccount: 100 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).request("webchat", "default", { id: `u-${i}` })),
    );
    const fresh = await PairingStore.open(file, { now });
    expect((await fresh.list()).pending.map((p) => p.senderId).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `u-${i}`).sort(),
    );
  });

  it("an unreadable document is said with a warning and starts empty", async () => {
    await file.kv.set(
      PAIRING_SCOPE,
      PAIRING_KEY,
      JSON.stringify({ version: 1, pending: [{ code: "ABCDEF" }] }),
      undefined,
    );
    const warnings: string[] = [];
    const store = await PairingStore.open(file, { now, onWarning: (message) => warnings.push(message) });
    expect(await store.list()).toEqual({ pending: [], approved: [] });
    expect(warnings[0]).toMatch(/pairing state .* was unreadable/);
    expect((await store.request("webchat", "default", alice)).firstTime).toBe(true);
  });

  it("keeps expired requests for a day, so a late approval says expired, then drops them", async () => {
    const store = await PairingStore.open(file, { now });
    const { code } = await store.request("webchat", "default", alice);
    clock += PAIRING_CODE_TTL_MS + 1000;
    await store.request("webchat", "default", bob);
    expect((await rejection(store.approve(code))).message).toContain("expired");
    clock += 86_400_000 + PAIRING_CODE_TTL_MS;
    await store.request("webchat", "default", { id: "u-carol" });
    expect((await rejection(store.approve(code))).message).toContain("no pending pairing request");
    expect((await saved()).pending.map((p) => p.senderId)).toEqual(["u-carol"]);
  });
});

describe("describeSender", () => {
  it("names the sender with number and id when known", () => {
    expect(describeSender({ senderId: "u1", name: "Ann", e164: "+1555" })).toBe("Ann (+1555, id u1)");
    expect(describeSender({ senderId: "u1" })).toBe("id u1");
  });
});
