import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChannelSettings } from "../config/index.js";
import { openTestState, type TestState } from "../testing/index.js";
import type { AccessSender } from "./allowlist.js";
import { PAIRING_CODE_ALPHABET } from "./pairing.js";
import { PairingStore } from "./pairing-store.js";
import { type AccessDecision, checkAccess } from "./policy.js";

let dir: string;
let pairing: PairingStore;
let test: TestState;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "chorus-access-"));
  test = await openTestState(undefined, dir);
  pairing = await PairingStore.open(test.state);
});
afterEach(async () => {
  await test.close();
  await rm(dir, { recursive: true, force: true });
});

const alice: AccessSender = { id: "u-alice", name: "Alice", e164: "+4915112345678" };
const bob: AccessSender = { id: "u-bob", name: "Bob", e164: "+14155550100" };
const bot = { id: "bot-1", e164: "+4917600000001" };

function dm(settings: ChannelSettings, sender: AccessSender = alice, withBot = true): Promise<AccessDecision> {
  return checkAccess({
    channel: "webchat",
    accountId: "default",
    conversation: { id: `dm-${sender.id}`, kind: "direct" },
    sender,
    settings,
    ...(withBot ? { bot } : {}),
    pairing,
  });
}

function group(settings: ChannelSettings, sender: AccessSender = alice, groupId = "g-1"): Promise<AccessDecision> {
  return checkAccess({
    channel: "webchat",
    accountId: "default",
    conversation: { id: groupId, kind: "group" },
    sender,
    settings,
    bot,
    pairing,
  });
}

function reasonOf(decision: AccessDecision): string {
  if (decision.allowed) throw new Error("expected a blocked decision");
  return decision.reason;
}

