import type { IncomingMessage } from "node:http";

/** The outcome of reading a request body under a size limit. */
export type BodyReadResult = { kind: "ok"; raw: Buffer } | { kind: "tooLarge"; bytes: number } | { kind: "aborted" };

/** Reads the whole body; past `limit` bytes it keeps draining (so the client sees the answer) but stores nothing. */
export function readBody(request: IncomingMessage, limit: number): Promise<BodyReadResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let tooLarge = Number(request.headers["content-length"] ?? 0) > limit;
    request.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
    });
    request.on("end", () => {
      resolve(tooLarge ? { kind: "tooLarge", bytes } : { kind: "ok", raw: Buffer.concat(chunks) });
    });
    request.on("error", () => resolve({ kind: "aborted" }));
    request.on("close", () => {
      if (!request.complete) resolve({ kind: "aborted" });
    });
  });
}

/** Parses a body by content type: JSON, form-urlencoded, multipart (files as `{ filename, type, size }`), else raw text. */
export async function parseBody(raw: Buffer, contentType: string | undefined): Promise<unknown> {
  const type = (contentType ?? "").toLowerCase();
  if (type.includes("json")) return jsonOrText(raw.toString("utf8"));
  if (type.startsWith("application/x-www-form-urlencoded"))
    return searchParamsToObject(new URLSearchParams(raw.toString("utf8")));
  if (type.startsWith("multipart/form-data") && contentType)
    return (await parseMultipart(raw, contentType)) ?? raw.toString("utf8");
  return jsonOrText(raw.toString("utf8"));
}

/**
 * Whether a body of this type is bytes (a medium uploaded as itself: `image/png`,
 * `application/octet-stream`, …): its text form is made only when a test reads it, since decoding
 * a 40 MB upload as UTF-8 blocks the fake's event loop for most of a second.
 */
export function isBytesBody(contentType: string | undefined): boolean {
  const type = (contentType ?? "").toLowerCase().split(";")[0]?.trim() ?? "";
  if (type === "" || type.startsWith("text/") || type.startsWith("multipart/")) return false;
  if (type.includes("json") || type.includes("xml") || type.includes("x-www-form-urlencoded")) return false;
  return true;
}

/** `raw` as text and as `parseBody` would read it, each made once, on first use. */
export function lazyBody(raw: Buffer): { text(): string; parsed(): unknown } {
  let text: string | undefined;
  let parsed: { value: unknown } | undefined;
  const textOf = () => {
    text ??= raw.toString("utf8");
    return text;
  };
  return {
    text: textOf,
    parsed: () => {
      parsed ??= { value: jsonOrText(textOf()) };
      return parsed.value;
    },
  };
}

/** Turns search params into an object; a repeated key becomes an array of its values. */
export function searchParamsToObject(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of params) addField(out, key, value);
  return out;
}

function jsonOrText(text: string): unknown {
  if (text.trim() === "") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<Record<string, unknown> | undefined> {
  try {
    const form = await new Response(raw, { headers: { "content-type": contentType } }).formData();
    const out: Record<string, unknown> = {};
    for (const [key, value] of form) {
      addField(
        out,
        key,
        typeof value === "string" ? value : { filename: value.name, type: value.type, size: value.size },
      );
    }
    return out;
  } catch {
    return undefined;
  }
}

function addField<T>(out: Record<string, T | T[]>, key: string, value: T): void {
  const existing = out[key];
  if (existing === undefined) out[key] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else out[key] = [existing, value];
}
