import { describe, expect, it } from "vitest";
import { stepMessages, turnPrompt } from "./turn-prompt.js";

describe("turnPrompt", () => {
  it("is the system prompt, the history and what the user said now; an empty answer carries no text", () => {
    expect(
      turnPrompt(
        "sys",
        [
          { role: "user", content: "one" },
          { role: "assistant", content: "" },
        ],
        "two",
      ),
    ).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: [{ type: "text", text: "one" }] },
      { role: "assistant", content: [] },
      { role: "user", content: [{ type: "text", text: "two" }] },
    ]);
  });
});

describe("stepMessages", () => {
  it("gives the model its answer back with the metadata its provider needs, then each call's result", () => {
    const signature = { google: { thoughtSignature: "sig-1" } };
    const messages = stepMessages(
      [
        { type: "reasoning", text: "Thinking.", providerMetadata: { anthropic: { signature: "s" } } },
        { type: "text", text: "" },
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "message",
          input: '{"action":"react"}',
          providerMetadata: signature,
        },
        { type: "tool-call", toolCallId: "c2", toolName: "browse", input: "not json" },
      ],
      [
        { id: "c1", name: "message", input: { action: "react" }, output: { ok: true } },
        { id: "c2", name: "browse", input: "not json", output: "refused" },
      ],
    );
    expect(messages).toEqual([
      {
        role: "assistant",
        content: [
          { type: "reasoning", text: "Thinking.", providerOptions: { anthropic: { signature: "s" } } },
          {
            type: "tool-call",
            toolCallId: "c1",
            toolName: "message",
            input: { action: "react" },
            providerOptions: signature,
          },
          { type: "tool-call", toolCallId: "c2", toolName: "browse", input: "not json" },
        ],
      },
      {
        role: "tool",
        content: [
          { type: "tool-result", toolCallId: "c1", toolName: "message", output: { type: "json", value: { ok: true } } },
          { type: "tool-result", toolCallId: "c2", toolName: "browse", output: { type: "text", value: "refused" } },
        ],
      },
    ]);
  });
});
