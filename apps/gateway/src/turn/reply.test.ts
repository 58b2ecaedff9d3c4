import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { failureNotice, withoutModelAddress } from "./reply.js";

describe("what the chat sees when the agent could not answer", () => {
  it("names the agent and the problem, without the operator's model address", () => {
    const error = new ChorusError(
      "E_PLATFORM",
      'the model answered HTTP 500 (model "gpt-x" at http://10.0.0.5:8000/v1)',
    );
    expect(failureNotice("Chorus", error)).toBe("⚠️ Chorus could not answer: the model answered HTTP 500");
    expect(withoutModelAddress('timeout (model "m" at https://h/v1) again (model "m" at x)')).toBe("timeout again");
  });
});
