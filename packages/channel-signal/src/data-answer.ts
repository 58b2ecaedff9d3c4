import { ChorusError } from "@chorus/core";

/** Text of the answer kept besides `result.data` (the envelope, an error): plenty for signal-cli's. */
const MAX_ENVELOPE_CHARS = 256 * 1024;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A JSON-RPC answer read as it arrives: the bytes of `result.data` streaming, or the whole answer without it. */
export type DataAnswer = { readonly data: ReadableStream<Uint8Array> } | { readonly answer: unknown };

interface Frame {
  readonly kind: "object" | "array";
  key?: string;
}

/**
 * Reads signal-cli's answer to `getAttachment` / `getSticker` — `{"jsonrpc":"2.0","result":{"data":
 * "<base64>"},"id":…}` (`JsonAttachmentData`), the whole file in one JSON string — without holding
 * it: resolves as soon as the string begins, with a stream of the decoded bytes read from the body
 * only as fast as they are consumed (cancelling it cancels the body). An answer without
 * `result.data` (an error) resolves parsed, once read whole. Anything that is not such JSON fails
 * with `E_PLATFORM`, in the promise or in the stream.
 */
export async function readDataAnswer(body: ReadableStream<Uint8Array>, what: string): Promise<DataAnswer> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const scanner = new EnvelopeScanner(what);
  for (;;) {
    const { done, value } = await reader.read();
    const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
    const at = scanner.feed(text);
    if (at >= 0) return { data: dataStream(reader, decoder, scanner, text.slice(at), what) };
    if (done) {
      try {
        return { answer: JSON.parse(scanner.envelope) };
      } catch {
        throw unreadable(what, "not JSON");
      }
    }
  }
}

/** The decoded bytes of the base64 string whose first characters are `first`, then the rest of the answer checked. */
function dataStream(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  decoder: InstanceType<typeof TextDecoder>,
  scanner: EnvelopeScanner,
  first: string,
  what: string,
): ReadableStream<Uint8Array> {
  let pending = first;
  let carry = "";
  let inString = true;
  let finished = false;
  let padded = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          if (pending === "" && !finished) {
            const { done, value } = await reader.read().catch((error: unknown) => {
              // The connection broke mid-file (the daemon stopped): worth another try.
              throw new ChorusError("E_PLATFORM", `the download of ${what} broke off: ${(error as Error).message}`, {
                retryable: true,
                cause: error,
              });
            });
            finished = done;
            pending = done ? decoder.decode() : decoder.decode(value, { stream: true });
          }
          if (!inString) {
            scanner.feed(pending);
            pending = "";
            if (!finished) continue;
            if (!scanner.complete) return controller.error(unreadable(what, "cut short"));
            return controller.close();
          }
          if (pending === "" && finished) return controller.error(unreadable(what, "cut short"));
          const end = pending.indexOf('"');
          const part = end < 0 ? pending : pending.slice(0, end);
          pending = end < 0 ? "" : pending.slice(end);
          if (end >= 0) {
            inString = false;
            scanner.endData();
            pending = pending.slice(1);
          }
          const text = carry + part;
          // Padding ends the base64: nothing may follow it.
          if (!BASE64.test(text) || (padded && text !== "")) {
            await reader.cancel().catch(() => undefined);
            return controller.error(unreadable(what, "data is not base64"));
          }
          const whole = inString ? text.length - (text.length % 4) : text.length;
          carry = text.slice(whole);
          padded ||= text.slice(0, whole).includes("=");
          if (whole > 0) {
            controller.enqueue(new Uint8Array(Buffer.from(text.slice(0, whole), "base64")));
            return;
          }
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

function unreadable(what: string, why: string): ChorusError {
  return new ChorusError("E_PLATFORM", `signal-cli sent an unreadable answer for ${what} (${why})`, {
    retryable: false,
  });
}

/**
 * Follows the JSON of an answer outside the data string: which object it is in, under which key,
 * so the string at `result.data` is found wherever signal-cli puts it; keeps that text (the data
 * string left empty) to parse once the answer is complete.
 */
class EnvelopeScanner {
  envelope = "";
  readonly #stack: Frame[] = [];
  #expect: "value" | "key" | "colon" | "after" = "value";
  #inString = false;
  #escaped = false;
  #isKey = false;
  #key = "";
  #done = false;

  constructor(private readonly what: string) {}

  /** Whether the top-level value ended. */
  get complete(): boolean {
    return this.#done;
  }

  /** Reads `text`; the index just past the opening quote of `result.data`, or -1. */
  feed(text: string): number {
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      this.#keep(c);
      if (this.#inString) {
        this.#string(c);
        continue;
      }
      if (c === " " || c === "\n" || c === "\r" || c === "\t") continue;
      if (this.#structure(c)) return i + 1;
    }
    return -1;
  }

  /** The data string ended (its closing quote was read past the scanner). */
  endData(): void {
    this.envelope += '"';
    this.#expect = "after";
  }

  #keep(c: string): void {
    if (this.envelope.length >= MAX_ENVELOPE_CHARS) {
      throw new ChorusError("E_PLATFORM", `signal-cli sent an answer too long to read for ${this.what}`);
    }
    this.envelope += c;
  }

  #string(c: string): void {
    if (this.#escaped) {
      this.#escaped = false;
      if (this.#isKey) this.#key += c;
    } else if (c === "\\") this.#escaped = true;
    else if (c === '"') {
      this.#inString = false;
      if (this.#isKey) {
        (this.#stack.at(-1) as Frame).key = this.#key;
        this.#expect = "colon";
      } else this.#expect = "after";
    } else if (this.#isKey) this.#key += c;
  }

  /** One structural character; true when it opens the data string. */
  #structure(c: string): boolean {
    const top = this.#stack.at(-1);
    if (this.#expect === "key") {
      if (c === '"') this.#open(true);
      else if (c === "}") this.#close();
      return false;
    }
    if (this.#expect === "colon") {
      if (c === ":") this.#expect = "value";
      return false;
    }
    if (this.#expect === "after") {
      if (c === ",") this.#expect = top?.kind === "object" ? "key" : "value";
      else if (c === "}" || c === "]") this.#close();
      return false;
    }
    if (c === "{" || c === "[") {
      this.#stack.push({ kind: c === "{" ? "object" : "array" });
      this.#expect = c === "{" ? "key" : "value";
    } else if (c === "]") this.#close();
    else if (c === '"') {
      const [outer, inner] = this.#stack;
      if (this.#stack.length === 2 && outer?.key === "result" && inner?.key === "data" && inner.kind === "object") {
        return true;
      }
      this.#open(false);
    } else if (c === "," || c === "}") {
      // The end of a number or literal.
      this.#expect = "after";
      this.#structure(c);
    }
    return false;
  }

  #open(isKey: boolean): void {
    this.#inString = true;
    this.#isKey = isKey;
    this.#key = "";
  }

  #close(): void {
    this.#stack.pop();
    this.#expect = "after";
    if (this.#stack.length === 0) this.#done = true;
  }
}
