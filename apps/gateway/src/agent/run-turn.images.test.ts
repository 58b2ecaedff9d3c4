import { sampleMedium } from "@chorus/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import {
  createFakeAnthropic,
  createFakeGoogle,
  createFakeOllama,
  createFakeOpenAI,
  type FakeImage,
  type FakeOpenAI,
  type FakeProvider,
} from "../testing/index.js";
import { runTurn } from "./run-turn.js";

const png = sampleMedium("image");
const webp = sampleMedium("sticker");
const common = { timeoutMs: 5000, maxRetries: 0, model: "fake-model" } as const;

interface Subject {
  fake: { readonly images: FakeImage[]; close(): Promise<void> };
  model(stream: boolean): ModelConfig;
}

let openai: FakeOpenAI;
let compatible: FakeOpenAI;
let anthropic: FakeProvider;
let google: FakeProvider;
let ollama: FakeProvider;
let subjects: Record<string, Subject>;
beforeAll(async () => {
  [openai, compatible, anthropic, google, ollama] = await Promise.all([
    createFakeOpenAI({ apiKey: "sk-openai" }),
    createFakeOpenAI(),
    createFakeAnthropic({ apiKey: "sk-ant" }),
    createFakeGoogle({ apiKey: "g-key" }),
    createFakeOllama(),
  ]);
  subjects = {
    openai: {
      fake: openai,
      model: (stream) => ({ provider: "openai", baseURL: openai.url, apiKey: "sk-openai", stream, ...common }),
    },
    "openai-compatible": {
      fake: compatible,
      model: (stream) => ({ provider: "openai-compatible", name: "local", baseURL: compatible.url, stream, ...common }),
    },
    anthropic: {
      fake: anthropic,
      model: (stream) => ({ provider: "anthropic", baseURL: anthropic.url, apiKey: "sk-ant", stream, ...common }),
    },
    google: {
      fake: google,
      model: (stream) => ({ provider: "google", baseURL: google.url, apiKey: "g-key", stream, ...common }),
    },
    ollama: { fake: ollama, model: (stream) => ({ provider: "ollama", baseURL: ollama.url, stream, ...common }) },
  };
});
afterAll(async () => {
  await Promise.all([openai, compatible, anthropic, google, ollama].map((fake) => fake.close()));
});

describe.each(["openai", "openai-compatible", "anthropic", "google", "ollama"])(
  "photos reach the %s provider as its API takes images",
  (name) => {
    it.each([false, true])("the bytes arrive, in order, with the text (stream: %s)", async (stream) => {
      const { fake, model } = subjects[name] as Subject;
      const before = fake.images.length;
      const result = await runTurn({
        model: model(stream),
        system: "You are Chorus.",
        history: [{ role: "user", content: "[photo old.png, mediaId med_0]" }],
        user: "what is this?\n[photo image.png, mediaId med_1]\n[sticker sticker.webp, mediaId med_2]",
        images: [
          { mediaId: "med_1", mediaType: png.mime, data: png.bytes },
          { mediaId: "med_2", mediaType: webp.mime, data: webp.bytes },
        ],
        maxSteps: 2,
      });
      expect(result.text).toBe("ok");
      const images = fake.images.slice(before);
      expect(images.map((image) => image.bytes)).toEqual([png.bytes, webp.bytes]);
      // Ollama's API carries no type with an image; the others say the type they were given.
      if (name !== "ollama") expect(images.map((image) => image.mediaType)).toEqual(["image/png", "image/webp"]);
      // Only the current message carries bytes: all of them came with the one model call.
      expect(new Set(images.map((image) => image.request)).size).toBe(1);
    });
  },
);
