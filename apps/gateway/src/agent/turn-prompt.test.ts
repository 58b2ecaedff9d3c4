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

describe("turnPrompt with the current message's photos", () => {
  it("puts them after its text as file parts in base64 (what every provider, Ollama's too, sends as its API wants)", () => {
    const data = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const prompt = turnPrompt(
      "sys",
      [{ role: "user", content: "[photo a.png, mediaId med_0]" }],
      "look\n[photo b.png, mediaId med_1]",
      [{ mediaId: "med_1", mediaType: "image/png", data }],
    );
    // History keeps the line, not the bytes.
    expect(prompt[1]).toEqual({ role: "user", content: [{ type: "text", text: "[photo a.png, mediaId med_0]" }] });
    expect(prompt[2]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look\n[photo b.png, mediaId med_1]" },
        { type: "file", mediaType: "image/png", data: Buffer.from(data).toString("base64") },
      ],
    });
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
