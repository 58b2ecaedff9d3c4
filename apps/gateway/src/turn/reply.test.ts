import { describe, expect, it } from "vitest";
import { failureNotice, withoutModelAddress } from "./reply.js";

describe("what the chat sees when the agent could not answer", () => {
  it("a short, fixed notice that names the agent and nothing of the failure", () => {
    expect(failureNotice("Chorus")).toBe("⚠️ Chorus could not answer right now. Please try again in a moment.");
  });

  it("the owner's /status line drops the operator's model address", () => {
    expect(withoutModelAddress('timeout (model "m" at https://h/v1) again (model "m" at x)')).toBe("timeout again");
  });
});
