import { Redactor } from "@chorus/channel-kit";
import { ChorusError } from "@chorus/core";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { leakedForms } from "../testing/index.js";
import { redactErrorAnswers } from "./redact-errors.js";

const SECRET = "sk-canary/http+Key=0123456789";

function app(): Hono {
  const hono = new Hono();
  hono.use("*", redactErrorAnswers(new Redactor([SECRET])));
  hono.get("/fails", (c) => {
    c.header("connection", "close");
    const error = new ChorusError("E_PLATFORM", `upstream refused ${SECRET}`, {
      hint: `key ${encodeURIComponent(SECRET)}`,
    });
    return c.json({ ok: false, error: error.toJSON() }, 502);
  });
  hono.get("/fine", (c) => c.json({ ok: true, echo: SECRET }));
  hono.get("/throws", () => {
    throw new Error(`boom ${SECRET}`);
  });
  hono.notFound((c) =>
    c.json({ ok: false, error: { code: "E_INVALID_INPUT", message: `no route ${c.req.path}` } }, 404),
  );
  hono.onError((error, c) => c.json({ ok: false, error: { code: "E_PLATFORM", message: error.message } }, 500));
  return hono;
}

describe("redactErrorAnswers", () => {
  it("an error answer keeps its status, headers and JSON shape, without any spelling of a secret", async () => {
    const answer = await app().request("/fails");
    expect(answer.status).toBe(502);
    expect(answer.headers.get("connection")).toBe("close");
    const text = await answer.text();
    expect(answer.headers.get("content-length")).toBeNull();
    expect(leakedForms(text, SECRET)).toEqual([]);
    expect(JSON.parse(text)).toEqual({
      ok: false,
      error: { code: "E_PLATFORM", message: "upstream refused [redacted]", hint: "key [redacted]", retryable: true },
    });
  });

  it("covers a path echoed by the not-found answer and an error thrown in a handler", async () => {
    for (const path of [`/v1/x/${encodeURIComponent(SECRET)}`, "/throws"]) {
      const answer = await app().request(path);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(leakedForms(await answer.text(), SECRET)).toEqual([]);
    }
  });

  it("leaves a successful answer alone", async () => {
    const answer = await app().request("/fine");
    expect(await answer.json()).toEqual({ ok: true, echo: SECRET });
  });
});
