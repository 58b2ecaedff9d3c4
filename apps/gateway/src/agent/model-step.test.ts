import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { IncompleteModelReplyError, readModelStream } from "./model-step.js";

function streamOf(parts: LanguageModelV3StreamPart[]): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

const usage = {
  inputTokens: { total: 7, noCache: 7, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 3, text: 3, reasoning: undefined },
};
const signature = { google: { thoughtSignature: "sig-1" } };

describe("readModelStream", () => {
  it("assembles reasoning, text and a tool call in the order they started, with their metadata", async () => {
    const step = await readModelStream(
      streamOf([
        { type: "stream-start", warnings: [] },
        { type: "response-metadata", id: "r1" },
        { type: "reasoning-start", id: "r" },
        { type: "reasoning-delta", id: "r", delta: "Think" },
        { type: "text-start", id: "t" },
        { type: "reasoning-delta", id: "r", delta: "ing." },
        { type: "reasoning-end", id: "r", providerMetadata: { anthropic: { signature: "s" } } },
        { type: "text-delta", id: "t", delta: "Hel" },
        { type: "text-delta", id: "t", delta: "lo" },
        { type: "text-end", id: "t" },
        { type: "tool-input-start", id: "c1", toolName: "message" },
        { type: "tool-input-delta", id: "c1", delta: "{}" },
        { type: "tool-input-end", id: "c1" },
        { type: "tool-call", toolCallId: "c1", toolName: "message", input: "{}", providerMetadata: signature },
        { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
      ]),
    );
    expect(step).toEqual({
      content: [
        { type: "reasoning", text: "Thinking.", providerMetadata: { anthropic: { signature: "s" } } },
        { type: "text", text: "Hello" },
        { type: "tool-call", toolCallId: "c1", toolName: "message", input: "{}", providerMetadata: signature },
      ],
      finishReason: "tool-calls",
      usage,
    });
  });

  it("fails with the error a stream carries", async () => {
    const error = new Error("bad chunk");
    const parts: LanguageModelV3StreamPart[] = [
      { type: "text-delta", id: "t", delta: "Hel" },
      { type: "error", error },
    ];
    await expect(readModelStream(streamOf(parts))).rejects.toBe(error);
  });

  it("fails when the stream ends before the model finished", async () => {
    const parts: LanguageModelV3StreamPart[] = [{ type: "text-delta", id: "t", delta: "Hel" }];
    await expect(readModelStream(streamOf(parts))).rejects.toBeInstanceOf(IncompleteModelReplyError);
  });
});
