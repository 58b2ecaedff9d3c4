import { describe, expect, it } from "vitest";
import { parseConfig } from "./load.js";
import { acceptsImages, type ModelConfig } from "./models.js";

const model = (provider: string, extra: Record<string, unknown> = {}) =>
  ({ provider, model: "m", baseURL: "http://127.0.0.1:1/v1", ...extra }) as unknown as ModelConfig;

describe("model.vision", () => {
  it("is on for openai, anthropic and google, off for openai-compatible and ollama, unless set", () => {
    expect(
      ["openai", "anthropic", "google", "openai-compatible", "ollama"].map((p) => acceptsImages(model(p))),
    ).toEqual([true, true, true, false, false]);
    expect(acceptsImages(model("ollama", { vision: true }))).toBe(true);
    expect(acceptsImages(model("openai", { vision: false }))).toBe(false);
    expect(acceptsImages({ provider: "demo" })).toBe(false);
    expect(acceptsImages({ provider: "external", timeoutMs: 1000 })).toBe(false);
  });

  it("is a key of every model the gateway calls", () => {
    const config = parseConfig(
      { agents: { list: [{ id: "main", model: { provider: "ollama", model: "llava", vision: true } }] } },
      { env: {} },
    );
    expect(acceptsImages(config.agents.list?.[0]?.model as ModelConfig)).toBe(true);
  });
});

describe("agents.defaults.transcription", () => {
  it("takes the model settings' spelling, OpenAI's base URL by default, a timeout", () => {
    const config = parseConfig(
      { agents: { defaults: { transcription: { provider: "openai", model: "whisper-1", apiKey: "sk-x" } } } },
      { env: {} },
    );
    expect(config.agents.defaults.transcription).toEqual({
      provider: "openai",
      baseURL: "https://api.openai.com/v1",
      model: "whisper-1",
      apiKey: "sk-x",
      timeoutMs: 60_000,
    });
  });

  it("needs a base URL for an openai-compatible server, and names a wrong key", () => {
    expect(() =>
      parseConfig(
        { agents: { defaults: { transcription: { provider: "openai-compatible", model: "w" } } } },
        { env: {} },
      ),
    ).toThrow(/agents\.defaults\.transcription\.baseURL/);
    expect(() =>
      parseConfig(
        { agents: { defaults: { transcription: { provider: "openai", model: "w", baseUrl: "http://x" } } } },
        { env: {} },
      ),
    ).toThrow(/baseUrl/);
  });
});
