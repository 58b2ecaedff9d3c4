import { fileURLToPath } from "node:url";
import { eventually, sampleMedium } from "@chorus/testkit";
import { expect } from "vitest";
import {
  createFakeOpenAI,
  createFakeTranscription,
  type FakeOpenAI,
  type FakeTranscription,
  fakeModelConfig,
} from "../../src/testing/index.js";

/*
 * What the channels' media tests through the real `chorus start` share (DESIGN §2.6): the fake model
 * and transcription endpoint the agent reaches, the `agents` config pointing at them, and waiting for
 * the bot's messages on a channel's fake.
 */

/** How long a media test waits for the bot: a download, a model turn, a send. */
export const PATIENCE = { timeoutMs: 15_000 };
/** For fakes doing real crypto, and sends of several uploads, on a shared 2-core machine. */
export const LONG_PATIENCE = { timeoutMs: 20_000 };

/** The testkit's sample media: a photo and a voice note people send, a PDF the agent sends back with the photo. */
export const SAMPLES = { png: sampleMedium("image"), voice: sampleMedium("voice"), pdf: sampleMedium("file") };

const MODEL_KEY = "sk-test";
const SPEECH_KEY = "sk-speech";

/** The folder of the plugin package `packages/<name>`, as `plugins.load` lists it. */
export function pluginDir(name: string): string {
  return fileURLToPath(new URL(`../../../../packages/${name}`, import.meta.url));
}

/** The fake OpenAI-compatible model and the fake transcription endpoint, running. */
export interface ModelAndSpeech {
  readonly model: FakeOpenAI;
  readonly speech: FakeTranscription;
  close(): Promise<void>;
}

/** Starts the fake model (key `sk-test`) and the fake transcription endpoint (key `sk-speech`). */
export async function startModelAndSpeech(): Promise<ModelAndSpeech> {
  const model = await createFakeOpenAI({ apiKey: MODEL_KEY });
  const speech = await createFakeTranscription({ apiKey: SPEECH_KEY });
  return {
    model,
    speech,
    async close() {
      await model.close();
      await speech.close();
    },
  };
}

/**
 * The gateway's `agents` config: voice transcribed by `speech`, and one agent, "main", on `model`
 * with images as input; `mentionPatterns` wake it in groups.
 */
export function mediaAgents(options: {
  model: Pick<FakeOpenAI, "url">;
  speech: Pick<FakeTranscription, "url">;
  mentionPatterns?: string[];
}) {
  const { model, speech, mentionPatterns } = options;
  return {
    defaults: {
      transcription: { provider: "openai-compatible", baseURL: speech.url, apiKey: SPEECH_KEY, model: "whisper-1" },
    },
    list: [
      {
        id: "main",
        name: "Chorus",
        model: fakeModelConfig(model, { apiKey: MODEL_KEY, vision: true }),
        ...(mentionPatterns ? { groupChat: { mentionPatterns } } : {}),
      },
    ],
  };
}

/** A file the agent sends: its bytes, or its bytes and the kind to send them as (`as`, e.g. "voice"). */
export type ScriptedFile = Uint8Array | { bytes: Uint8Array; as: string };

/**
 * Scripts the model's next turn: a message tool call sending `text` with `files` (filename → bytes,
 * in order), then the closing words `closing`.
 */
export function scriptMediaSend(
  model: FakeOpenAI,
  send: { text?: string; files: Record<string, ScriptedFile>; closing: string },
): void {
  const media = Object.entries(send.files).map(([filename, file]) => {
    const { bytes, as } = file instanceof Uint8Array ? { bytes: file, as: undefined } : file;
    return { data: Buffer.from(bytes).toString("base64"), filename, ...(as ? { as } : {}) };
  });
  const text = send.text === undefined ? {} : { text: send.text };
  model.script(
    { toolCalls: [{ name: "message", arguments: { action: "send", ...text, media } }] },
    { text: send.closing },
  );
}

/** Which of the bot's messages to wait for, and how a timeout shows what the bot did send. */
export interface BotMessageWanted<M> {
  /** The bot's messages so far, as the channel's fake holds them. */
  sent(): readonly M[];
  pick(message: M): boolean;
  /** The message waited for, in words. */
  what: string;
  /** A message as the timeout lists it. */
  show(message: M): unknown;
  patience?: { timeoutMs: number };
}

/** Waits for the bot's message that `wanted.pick` finds, and returns it. */
export function waitForBotMessage<M>(wanted: BotMessageWanted<M>): Promise<M> {
  return eventually(() => {
    const sent = wanted.sent();
    const found = sent.find((message) => wanted.pick(message));
    expect(found, `${wanted.what}; the bot sent ${JSON.stringify(sent.map(wanted.show))}`).toBeDefined();
    return found as M;
  }, wanted.patience ?? PATIENCE);
}
