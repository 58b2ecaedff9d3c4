import { isChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import type { ModelConfig } from "../config/index.js";
import { createLanguageModel } from "./model.js";

const demo = (): ModelConfig => ({ provider: "demo" }) as ModelConfig;

describe("createLanguageModel", () => {
  it("makes one model per config, not one per turn", async () => {
    const config = demo();
    const first = await createLanguageModel(config);
    expect(await createLanguageModel(config)).toBe(first);
    expect(await createLanguageModel(demo())).not.toBe(first);
  });

  it("makes a new one for a caller's own fetch", async () => {
    const config = demo();
    const fetch = globalThis.fetch;
    const first = await createLanguageModel(config, { fetch });
    expect(await createLanguageModel(config, { fetch })).not.toBe(first);
    expect(await createLanguageModel(config)).not.toBe(first);
  });

  it("an outside agent's config has no model: a typed error, every time", async () => {
    const config = { provider: "external" } as ModelConfig;
    for (let i = 0; i < 2; i++) {
      const error = await createLanguageModel(config).catch((caught: unknown) => caught);
      expect(isChorusError(error) && error.code).toBe("E_INVALID_INPUT");
    }
  });
});
