import { randomBytes } from "node:crypto";
import { ChorusError, toChorusError } from "@chorus/core";

/** A field of a multipart form: a text value, or a file streamed from `open()`. */
export type MultipartPart =
  | { readonly name: string; readonly value: string }
  | {
      readonly name: string;
      readonly filename: string;
      readonly contentType: string;
      /** Bytes `open()` yields; the body's Content-Length is computed from it. */
      readonly size: number;
      open(): ReadableStream<Uint8Array>;
    };

/** A `multipart/form-data` body streamed part by part, with its exact length. */
export interface MultipartBody {
  readonly body: ReadableStream<Uint8Array>;
  readonly contentType: string;
  readonly contentLength: number;
  /**
   * Why the body broke off, when a file's own stream did: it failed (`E_PLATFORM` naming the file,
   * or its own ChorusError) or gave more or fewer bytes than its `size` (`E_INVALID_INPUT`). `fetch`
   * only says its body failed; this says it was the medium, not the network (nothing to retry).
   */
  failure(): ChorusError | undefined;
}

const encoder = new TextEncoder();

/**
 * A `multipart/form-data` body (RFC 7578) whose files are read from their streams while it is sent:
 * an upload never sits whole in memory. Names and file names are escaped as browsers do (`"` →
 * `%22`, CR → `%0D`, LF → `%0A`). Send it with `duplex: "half"`, `redirect: "error"` (else undici's
 * `fetch` tees the body to follow redirects and keeps a copy of every byte: nodejs/undici#4058) and
 * the returned headers.
 */
export function multipartBody(parts: readonly MultipartPart[]): MultipartBody {
  const boundary = `----chorus${randomBytes(12).toString("hex")}`;
  const heads = parts.map((part) => encoder.encode(`--${boundary}\r\n${partHeader(part)}\r\n`));
  const tail = encoder.encode(`--${boundary}--\r\n`);
  const crlf = encoder.encode("\r\n");
  const values = parts.map((part) => ("value" in part ? encoder.encode(part.value) : undefined));
  let contentLength = tail.byteLength;
  parts.forEach((part, i) => {
    contentLength += (heads[i] as Uint8Array).byteLength + crlf.byteLength;
    contentLength += "value" in part ? (values[i] as Uint8Array).byteLength : part.size;
  });

  let failure: ChorusError | undefined;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (const [i, part] of parts.entries()) {
      yield heads[i] as Uint8Array;
      if ("value" in part) {
        yield values[i] as Uint8Array;
      } else {
        // Held to its size before a byte too many goes out, and before the closing boundary: the
        // server never gets a complete request with a wrong file.
        let sent = 0;
        try {
          for await (const chunk of part.open()) {
            sent += chunk.byteLength;
            if (sent > part.size) throw sizeMismatch(part, sent);
            yield chunk;
          }
          if (sent !== part.size) throw sizeMismatch(part, sent);
        } catch (error) {
          failure ??= toChorusError(error, `"${part.filename}" could not be read for the upload`);
          throw failure;
        }
      }
      yield crlf;
    }
    yield tail;
  }
  const iterator = chunks();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await iterator.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        await iterator.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, contentLength, failure: () => failure };
}

function sizeMismatch(part: { filename: string; size: number }, seen: number): ChorusError {
  const gave = seen > part.size ? `more than ${part.size} bytes` : `${seen} bytes`;
  return new ChorusError(
    "E_INVALID_INPUT",
    `"${part.filename}" gave ${gave}, ${part.size} were declared: the upload was stopped, nothing was sent.`,
    { retryable: false, details: { declared: part.size, read: seen } },
  );
}

function partHeader(part: MultipartPart): string {
  if ("value" in part) return `Content-Disposition: form-data; name="${escapeName(part.name)}"\r\n`;
  return (
    `Content-Disposition: form-data; name="${escapeName(part.name)}"; filename="${escapeName(part.filename)}"\r\n` +
    `Content-Type: ${part.contentType}\r\n`
  );
}

function escapeName(name: string): string {
  return name.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
