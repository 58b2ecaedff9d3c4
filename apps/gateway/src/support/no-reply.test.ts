import { describe, expect, it } from "vitest";
import { isSilent, NO_REPLY } from "./no-reply.js";

describe("isSilent", () => {
  it("is true for NO_REPLY in any case with whitespace around, and for nothing at all", () => {
    for (const answer of [NO_REPLY, "no_reply", "  No_Reply\n", "", "  \n"]) expect(isSilent(answer)).toBe(true);
  });

  it("is false for anything more", () => {
    for (const answer of ["NO_REPLY.", "NO_REPLY, thanks", "no reply", "ok"]) expect(isSilent(answer)).toBe(false);
  });
});
