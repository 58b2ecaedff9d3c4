import type { Attachment, InboundMessageEvent } from "@chorus/core";
import { sampleMedium } from "@chorus/testkit";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parseConfig, resolveAgents } from "../config/index.js";
import { TranscriptStore } from "../sessions/index.js";
import { createFakeTranscription, type FakeTranscription } from "../testing/index.js";
import { MediaUnderstanding, Transcriber } from "../understand/index.js";
import { MemoryMediaStore, testSource } from "../understand/media-doubles.test.util.js";
import type { GateDecision } from "./decide.js";
import { unstartedMemoryEntry, useGate } from "./decide.test.util.js";

const config = parseConfig(
  { agents: { list: [{ id: "main", name: "Chorus", model: { provider: "openai", model: "gpt-4o", apiKey: "sk" } }] } },
  { env: {} },
);
const [agent] = resolveAgents(config);
/** A group that needs a mention, where only Ann may talk to the agent. */
const entry = unstartedMemoryEntry({
  dmPolicy: "open",
  groupPolicy: "allowlist",
  groupAllowFrom: ["ann"],
  groups: { "*": {} },
});
const KEY = "agent:main:memory:group:g1";
const ANN = { id: "ann", name: "Ann" };
const voice = sampleMedium("voice");
const png = sampleMedium("image");

let fake: FakeTranscription;
const under = useGate(config, "chorus-gate-media-");
let media: MediaUnderstanding;
let source: ReturnType<typeof testSource>;
let seq = 0;
beforeAll(async () => {
  fake = await createFakeTranscription({ apiKey: "sk-speech" });
});
afterAll(() => fake.close());
beforeEach(() => {
  source = testSource({
    voice: { bytes: voice.bytes, mime: "audio/ogg" },
    photo: { bytes: png.bytes, mime: "image/png" },
  });
  media = new MediaUnderstanding({
    store: new MemoryMediaStore(),
    state: under.state,
    limits: { maxBytes: 1024 * 1024, maxExtractChars: 20_000 },
    logger: pino({ level: "silent" }),
    transcriber: new Transcriber({
      provider: "openai-compatible",
      baseURL: fake.url,
      apiKey: "sk-speech",
      model: "whisper-1",
      timeoutMs: 5000,
    }),
  });
});

/** `sender` sends `attachments` (and `text`) in group g1, or in a DM; committed to the inbox, then decided. */
async function decide(
  sender: { id: string; name: string },
  attachments: Attachment[],
  text = "",
  kind: "group" | "direct" = "group",
): Promise<GateDecision> {
  seq++;
  const conversation = kind === "group" ? { id: "g1", kind, title: "Family" } : { id: `dm-${sender.id}`, kind };
  const event: InboundMessageEvent = {
    type: "message",
    eventId: `e${seq}`,
    conversation,
    sender,
    text,
    mentions: { bot: false, others: [] },
    ref: { channel: "memory", accountId: "default", conversationId: conversation.id, messageId: `m${seq}` },
    timestamp: 1_700_000_000_000 + seq,
    attachments,
  };
  const [row] = await under.state.inbox.accept(
    [{ channel: "memory", account: "default", eventId: event.eventId, sessionKey: KEY, event, refs: [] }],
    Date.now(),
  );
  const id = row as number;
  const decision = await under.gate.decide({
    entry,
    event,
    agent: agent as NonNullable<typeof agent>,
    sessionKey: KEY,
    inboxId: id,
    bot: undefined,
    store: under.store,
    transcripts: new TranscriptStore(under.state),
    summarise: async () => "",
    media: media.of({ source, row: id, event }),
    mediaOf: (buffered) => media.of({ source, row: buffered.id, event: buffered.event as InboundMessageEvent }),
  });
  const status = decision.kind === "buffered" ? "buffered" : "done";
  await under.state.db.tx(async (sql) => {
    await under.state.inbox.done(sql, id, Date.now(), status);
    if ((decision.kind === "run" || decision.kind === "echo") && decision.settle) await decision.settle(sql);
  });
  return decision;
}

const voiceNote: Attachment = { kind: "voice", durationMs: 4000, source: { id: "voice" } };

describe("a group's voice notes are heard before mention detection", () => {
  it('"Chorus, …" spoken by an allowed sender wakes the agent; its words are the message', async () => {
    fake.script({ text: "Chorus, when is dinner?" });
    const decision = await decide(ANN, [voiceNote]);
    expect(decision).toMatchObject({ kind: "run", mentioned: true });
    const userText = (decision as { userText: string }).userText;
    expect(userText).toMatch(/^Ann: \[voice note 0:04, mediaId med_[\w-]+\] Chorus, when is dinner\?\n\[from: Ann\]$/);
    expect(fake.uploads.at(-1)?.bytes).toEqual(voice.bytes);
  });

  it("an unmentioned voice note is context, with its words, for the next turn", async () => {
    fake.script({ text: "the train is late" });
    expect((await decide(ANN, [voiceNote])).kind).toBe("buffered");
    const uploads = fake.server.requests.length;
    const next = await decide(ANN, [], "Chorus, did you hear?");
    expect(next.kind).toBe("run");
    expect((next as { userText: string }).userText).toMatch(
      /\[Chat messages since your last reply - for context\]\nAnn: \[voice note 0:04, mediaId med_[\w-]+\] the train is late\n/,
    );
    // The buffered voice note was transcribed once, when it came.
    expect(fake.server.requests.length).toBe(uploads);
  });

  it("a blocked sender's voice note is never downloaded nor transcribed", async () => {
    const requests = fake.server.requests.length;
    const decision = await decide({ id: "mallory", name: "Mallory" }, [voiceNote]);
    expect(decision.kind).toBe("blocked");
    expect(source.downloads).toEqual([]);
    expect(fake.server.requests.length).toBe(requests);
  });
});

describe("the current message's photos", () => {
  it("reach a model that sees as image input, with their line in the text", async () => {
    const decision = await decide(
      ANN,
      [{ kind: "image", filename: "cat.png", source: { id: "photo" } }],
      "my cat",
      "direct",
    );
    expect(decision).toMatchObject({ kind: "run" });
    const run = decision as Extract<GateDecision, { kind: "run" }>;
    expect(run.userText).toMatch(/^my cat\n\[photo cat\.png, \d+ bytes, mediaId med_[\w-]+\]$/);
    expect(run.images?.map((image) => image.data)).toEqual([png.bytes]);
  });
});