describe("checkAccess: direct messages", () => {
  it('dmPolicy "disabled" blocks everyone, owners included, naming the rule', async () => {
    for (const sender of [alice, { id: "bot-1" }]) {
      const decision = await dm({ dmPolicy: "disabled", allowFrom: ["*"] }, sender);
      expect(reasonOf(decision)).toBe('direct messages are off: channels.webchat.dmPolicy is "disabled"');
    }
  });

  it('dmPolicy "open" lets anyone in; owner follows allowFrom', async () => {
    expect(await dm({ dmPolicy: "open" })).toEqual({ allowed: true, owner: false });
    expect(await dm({ dmPolicy: "open", allowFrom: ["u-alice"] })).toEqual({ allowed: true, owner: true });
    expect(await dm({ dmPolicy: "open", allowFrom: ["u-bob"] })).toEqual({ allowed: true, owner: false });
  });

  it('dmPolicy "allowlist" admits allowFrom senders by id, by number and by "*"', async () => {
    expect(await dm({ dmPolicy: "allowlist", allowFrom: ["u-alice"] })).toEqual({ allowed: true, owner: true });
    expect(await dm({ dmPolicy: "allowlist", allowFrom: ["49-151-1234 5678"] })).toEqual({
      allowed: true,
      owner: true,
    });
    expect(await dm({ dmPolicy: "allowlist", allowFrom: ["*"] })).toEqual({ allowed: true, owner: true });
  });

  it('dmPolicy "allowlist" blocks others, saying who and which rule', async () => {
    const reason = reasonOf(await dm({ dmPolicy: "allowlist", allowFrom: ["u-bob"] }));
    expect(reason).toBe('sender u-alice (Alice) is not in channels.webchat.allowFrom (dmPolicy "allowlist")');
  });

  it('dmPolicy "allowlist" with no allowFrom blocks everyone but the bot\'s own account', async () => {
    expect(reasonOf(await dm({ dmPolicy: "allowlist" }))).toBe(
      'channels.webchat.allowFrom is not set, so dmPolicy "allowlist" lets no one write direct messages',
    );
    expect(await dm({ dmPolicy: "allowlist" }, { id: "me", e164: bot.e164 })).toEqual({ allowed: true, owner: true });
  });

  it('dmPolicy "allowlist" never issues pairing codes', async () => {
    const decision = await dm({ dmPolicy: "allowlist", allowFrom: ["u-bob"] });
    expect(decision).not.toHaveProperty("pairing");
    expect((await pairing.list()).pending).toEqual([]);
  });

  it('dmPolicy "pairing" is the default: an unknown sender gets a new code once, then the same code quietly', async () => {
    const first = await dm({});
    expect(first.allowed).toBe(false);
    if (first.allowed) return;
    expect(first.pairing?.firstTime).toBe(true);
    expect(first.pairing?.code).toMatch(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{6}$`));
    expect(first.reason).toContain('sender u-alice (Alice) is not paired (dmPolicy "pairing")');
    expect(first.reason).toContain(`chorus pairing approve ${first.pairing?.code}`);
    const second = await dm({ dmPolicy: "pairing" });
    expect(second).toMatchObject({ allowed: false, pairing: { code: first.pairing?.code, firstTime: false } });
  });

  it('dmPolicy "pairing" lets allowFrom senders in without a code', async () => {
    expect(await dm({ allowFrom: ["+4915112345678"] })).toEqual({ allowed: true, owner: true });
    expect((await pairing.list()).pending).toEqual([]);
  });

  it('dmPolicy "pairing" lets an approved sender in (not as owner when allowFrom lists someone else)', async () => {
    const first = await dm({ allowFrom: ["u-bob"] });
    if (first.allowed || !first.pairing) throw new Error("expected a pairing code");
    await pairing.approve(first.pairing.code.toLowerCase());
    expect(await dm({ allowFrom: ["u-bob"] })).toEqual({ allowed: true, owner: false });
  });

  it("an approval holds only for the channel account it was given on", async () => {
    const first = await dm({});
    if (first.allowed || !first.pairing) throw new Error("expected a pairing code");
    await pairing.approve(first.pairing.code);
    const elsewhere = await checkAccess({
      channel: "webchat",
      accountId: "work",
      conversation: { id: "dm", kind: "direct" },
      sender: alice,
      settings: {},
      pairing,
    });
    expect(elsewhere).toMatchObject({ allowed: false, pairing: { firstTime: true } });
  });

  it("the bot's own account is allowed and an owner when allowFrom is unset", async () => {
    expect(await dm({}, { id: "bot-1" })).toEqual({ allowed: true, owner: true });
    expect((await pairing.list()).pending).toEqual([]);
  });

  it("without a bot identity, nobody is an owner and the bot's number is a stranger", async () => {
    const decision = await dm({}, { id: "bot-1", e164: bot.e164 }, false);
    expect(decision).toMatchObject({ allowed: false, pairing: { firstTime: true } });
    expect(await dm({ dmPolicy: "open" }, alice, false)).toEqual({ allowed: true, owner: false });
  });

  it("when too many codes are pending, the sender is blocked without a code and the reason says why", async () => {
    const small = await PairingStore.open(await test.reopen(), { maxPendingPerAccount: 1 });
    const ask = (sender: AccessSender) =>
      checkAccess({
        channel: "webchat",
        accountId: "default",
        conversation: { id: "dm", kind: "direct" },
        sender,
        settings: {},
        pairing: small,
      });
    expect(await ask(alice)).toMatchObject({ allowed: false, pairing: { firstTime: true } });
    const refused = await ask(bob);
    expect(refused).not.toHaveProperty("pairing");
    expect(reasonOf(refused)).toMatch(/u-bob .*not paired.*no code was issued.*1 pending pairing requests/);
  });
});

describe("checkAccess: groups", () => {
  it('groupPolicy "disabled" blocks every group message, owners included', async () => {
    const decision = await group({ groupPolicy: "disabled", allowFrom: ["*"], groups: { "*": {} } });
    expect(reasonOf(decision)).toBe('group messages are off: channels.webchat.groupPolicy is "disabled"');
  });

  it('groupPolicy "open" admits any sender in any group when groups is unset', async () => {
    expect(await group({ groupPolicy: "open" }, bob)).toEqual({ allowed: true, owner: false });
    expect(await group({ groupPolicy: "open", allowFrom: ["u-bob"] }, bob)).toEqual({ allowed: true, owner: true });
  });

  it("groups, when present, is the group allowlist for open and allowlist policies", async () => {
    const groups = { "g-1": { requireMention: true } };
    expect(await group({ groupPolicy: "open", groups }, bob, "g-1")).toEqual({ allowed: true, owner: false });
    for (const groupPolicy of ["open", "allowlist"] as const) {
      const reason = reasonOf(await group({ groupPolicy, groups, groupAllowFrom: ["*"] }, bob, "g-2"));
      expect(reason).toBe('group g-2 is not in channels.webchat.groups (add "g-2" or "*" to allow it)');
    }
  });

  it('"*" in groups allows every group', async () => {
    expect(await group({ groupPolicy: "open", groups: { "*": {} } }, bob, "any-group")).toEqual({
      allowed: true,
      owner: false,
    });
  });

  it("an empty groups object allows no group", async () => {
    expect(reasonOf(await group({ groupPolicy: "open", groups: {} }))).toContain("is not in channels.webchat.groups");
  });

  it("a group turned off with enabled: false is blocked, by its own entry or by '*'", async () => {
    const own = await group({ groupPolicy: "open", groups: { "g-1": { enabled: false }, "*": {} } });
    expect(reasonOf(own)).toBe('group g-1 is turned off by channels.webchat.groups["g-1"].enabled = false');
    const star = await group({ groupPolicy: "open", groups: { "*": { enabled: false } } });
    expect(reasonOf(star)).toBe('group g-1 is turned off by channels.webchat.groups["*"].enabled = false');
    expect(await group({ groupPolicy: "open", groups: { "g-1": { enabled: true }, "*": { enabled: false } } })).toEqual(
      { allowed: true, owner: false },
    );
  });

  it('groupPolicy "allowlist" is the default and admits groupAllowFrom senders by id, number or "*"', async () => {
    expect(await group({ groupAllowFrom: ["u-alice"] })).toEqual({ allowed: true, owner: false });
    expect(await group({ groupAllowFrom: ["+49 151 1234-5678"] })).toEqual({ allowed: true, owner: false });
    expect(await group({ groupAllowFrom: ["*"] }, bob)).toEqual({ allowed: true, owner: false });
  });

  it("groupAllowFrom blocks other senders and takes precedence over allowFrom", async () => {
    const reason = reasonOf(await group({ groupAllowFrom: ["u-bob"], allowFrom: ["u-alice"] }));
    expect(reason).toBe('sender u-alice (Alice) is not in channels.webchat.groupAllowFrom (groupPolicy "allowlist")');
  });

  it("without groupAllowFrom, an explicit allowFrom decides, and the reason says it was the fallback", async () => {
    expect(await group({ allowFrom: ["u-alice"] })).toEqual({ allowed: true, owner: true });
    expect(await group({ allowFrom: ["*"] }, bob)).toEqual({ allowed: true, owner: true });
    const reason = reasonOf(await group({ allowFrom: ["u-alice"] }, bob));
    expect(reason).toBe(
      'sender u-bob (Bob) is not in channels.webchat.allowFrom (groupPolicy "allowlist", used because groupAllowFrom is not set)',
    );
  });

  it("with neither list set, the allowlist policy blocks everyone and says so", async () => {
    for (const settings of [{}, { groupPolicy: "allowlist" }, { groups: { "*": {} } }] as ChannelSettings[]) {
      const reason = reasonOf(await group(settings));
      expect(reason).toContain('groupPolicy is "allowlist" but neither groupAllowFrom nor allowFrom is set');
    }
  });

  it("the bot's own account passes the sender check and is the owner when allowFrom is unset", async () => {
    expect(await group({}, { id: "bot-1" })).toEqual({ allowed: true, owner: true });
    expect(await group({ groupAllowFrom: ["u-bob"] }, { id: "x", e164: bot.e164 })).toEqual({
      allowed: true,
      owner: true,
    });
    // …but not the group allowlist.
    expect(reasonOf(await group({ groups: { "g-9": {} } }, { id: "bot-1" }))).toContain(
      "is not in channels.webchat.groups",
    );
  });

  it("owner in groups follows allowFrom, not groupAllowFrom", async () => {
    const settings: ChannelSettings = { groupAllowFrom: ["u-alice", "u-bob"], allowFrom: ["u-bob"] };
    expect(await group(settings, alice)).toEqual({ allowed: true, owner: false });
    expect(await group(settings, bob)).toEqual({ allowed: true, owner: true });
  });

  it("group messages never issue pairing codes, whatever dmPolicy says", async () => {
    const decision = await group({ dmPolicy: "pairing" });
    expect(decision).not.toHaveProperty("pairing");
    expect((await pairing.list()).pending).toEqual([]);
  });

  it("dmPolicy does not affect groups, nor groupPolicy direct messages", async () => {
    expect(await group({ dmPolicy: "disabled", groupPolicy: "open" })).toEqual({ allowed: true, owner: false });
    expect(await dm({ dmPolicy: "open", groupPolicy: "disabled" })).toEqual({ allowed: true, owner: false });
  });
});
