import { ChorusError } from "@chorus/core";
import { describe, expect, it } from "vitest";
import { fakeModelConfig } from "../testing/index.js";
import { AgentError, describeModel, toAgentError } from "./errors.js";

const model = fakeModelConfig({ url: "http://127.0.0.1:1234/v1" }, { model: "gpt-x" });

describe("describeModel", () => {
  it("names the model and the base URL", () => {
    expect(describeModel(model)).toBe('model "gpt-x" at http://127.0.0.1:1234/v1');
    expect(describeModel({ provider: "demo" })).toBe("the demo model");
  });

  it("never shows credentials or a query string", () => {
    const secret = { ...model, baseURL: "https://user:hunter2@llm.example/v1/?key=sk-1" };
    expect(describeModel(secret)).toBe('model "gpt-x" at https://llm.example/v1');
  });
});

describe("toAgentError", () => {
  it("keeps an AgentError as it is", () => {
    const error = new AgentError("E_AUTH", "no");
    expect(toAgentError(error, model)).toBe(error);
  });

  it("wraps an unknown failure in one line, keeping the cause (a copy, with secrets taken out)", () => {
    const cause = new Error("socket exploded\n    at somewhere (file.js:1:1)");
    const error = toAgentError(cause, model);
    expect(error).toBeInstanceOf(ChorusError);
    expect(error.name).toBe("AgentError");
    expect(error.code).toBe("E_PLATFORM");
    expect(error.message).toBe('The model call failed (model "gpt-x" at http://127.0.0.1:1234/v1): socket exploded');
    expect(error.cause).toMatchObject({ name: "Error", message: cause.message });
  });

  it("reports a cancelled turn when the caller aborted, whatever was thrown", () => {
    const error = toAgentError(new Error("fetch failed"), model, { cancelled: true });
    expect(error.message).toBe('The turn was cancelled before model "gpt-x" at http://127.0.0.1:1234/v1 answered');
    expect(error.retryable).toBe(false);
  });

  it("reports a timeout with the configured limit", () => {
    const timeout = new DOMException("The operation was aborted due to timeout", "TimeoutError");
    const error = toAgentError(timeout, { ...model, timeoutMs: 1500 });
    expect(error.message).toBe(
      'The model server did not answer within 1500ms (model "gpt-x" at http://127.0.0.1:1234/v1)',
    );
  });

  it("takes the model's API key out of its message, details and cause", () => {
    const key = "sk-live-0123456789abcdef";
    const cause = Object.assign(new Error(`bad key ${key}`), { responseBody: `{"key":"${key}"}` });
    const error = toAgentError(cause, { ...model, apiKey: key });
    expect(error).toBeInstanceOf(AgentError);
    expect(error.message).toBe('The model call failed (model "gpt-x" at http://127.0.0.1:1234/v1): bad key [redacted]');
    expect(JSON.stringify({ ...(error.cause as object), message: (error.cause as Error).message })).not.toContain(key);
  });

  it("shortens a very long message", () => {
    const error = toAgentError(new Error("x".repeat(1000)), model);
    expect(error.message.length).toBeLessThan(400);
  });
});
