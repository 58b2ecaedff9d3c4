import { describe, expect, it } from "vitest";
import type { ChannelSettings } from "../config/index.js";
import { type AccessSender, isOwner, isSelf, matchesAllowList } from "./allowlist.js";

const alice: AccessSender = { id: "u-alice", name: "Alice", e164: "+4915112345678" };
const bob: AccessSender = { id: "u-bob", name: "Bob", e164: "+14155550100" };
const bot = { id: "bot-1", e164: "+4917600000001" };

describe("matchesAllowList", () => {
  it("matches the platform id exactly", () => {
    expect(matchesAllowList(alice, ["u-alice"])).toBe(true);
    expect(matchesAllowList(alice, ["U-ALICE", "u-alic", "u-bob"])).toBe(false);
  });

  it('lets "*" match everyone, also senders without a phone number', () => {
    expect(matchesAllowList({ id: "anyone" }, ["*"])).toBe(true);
    expect(matchesAllowList({ id: "anyone" }, [" * "])).toBe(true);
  });

  it("matches E.164 numbers ignoring +, spaces and dashes on either side", () => {
    expect(matchesAllowList(alice, ["+4915112345678"])).toBe(true);
    expect(matchesAllowList(alice, ["4915112345678"])).toBe(true);
    expect(matchesAllowList(alice, ["+49 151 1234-5678"])).toBe(true);
    expect(matchesAllowList({ id: "x", e164: "+49 151-12345678" }, ["+4915112345678"])).toBe(true);
    expect(matchesAllowList(alice, ["+4915112345679"])).toBe(false);
    expect(matchesAllowList(alice, ["+49151123456"])).toBe(false);
  });

  it("treats a sender id written as a phone number (+…) as one", () => {
    expect(matchesAllowList({ id: "+4915112345678" }, ["49 151 12345678"])).toBe(true);
  });

  it("does not read a bare numeric id as a phone number (Telegram user ids are numbers)", () => {
    expect(matchesAllowList({ id: "4915112345678" }, ["+4915112345678"])).toBe(false);
    expect(matchesAllowList({ id: "4915112345678" }, ["4915112345678"])).toBe(true);
  });

  it("matches nothing for an empty list", () => {
    expect(matchesAllowList(alice, [])).toBe(false);
  });
});

describe("isOwner and isSelf", () => {
  it("owners are the allowFrom entries when allowFrom is set", () => {
    const settings: ChannelSettings = { allowFrom: ["+1 415 555 0100"] };
    expect(isOwner(bob, settings, bot)).toBe(true);
    expect(isOwner(alice, settings, bot)).toBe(false);
  });

  it('"*" in allowFrom makes everyone an owner', () => {
    expect(isOwner(alice, { allowFrom: ["*"] }, bot)).toBe(true);
    expect(isOwner({ id: "x" }, { allowFrom: ["*"] })).toBe(true);
  });

  it("with allowFrom set, the bot's own number is not an owner unless listed", () => {
    expect(isOwner({ id: "other", e164: bot.e164 }, { allowFrom: ["u-alice"] }, bot)).toBe(false);
  });

  it("with allowFrom unset (or empty) the owner is the bot's own account, by id or by number", () => {
    for (const settings of [{}, { allowFrom: [] }] as ChannelSettings[]) {
      expect(isOwner({ id: "bot-1" }, settings, bot)).toBe(true);
      expect(isOwner({ id: "phone-of-bot", e164: "+49 176 00000001" }, settings, bot)).toBe(true);
      expect(isOwner(alice, settings, bot)).toBe(false);
    }
  });

  it("with allowFrom unset and no bot identity there is no owner", () => {
    expect(isOwner(alice, {})).toBe(false);
    expect(isSelf(alice, undefined)).toBe(false);
  });

  it("isSelf compares id and phone number with the bot", () => {
    expect(isSelf({ id: "bot-1" }, bot)).toBe(true);
    expect(isSelf({ id: "x", e164: "4917600000001" }, bot)).toBe(true);
    expect(isSelf({ id: "x", e164: "+4917600000002" }, bot)).toBe(false);
    expect(isSelf({ id: "x", e164: "+4917600000001" }, { id: "bot-1" })).toBe(false);
  });
});
