import { anySignal, type Redactor, retrying, tooLarge } from "@chorus/channel-kit";
import { ChorusError, type OutboundMedium, toChorusError } from "@chorus/core";
import type { SlackApi } from "./api.js";
import type { SlackConfig } from "./config.js";
import { SLACK_MAX_FILE_BYTES } from "./media.js";

/** The slowest upload an attempt allows for, bytes per second: 100 MB get about 400 s on top of `timeoutMs`. */
const SLOWEST_UPLOAD_BYTES_PER_SECOND = 256 * 1024;

/** One file on its way: the id Slack gave it and where its bytes go. */
export interface UploadTicket {
  readonly fileId: string;
  readonly uploadUrl: string;
  readonly medium: OutboundMedium;
}

/** What the byte upload needs of the account. */
export interface UploadOptions {
  readonly config: Pick<SlackConfig, "timeoutMs" | "retries" | "maxRetryAfterMs">;
  readonly signal: AbortSignal;
  readonly redactor: Redactor;
}

/**
 * Refuses, before any request, a medium over Slack's 1 GB (it would be refused after the upload),
 * and an empty one (`files.getUploadURLExternal`: `missing_argument` "when the length provided is 0").
 */
export function checkFileSize(medium: OutboundMedium): void {
  if (medium.size > SLACK_MAX_FILE_BYTES) throw tooLarge(`"${medium.filename}"`, SLACK_MAX_FILE_BYTES, medium.size);
  if (medium.size <= 0)
    throw new ChorusError("E_INVALID_INPUT", `"${medium.filename}" is empty: Slack takes no empty files.`);
}

/**
 * Step 1 of Slack's upload ("Working with files", Uploading files): `files.getUploadURLExternal`
 * with the file's `filename` and `length` gives a `file_id` and an `upload_url`. Slack refuses here
 * what it will not take (`file_uploads_disabled`, `file_upload_size_restricted`, a missing
 * `files:write` scope), before any byte is sent.
 */
export async function requestUpload(api: SlackApi, medium: OutboundMedium): Promise<UploadTicket> {
  const answer = await api.call("files.getUploadURLExternal", (web) =>
    web.files.getUploadURLExternal({ filename: medium.filename, length: medium.size }),
  );
  if (typeof answer.upload_url !== "string" || typeof answer.file_id !== "string" || !URL.canParse(answer.upload_url))
    throw new ChorusError("E_PLATFORM", "Slack's files.getUploadURLExternal answer has no upload_url or file_id");
  return { fileId: answer.file_id, uploadUrl: answer.upload_url, medium };
}

/**
 * Step 2: "POST the contents of your file to the URL returned in step 1. This can be done by
 * sending the raw bytes … Slack will respond with an HTTP 200" ("Working with files"). The bytes
 * are streamed from the medium with their exact length, never held whole; no token goes along (the
 * URL is the ticket, and is never named in an error). A failed attempt opens the medium again.
 */
export async function uploadBytes(ticket: UploadTicket, options: UploadOptions): Promise<void> {
  const { medium } = ticket;
  const what = `the upload of "${medium.filename}" to Slack`;
  const allowanceMs = Math.ceil(medium.size / SLOWEST_UPLOAD_BYTES_PER_SECOND) * 1000;
  const attempt = async () => {
    const signal = anySignal([options.signal, AbortSignal.timeout(options.config.timeoutMs + allowanceMs)]);
    let response: Response;
    try {
      response = await fetch(ticket.uploadUrl, {
        method: "POST",
        headers: { "content-type": "application/octet-stream", "content-length": String(medium.size) },
        body: medium.open(),
        // Not followed: fetch would keep a copy of the streamed body to resend it (nodejs/undici#4058).
        redirect: "error",
        duplex: "half",
        signal,
      } as RequestInit);
    } catch (error) {
      if (options.signal.aborted) throw new ChorusError("E_DISABLED", "Slack is stopping", { cause: error });
      const timedOut = (error as { name?: string }).name === "TimeoutError";
      const code = (error as { cause?: { code?: unknown } }).cause?.code;
      const reason = timedOut ? "no answer in time" : typeof code === "string" ? code : "network error";
      throw new ChorusError("E_PLATFORM", `${what} failed: ${reason}.`, {
        retryable: true,
        details: { network: true },
      });
    }
    await response.body?.cancel().catch(() => undefined);
    if (response.status === 200) return;
    if (response.status === 413) throw tooLarge(`"${medium.filename}"`, SLACK_MAX_FILE_BYTES, medium.size);
    throw new ChorusError("E_PLATFORM", `${what} was answered HTTP ${response.status}.`, {
      retryable: response.status >= 500 || response.status === 429,
      details: { status: response.status },
    });
  };
  await retrying(attempt, {
    retries: options.config.retries,
    maxRetryAfterMs: options.config.maxRetryAfterMs,
    idempotent: true,
    signal: options.signal,
    fail: (error) => options.redactor.error(toChorusError(error)),
  });
}
