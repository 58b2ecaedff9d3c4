import { PlatformHttpError } from "@chorus/channel-kit";
import { type ChorusError, RateLimitedError } from "@chorus/core";
import type { JsonRpcError, SignalAddress, SignalSendResult } from "./wire.js";

/** signal-cli's own JSON-RPC error codes (`SignalJsonRpcCommandHandler`), next to the standard ones. */
export const RPC = {
  USER_ERROR: -1,
  IO_ERROR: -3,
  UNTRUSTED_KEY_ERROR: -4,
  RATELIMIT_ERROR: -5,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
} as const;

/** When signal-cli says "rate limited" without saying how long: Signal's usual wait. */
const DEFAULT_RATE_LIMIT_MS = 60_000;
export const LOGIN_HINT = "Link the number first: chorus channels login signal (or check channels.signal.account).";

const who = (address: SignalAddress | undefined) => address?.number ?? address?.uuid ?? address?.username ?? "?";

/** The error one failed recipient means (`JsonSendMessageResult.type`), or undefined for SUCCESS. */
export function recipientFailure(result: SignalSendResult, account: string): ChorusError | undefined {
  const to = who(result.recipientAddress);
  const error = (code: ConstructorParameters<typeof PlatformHttpError>[0], message: string, extra = {}) =>
    new PlatformHttpError(code, `Signal: ${message}`, 200, result.type, extra);
  switch (result.type) {
    case "SUCCESS":
      return undefined;
    case "RATE_LIMIT_FAILURE": {
      const seconds = result.retryAfterSeconds;
      const ms = seconds === undefined ? DEFAULT_RATE_LIMIT_MS : seconds * 1000;
      return new RateLimitedError(`Signal rate limit while sending to ${to}`, ms, {
        hint: `Wait ${Math.ceil(ms / 1000)} s before sending again.`,
        details: { platformCode: result.type },
      });
    }
    case "NETWORK_FAILURE":
      return error("E_PLATFORM", `network failure while sending to ${to}`, { retryable: true });
    case "UNREGISTERED_FAILURE":
      return error("E_INVALID_INPUT", `${to} is not on Signal (unregistered)`, {
        hint: `Check the number: ${to} has no Signal account, or deleted it.`,
      });
    case "IDENTITY_FAILURE":
      return error("E_PLATFORM", `the safety number of ${to} changed; nothing was sent`, {
        hint: `Verify the new safety number, then trust it: signal-cli -a ${account} trust -a ${to}`,
      });
    default:
      return error("E_PLATFORM", `could not send to ${to} (${result.type})`, { retryable: true });
  }
}

/**
 * The Chorus error of a JSON-RPC error answer (HTTP 200 with `error`). When every recipient
 * failed, signal-cli names each one's fate in `data.response.results`: the most telling wins.
 */
export function rpcFailure(error: JsonRpcError, account: string, idempotent: boolean): ChorusError {
  const code = String(error.code);
  const results = error.data?.response?.results ?? [];
  for (const type of ["RATE_LIMIT_FAILURE", "IDENTITY_FAILURE", "UNREGISTERED_FAILURE", "NETWORK_FAILURE"]) {
    const failed = results.find((r) => r.type === type);
    const mapped = failed && recipientFailure(failed, account);
    if (mapped) return mapped;
  }
  // signal-cli puts what it could not read in its message: a `data:` URI would be megabytes.
  const said = `signal-cli: ${error.message.length > 300 ? `${error.message.slice(0, 300)}…` : error.message}`;
  const refused = (kind: ConstructorParameters<typeof PlatformHttpError>[0], options = {}) =>
    new PlatformHttpError(kind, said, 200, code, options);
  switch (error.code) {
    case RPC.RATELIMIT_ERROR:
      return new RateLimitedError(said, DEFAULT_RATE_LIMIT_MS, { details: { platformCode: code } });
    case RPC.UNTRUSTED_KEY_ERROR:
      return refused("E_PLATFORM", { hint: `A safety number changed: check it, then signal-cli -a ${account} trust` });
    case RPC.INVALID_PARAMS:
      if (/account does not exist|requires (valid )?account/i.test(error.message)) {
        return refused("E_AUTH", { hint: LOGIN_HINT });
      }
      return refused("E_INVALID_INPUT");
    case RPC.INVALID_REQUEST:
      return refused("E_INVALID_INPUT");
    case RPC.METHOD_NOT_FOUND:
      return refused("E_UNSUPPORTED");
    case RPC.USER_ERROR:
      if (/not registered/i.test(error.message)) {
        return refused("E_INVALID_INPUT", { hint: "That number is not on Signal." });
      }
      if (/group/i.test(error.message) && /not found|not a member|invalid|unknown/i.test(error.message)) {
        return refused("E_MESSAGE_NOT_FOUND", {
          hint: "The bot is not a member of that group (or it does not exist).",
        });
      }
      return refused("E_INVALID_INPUT");
    case RPC.IO_ERROR:
      return refused("E_PLATFORM", { retryable: true });
    default:
      // An unexpected failure may have done its work (a message sent): repeat only what is harmless.
      return refused("E_PLATFORM", { retryable: idempotent });
  }
}
