import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ResolvedAgent } from "../config/index.js";
import type { TranscriptEntry } from "../sessions/index.js";
import { createFakeOpenAI, type FakeOpenAI, fakeModelConfig } from "../testing/index.js";
import { summariseTranscript } from "./compact.js";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await createFakeOpenAI();
});
afterAll(async () => {
  await fake.close();
});

describe("summariseTranscript", () => {
  it("asks the agent's model for a summary of the chat lines, leaving tool calls out", async () => {
    const agent: ResolvedAgent = {
      id: "main",
      name: "Chorus",
      model: fakeModelConfig(fake),
      mentionPatterns: [],
      isDefault: true,
    };
    const entries: TranscriptEntry[] = [
      { at: "2025-01-01T00:00:00.000Z", role: "user", content: "Where should we go?", name: "Ann" },
      { at: "2025-01-01T00:00:01.000Z", role: "tool", content: "", name: "message" },
      { at: "2025-01-01T00:00:02.000Z", role: "assistant", content: "Lisbon." },
      { at: "2025-01-01T00:00:03.000Z", role: "system", content: "Earlier: the budget is small." },
    ];
    fake.script({ text: "  Ann plans a trip; Lisbon suggested.  " });
    expect(await summariseTranscript(agent, entries)).toBe("Ann plans a trip; Lisbon suggested.");
    const [request] = fake.requests;
    expect(request?.messages).toEqual([
      { role: "system", content: expect.stringMatching(/^Summarise the conversation below/) },
      {
        role: "user",
        content: "Ann: Where should we go?\nChorus: Lisbon.\nsystem: Earlier: the budget is small.",
      },
    ]);
  });
});
