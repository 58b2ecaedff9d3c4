import type { RequestContext } from "@chorus/testkit";

/** The parameters of one Bot API call (JSON body, form fields or query string); files under their part names. */
export type Params = Record<string, unknown>;

/** A file part of a multipart call, as it arrived. */
export class UploadedFile {
  constructor(
    readonly bytes: Uint8Array,
    readonly filename: string,
    readonly type: string,
  ) {}
}

/** Fields the Bot API reads as JSON when they come as form fields ("JSON-serialized"). */
const JSON_FIELDS = new Set(["reply_parameters", "media", "reply_markup", "caption_entities", "allowed_updates"]);

/** Whether a call is a multipart upload. */
export function isMultipart(ctx: RequestContext<undefined>): boolean {
  return /^multipart\/form-data/i.test(String(ctx.headers["content-type"] ?? ""));
}

/**
 * A call's parameters the way the Bot API accepts them (Bot API, "Making requests"): a JSON body,
 * `application/x-www-form-urlencoded` or `multipart/form-data` fields (JSON-serialized objects as
 * strings, parsed here), or the query string. Files of a multipart body keep their exact bytes.
 */
export async function paramsOf(ctx: RequestContext<undefined>): Promise<Params> {
  const type = String(ctx.headers["content-type"] ?? "");
  if (ctx.rawBody.length === 0) return Object.fromEntries(ctx.query);
  if (/^multipart\/form-data/i.test(type)) {
    const params: Params = {};
    for (const part of formParts(ctx.rawBody, type)) {
      params[part.name] =
        part.filename !== undefined
          ? new UploadedFile(new Uint8Array(part.data), part.filename, part.type ?? "")
          : fieldValue(part.name, part.data.toString("utf8"));
    }
    return params;
  }
  if (/^application\/x-www-form-urlencoded/i.test(type)) {
    const params: Params = {};
    for (const [name, value] of new URLSearchParams(ctx.rawBody.toString("utf8")))
      params[name] = fieldValue(name, value);
    return params;
  }
  return ctx.json<Params>() ?? {};
}

function fieldValue(name: string, value: string): unknown {
  if (!JSON_FIELDS.has(name)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/** A `multipart/form-data` body the Bot API server cannot read: its answer, as `Bad Request: …`. */
export class FormDataError extends Error {}

interface FormPart {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer;
}

/**
 * The parts of a multipart body, read the way the Bot API server reads them (tdlib `HttpReader`):
 * header names in any case, `Content-Disposition: form-data;` with `name` and `filename` as quoted
 * strings (backslash escapes) or tokens, both then URL-decoded (`%22` is `"`); a part with a
 * `filename` is a file, whatever its content. grammY's own uploads (lower-case headers, unquoted
 * names) are read as well as a browser's.
 */
function formParts(raw: Buffer, contentType: string): FormPart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const value = boundary?.[1] ?? boundary?.[2];
  if (!value) throw new FormDataError("Bad Request: boundary not found");
  const delimiter = Buffer.from(`--${value}`);
  const parts: FormPart[] = [];
  let at = raw.indexOf(delimiter);
  if (at < 0) return parts;
  for (;;) {
    at += delimiter.length;
    if (raw.subarray(at, at + 2).toString() === "--") return parts;
    at += 2; // CRLF after the boundary
    const headersEnd = raw.indexOf("\r\n\r\n", at);
    if (headersEnd < 0) throw new FormDataError("Bad Request: can't parse form data headers");
    const part = partHeaders(raw.subarray(at, headersEnd).toString("utf8"));
    const next = raw.indexOf(Buffer.concat([Buffer.from("\r\n"), delimiter]), headersEnd + 4);
    if (next < 0) throw new FormDataError("Bad Request: can't parse form data");
    parts.push({ ...part, data: raw.subarray(headersEnd + 4, next) });
    at = next + 2;
  }
}

function partHeaders(text: string): Omit<FormPart, "data"> {
  let name = "";
  let filename: string | undefined;
  let type: string | undefined;
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === "content-type") type = value;
    if (header !== "content-disposition") continue;
    if (!value.startsWith("form-data;")) throw new FormDataError("Bad Request: expected form-data content disposition");
    for (const [key, raw] of dispositionParams(value.slice("form-data;".length))) {
      if (key === "name") name = decodeURIComponentLoosely(raw);
      if (key === "filename") filename = decodeURIComponentLoosely(raw);
    }
  }
  if (name === "") throw new FormDataError("Bad Request: field name in multipart/form-data not found");
  return { name, ...(filename !== undefined ? { filename } : {}), ...(type !== undefined ? { type } : {}) };
}

/** `key=value` pairs of a Content-Disposition, values quoted (with `\\` escapes) or tokens up to `;`. */
function dispositionParams(rest: string): [string, string][] {
  const params: [string, string][] = [];
  let text = rest;
  for (;;) {
    text = text.trimStart();
    const eq = text.indexOf("=");
    if (eq < 0) return params;
    const key = text.slice(0, eq).trim();
    text = text.slice(eq + 1).trimStart();
    let value = "";
    if (text.startsWith('"')) {
      let i = 1;
      for (; i < text.length && text[i] !== '"'; i++) value += text[i] === "\\" ? (text[++i] ?? "") : text[i];
      if (i >= text.length)
        throw new FormDataError("Bad Request: unclosed quoted string in Content-Disposition header");
      text = text.slice(i + 1).trimStart();
      if (text.startsWith(";")) text = text.slice(1);
    } else {
      const semi = text.indexOf(";");
      value = (semi < 0 ? text : text.slice(0, semi)).trim();
      text = semi < 0 ? "" : text.slice(semi + 1);
    }
    params.push([key, value]);
  }
}

/** `%XX` decoded where it is an escape; a `%` that starts none stays (the server's `url_decode`). */
function decodeURIComponentLoosely(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
