import { capStream, tooLarge } from "@chorus/channel-kit";
import {
  type Attachment,
  type ChannelInstance,
  ChorusError,
  type DownloadedMedium,
  type DownloadOptions,
  isChorusError,
} from "@chorus/core";
import type { SignalFileSource } from "./attachments.js";
import { readDataAnswer } from "./data-answer.js";
import { rpcFailure } from "./errors.js";
import type { StreamedCall, StreamedRpc } from "./streamed-rpc.js";
import type { JsonRpcError } from "./wire.js";

/** JSON of the answer around the base64 (`{"jsonrpc":"2.0","result":{"data":""},"id":…}`), at most. */
const ENVELOPE_CHARS = 64;
/** The slowest the daemon may read and encode a file before answering, bytes per second. */
const SLOWEST_BYTES_PER_SECOND = 1024 * 1024;

/**
 * `download` (DESIGN §3): an attachment's bytes from the daemon, over its HTTP API only (it may run
 * on another machine, so never from its attachments directory): `getAttachment` by the file's `id`,
 * `getSticker` by pack and number. signal-cli answers with the whole file as one base64 string in
 * JSON; that answer is decoded as it arrives, capped at `maxBytes`, and never held whole. A size
 * over `maxBytes` — the one Signal stated, or the one the answer's length implies — fails before
 * anything is read.
 */
export function createDownload(streamed: StreamedRpc): Pick<ChannelInstance, "download"> {
  return {
    async download(attachment, options) {
      const source = sourceOf(attachment);
      const what =
        "sticker" in source ? `Signal sticker ${source.sticker.stickerId}` : `Signal attachment ${source.id}`;
      if (attachment.size !== undefined && attachment.size > options.maxBytes) {
        throw tooLarge(what, options.maxBytes, attachment.size);
      }
      const fetchOnce = () => fetchData(streamed, source, what, attachment, options);
      // signal-cli fetches a sticker pack it lacks while it answers "not found": asking again finds it.
      return fetchOnce().catch((error: unknown) => {
        if ("sticker" in source && isChorusError(error) && error.code === "E_MESSAGE_NOT_FOUND") return fetchOnce();
        throw error;
      });
    },
  };
}

async function fetchData(
  streamed: StreamedRpc,
  source: SignalFileSource,
  what: string,
  attachment: Attachment,
  options: DownloadOptions,
): Promise<DownloadedMedium> {
  const [method, params] =
    "sticker" in source
      ? ["getSticker", { packId: source.sticker.packId, stickerId: source.sticker.stickerId }]
      : [
          "getAttachment",
          {
            id: source.id,
            ...(source.groupId ? { groupId: source.groupId } : {}),
            ...(source.recipient ? { recipient: source.recipient } : {}),
          },
        ];
  const config = streamed.rpc.config;
  const call: StreamedCall = {
    operation: `download ${what}`,
    body: JSON.stringify(streamed.rpc.request(method, params)),
    idempotent: true,
    timeoutMs: config.timeoutMs + Math.ceil((attachment.size ?? 0) / SLOWEST_BYTES_PER_SECOND) * 1000,
    signal: options.signal,
  };
  return streamed.post(call, async (response) => {
    const length = Number(response.headers.get("content-length") ?? Number.NaN);
    // The base64 of n bytes is 4⌈n/3⌉ characters: an answer this long carries at least this much.
    const least = Math.floor(Math.max(0, length - ENVELOPE_CHARS) / 4) * 3 - 2;
    if (Number.isFinite(length) && least > options.maxBytes) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge(what, options.maxBytes);
    }
    if (!response.body) throw new ChorusError("E_PLATFORM", `signal-cli sent no answer for ${what}`);
    const read = await readDataAnswer(response.body, what);
    if ("answer" in read) throw failureOf(read.answer, "sticker" in source, what, config.account);
    return {
      stream: capStream(read.data, options.maxBytes, what),
      ...(attachment.mime ? { mime: attachment.mime } : {}),
      ...(attachment.size !== undefined ? { size: attachment.size } : {}),
    };
  });
}

/** Why an answer without data is one: signal-cli's error, with what "not found" means here. */
function failureOf(answer: unknown, sticker: boolean, what: string, account: string): ChorusError {
  const error = (answer as { error?: JsonRpcError } | null)?.error;
  if (!error) return new ChorusError("E_PLATFORM", `signal-cli answered without the data of ${what}`);
  if (error.code === -1 && /could not find/i.test(error.message)) {
    return new ChorusError("E_MESSAGE_NOT_FOUND", `signal-cli does not have ${what}`, {
      hint: sticker
        ? "signal-cli downloads a sticker pack when a sticker arrives, unless it runs with --ignore-stickers."
        : "signal-cli keeps the attachments it downloaded: not with --ignore-attachments, and not once they are deleted from its attachments directory.",
    });
  }
  return rpcFailure(error, account, true);
}

function sourceOf(attachment: Attachment): SignalFileSource {
  const source = attachment.source as Record<string, unknown> | null | undefined;
  const sticker = source?.sticker as { packId?: unknown; stickerId?: unknown } | undefined;
  if (typeof sticker?.packId === "string" && Number.isSafeInteger(sticker.stickerId)) {
    return { sticker: { packId: sticker.packId, stickerId: sticker.stickerId as number } };
  }
  if (typeof source?.id === "string" && source.id !== "") {
    return {
      id: source.id,
      ...(typeof source.groupId === "string" ? { groupId: source.groupId } : {}),
      ...(typeof source.recipient === "string" ? { recipient: source.recipient } : {}),
    };
  }
  throw new ChorusError("E_INVALID_INPUT", `This ${attachment.kind} attachment has no Signal file to download`, {
    details: { kind: attachment.kind },
  });
}
