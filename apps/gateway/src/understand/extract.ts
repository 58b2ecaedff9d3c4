import { ChorusError } from "@chorus/core";

/** What a file's bytes are, as far as reading its text goes. */
export type Readable = "pdf" | "text" | undefined;

/** Types of files that are text. */
const TEXT_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/x-ndjson",
  "application/csv",
]);
/** File names of text files (a platform or the store may call them `application/octet-stream`). */
const TEXT_NAMES = /\.(txt|text|md|markdown|csv|tsv|json|jsonl|ndjson|log|ya?ml|toml|ini|xml|html?|rst|org|tex)$/iu;

/** Whether a file is read as a PDF, as text, or not at all: by its bytes, then its type and name. */
export function readableAs(
  facts: { mime?: string | undefined; filename?: string | undefined },
  head: Uint8Array,
): Readable {
  if (startsWith(head, "%PDF-")) return "pdf";
  const mime = (facts.mime ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (mime === "application/pdf") return "pdf";
  const textual = mime.startsWith("text/") || TEXT_TYPES.has(mime) || TEXT_NAMES.test(facts.filename ?? "");
  return textual && looksLikeText(head) ? "text" : undefined;
}

/**
 * The text of a PDF or a text file, at most `maxChars` characters (then a note saying how much was
 * left out). PDFs are read with unpdf (Mozilla's PDF.js, no native code), loaded on the first PDF:
 * the gateway's start does not pay for it. Rejects with `E_INVALID_INPUT` when the file cannot be
 * read (damaged, password-protected).
 */
export async function extractText(
  bytes: Uint8Array,
  as: Exclude<Readable, undefined>,
  maxChars: number,
): Promise<string> {
  const text = as === "pdf" ? await pdfText(bytes) : new TextDecoder("utf-8").decode(bytes);
  const clean = text
    .replace(/\r\n?/gu, "\n")
    .replace(/[ \t]+\n/gu, "\n")
    .replace(/\n{3,}/gu, "\n\n")
    .trim();
  if (clean.length <= maxChars) return clean;
  return `${clean.slice(0, maxChars)}\n…[truncated: ${clean.length - maxChars} more characters]`;
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const { extractText: pdfPages, getDocumentProxy } = await import("unpdf");
  try {
    // A copy: PDF.js may take over (detach) the buffer it is given.
    const document = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false });
    try {
      const { text } = await pdfPages(document, { mergePages: false });
      return text.join("\n\n");
    } finally {
      await document.destroy().catch(() => undefined);
    }
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    const reason = name === "PasswordException" ? "the PDF is password-protected" : "the PDF is damaged or not a PDF";
    throw new ChorusError("E_INVALID_INPUT", reason);
  }
}

function startsWith(bytes: Uint8Array, text: string): boolean {
  if (bytes.length < text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[i] !== text.charCodeAt(i)) return false;
  return true;
}

/** No NUL byte and valid UTF-8 (a cut-off last character allowed): text, not a binary file misnamed. */
function looksLikeText(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}
