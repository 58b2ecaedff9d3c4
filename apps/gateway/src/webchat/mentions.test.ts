import { describe, expect, it } from "vitest";
import { findMentions } from "./mentions.js";
import { directRoomId, directRoomOwner, normalizeRoomId, roomKind } from "./rooms.js";

const people = [
  { id: "bot", name: "Chorus", bot: true as const },
  { id: "u_ann", name: "Ann" },
  { id: "u_annlee", name: "Ann Lee" },
  { id: "u_bob", name: "bob" },
];

describe("findMentions", () => {
  it("finds @Name case-insensitively, in order of first mention, each once", () => {
    expect(findMentions("hey @BOB and @chorus, also @Bob", people)).toEqual(["u_bob", "bot"]);
  });

  it("prefers the longest name at a position", () => {
    expect(findMentions("@ann lee look", people)).toEqual(["u_annlee"]);
    expect(findMentions("@Ann, look", people)).toEqual(["u_ann"]);
  });

  it("ignores names continued by letters, e-mail addresses and unknown names", () => {
    expect(findMentions("@Bobby mail bob@chorus.dev @nobody", people)).toEqual([]);
  });

  it("accepts a name at the very end and before punctuation", () => {
    expect(findMentions("thanks @Chorus", people)).toEqual(["bot"]);
    expect(findMentions("(@bob)", people)).toEqual(["u_bob"]);
  });
});

describe("room naming", () => {
  it("makes dm:<userId> direct and every other room a group", () => {
    expect(roomKind(directRoomId("u_abcdef12"))).toBe("direct");
    expect(directRoomOwner("dm:u_abcdef12")).toBe("u_abcdef12");
    expect(roomKind("lobby")).toBe("group");
    expect(directRoomOwner("lobby")).toBeUndefined();
  });

  it("normalises typed room names", () => {
    expect(normalizeRoomId("  #Team Chat ")).toBe("team-chat");
    expect(normalizeRoomId("dm:u_abcdef12")).toBe("dm:u_abcdef12");
  });

  it("rejects names it cannot use, saying what is allowed", () => {
    expect(() => normalizeRoomId("a/b")).toThrow(/room name "a\/b" is not valid/);
    expect(() => normalizeRoomId("dm:someone")).toThrow(/not a valid direct room/);
    expect(() => normalizeRoomId("x".repeat(41))).toThrow(expect.objectContaining({ code: "E_INVALID_INPUT" }));
  });
});
