import { codeForStatus, type HttpAnswer, PlatformHttpError } from "@chorus/channel-kit";
import { ChorusError, type ErrorCode } from "@chorus/core";
import type { BlueBubblesEnvelope } from "./wire.js";

/** What to do about a refused password. */
export const AUTH_HINT = "Check channels.imessage.password (BlueBubbles app → Settings → Server password).";

const PRIVATE_API_HINT =
  "Enable the Private API in the BlueBubbles server settings (it needs the helper bundle and SIP partly off), and check that its helper is connected.";

/**
 * The data of a 2xx answer: BlueBubbles wraps every answer in `{ status, message, data }`
 * (`responses/success.ts`). A 2xx that is not such an envelope may still have done its work (a
 * message sent), so it is an error that is not retried.
 */
export function readEnvelope(answer: HttpAnswer): unknown {
  const envelope = envelopeOf(answer.json);
  if (answer.text.trim() === "") return undefined;
  if (!envelope) {
    throw new ChorusError("E_PLATFORM", `BlueBubbles server sent an unreadable answer (${answer.operation})`, {
      retryable: false,
      details: { status: answer.status, body: answer.text.slice(0, 200) },
    });
  }
  return envelope.data;
}

/**
 * The error a refused answer means, in the server's own words (`responses/errors.ts`:
 * `{ status, message, error: { type, message } }`): the Private API middleware's refusal (HTTP 500
 * `iMessage Error`) is `E_UNSUPPORTED` with how to enable it, an unknown selected message
 * `E_MESSAGE_NOT_FOUND`; the rest by status. A 429 or an answer without the envelope is left to
 * the kit's mapping.
 */
export function refusal(answer: HttpAnswer): ChorusError | undefined {
  const envelope = envelopeOf(answer.json);
  if (answer.status === 429 || !envelope) return undefined;
  const said = [envelope.message, envelope.error?.message].filter(
    (s): s is string => typeof s === "string" && s !== "",
  );
  const words = [...new Set(said)].join(": ");
  const message = `BlueBubbles server refused to ${answer.operation} (HTTP ${answer.status})${words ? `: ${words}` : ""}`;
  const platformCode = envelope.error?.type;
  if (/maxFileSize exceeded/iu.test(words)) {
    // formidable's refusal of a file over the server's 1 GiB (koa-body, `api/http/index.ts`).
    return new PlatformHttpError("E_TOO_LARGE", message, answer.status, platformCode, { retryable: false });
  }
  if (/private api/iu.test(words)) {
    return new PlatformHttpError("E_UNSUPPORTED", message, answer.status, platformCode, {
      retryable: false,
      hint: PRIVATE_API_HINT,
    });
  }
  const code: ErrorCode = /message does not exist/iu.test(words) ? "E_MESSAGE_NOT_FOUND" : codeForStatus(answer.status);
  return new PlatformHttpError(code, message, answer.status, platformCode, {
    retryable: answer.status >= 500,
    ...(code === "E_AUTH" ? { hint: AUTH_HINT } : {}),
  });
}

function envelopeOf(json: unknown): BlueBubblesEnvelope | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  return typeof (json as { status?: unknown }).status === "number" ? (json as BlueBubblesEnvelope) : undefined;
}
