import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ChorusError, RateLimitedError } from "@chorus/core";
import { assertNodeErrorFree, DisconnectReason, promiseTimeout } from "@whiskeysockets/baileys";
import { extractGroupMetadata } from "@whiskeysockets/baileys/lib/Socket/groups.js";
import { describe, expect, it } from "vitest";
import { DEFAULT_RETRY_AFTER_MS, failureFacts, neverSent, toWhatsAppError } from "./errors.js";

/** The error Baileys throws for an `<iq>` answer carrying `<error code text>`. */
function iqError(code: number, text: string): unknown {
  try {
    assertNodeErrorFree({
      tag: "iq",
      attrs: { type: "error" },
      content: [{ tag: "error", attrs: { code: String(code), text } }],
    });
  } catch (error) {
    return error;
  }
  throw new Error("Baileys did not throw");
}

/** Baileys' own Boom class (a dependency of Baileys, loaded from where Baileys loads it). */
const { Boom } = createRequire(fileURLToPath(import.meta.resolve("@whiskeysockets/baileys")))("@hapi/boom") as {
  Boom: new (message: string, options: { statusCode: number }) => Error;
};

/** A Boom as Baileys makes them for closed connections, logouts and the like. */
function boom(message: string, statusCode: number): Error {
  return new Boom(message, { statusCode });
}

describe("toWhatsAppError", () => {
  it("reads the code of an <error> node, which Baileys keeps in data while the Boom says 500", () => {
    expect(failureFacts(iqError(404, "item-not-found"))).toEqual({ status: 404, text: "item-not-found" });
    const notFound = toWhatsAppError(iqError(404, "item-not-found"), "group lookup");
    expect(notFound).toMatchObject({ code: "E_MESSAGE_NOT_FOUND", retryable: false });
    expect(notFound.message).toBe("WhatsApp refused group lookup: 404 item-not-found");
  });

  it("maps a group metadata failure (Baileys' own parser) to its code", () => {
    let thrown: unknown;
    try {
      extractGroupMetadata({
        tag: "iq",
        attrs: {},
        content: [{ tag: "error", attrs: { code: "403", text: "forbidden" } }],
      });
    } catch (error) {
      thrown = error;
    }
    expect(toWhatsAppError(thrown, "group lookup")).toMatchObject({ code: "E_AUTH", retryable: false });
  });

  it("429 rate-overlimit is E_RATE_LIMITED with a default wait (WhatsApp sends no Retry-After)", () => {
    const error = toWhatsAppError(iqError(429, "rate-overlimit"), "group lookup");
    expect(error).toBeInstanceOf(RateLimitedError);
    expect((error as RateLimitedError).retryAfterMs).toBe(DEFAULT_RETRY_AFTER_MS);
    expect(error.hint).toMatch(/no Retry-After/);
  });

  it("401 logged out is E_AUTH telling to link again", () => {
    const error = toWhatsAppError(boom("Intentional Logout", DisconnectReason.loggedOut), "send");
    expect(error).toMatchObject({ code: "E_AUTH", retryable: false });
    expect(error.hint).toMatch(/chorus channels login whatsapp/);
  });

  it("timeouts, closed connections and 5xx are retryable E_PLATFORM; a closed connection was never sent", async () => {
    const timedOut = await promiseTimeout(1, () => {}).catch((error: unknown) => error);
    const timeout = toWhatsAppError(timedOut, "send");
    expect(timeout).toMatchObject({ code: "E_PLATFORM", retryable: true, details: { status: 408 } });
    expect(neverSent(timeout)).toBe(false);
    const closed = toWhatsAppError(boom("Connection Closed", DisconnectReason.connectionClosed), "send");
    expect(closed).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(neverSent(closed)).toBe(true);
    expect(toWhatsAppError(iqError(503, "service-unavailable"), "send")).toMatchObject({ retryable: true });
  });

  it("other refusals are not retried; unknown failures are retryable E_PLATFORM; ChorusErrors pass through", () => {
    expect(toWhatsAppError(iqError(400, "bad-request"), "send")).toMatchObject({
      code: "E_INVALID_INPUT",
      retryable: false,
    });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
    const network = toWhatsAppError(refused, "send");
    expect(network).toMatchObject({ code: "E_PLATFORM", retryable: true });
    expect(network.message).toMatch(/unreachable/);
    expect(neverSent(network)).toBe(true);
    const own = new ChorusError("E_AUTH", "not linked");
    expect(toWhatsAppError(own, "send")).toBe(own);
  });
});
