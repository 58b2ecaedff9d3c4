/**
 * Image input as each provider's API carries it, read back by the provider fakes: the bytes a
 * request sent, decoded the way the provider decodes them, and the refusal the provider answers
 * when they are not what it takes.
 *
 * Sources: OpenAI's Chat Completions `image_url` content part (a `data:<type>;base64,` URL);
 * Anthropic's Messages `image` block with a `base64` source, whose refusals read
 * `messages.N.content.M.image.source.base64.media_type: Input should be 'image/jpeg', 'image/png',
 * 'image/gif' or 'image/webp'` and `…image.source.base64: The image was specified using the
 * image/png media type, but the image appears to be a image/jpeg image` (as quoted in
 * anthropics/claude-code issues 8184 and BerriAI/litellm issue 24900); Gemini's `inlineData`
 * part (`mimeType`, base64 `data`); Ollama's `images` field of a chat message, base64 strings its
 * Go server unmarshals into `[]api.ImageData`.
 */

/** One image a fake received. */
export interface FakeImage {
  /** The type the request declared. */
  mediaType: string;
  bytes: Uint8Array;
  /** Which model call it came with (0 for the first). */
  request: number;
}

/** What a request's images are, or why the provider refuses them. */
export type ImagesRead = { images: Omit<FakeImage, "request">[] } | { refusal: { status: number; body: unknown } };

/** The type the bytes say they are (PNG, JPEG, GIF, WebP), as a provider that checks them sniffs it. */
export function sniffImage(bytes: Uint8Array): string | undefined {
  const at = (i: number) => bytes[i];
  if (at(0) === 0x89 && at(1) === 0x50 && at(2) === 0x4e && at(3) === 0x47) return "image/png";
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return "image/jpeg";
  if (at(0) === 0x47 && at(1) === 0x49 && at(2) === 0x46) return "image/gif";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;

/** Strict base64 (what the providers' servers accept); undefined when it is not. */
export function decodeBase64(text: unknown): Uint8Array | undefined {
  if (typeof text !== "string" || text.length % 4 !== 0 || !BASE64.test(text)) return undefined;
  return new Uint8Array(Buffer.from(text, "base64"));
}

type Json = Record<string, unknown>;
const records = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((v): v is Json => typeof v === "object" && v !== null) : [];

/** OpenAI (and OpenAI-compatible servers): `{ type: "image_url", image_url: { url: "data:image/png;base64,…" } }`. */
export function openAIImages(body: unknown): ImagesRead {
  const images: Omit<FakeImage, "request">[] = [];
  for (const message of records((body as Json).messages)) {
    for (const part of records(message.content)) {
      if (part.type !== "image_url") continue;
      const url = String((part.image_url as Json | undefined)?.url ?? "");
      const match = /^data:([^;,]+);base64,(.*)$/su.exec(url);
      const bytes = match ? decodeBase64(match[2]) : undefined;
      if (!match || !bytes || !sniffImage(bytes)) {
        const message =
          "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].";
        return refusal(400, {
          error: { message, type: "invalid_request_error", param: null, code: "invalid_image_format" },
        });
      }
      images.push({ mediaType: match[1] as string, bytes });
    }
  }
  return { images };
}

/** Anthropic: `{ type: "image", source: { type: "base64", media_type, data } }`, its type checked against the bytes. */
export function anthropicImages(body: unknown): ImagesRead {
  const images: Omit<FakeImage, "request">[] = [];
  const taken = ["image/jpeg", "image/png", "image/gif", "image/webp"];
  for (const [m, message] of records((body as Json).messages).entries()) {
    for (const [c, part] of records(message.content).entries()) {
      if (part.type !== "image") continue;
      const source = (part.source ?? {}) as Json;
      const at = `messages.${m}.content.${c}.image.source.base64`;
      const error = (text: string) =>
        refusal(400, { type: "error", error: { type: "invalid_request_error", message: text } });
      const mediaType = String(source.media_type);
      if (!taken.includes(mediaType))
        return error(`${at}.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`);
      const bytes = decodeBase64(source.data);
      if (!bytes) return error(`${at}.data: Invalid base64 data`);
      const actual = sniffImage(bytes);
      if (actual !== mediaType)
        return error(
          `${at}: The image was specified using the ${mediaType} media type, but the image appears to be a ${actual ?? "unknown"} image`,
        );
      images.push({ mediaType, bytes });
    }
  }
  return { images };
}

/** Gemini: `{ inlineData: { mimeType, data } }` parts of `contents`. */
export function googleImages(body: unknown): ImagesRead {
  const images: Omit<FakeImage, "request">[] = [];
  for (const [c, content] of records((body as Json).contents).entries()) {
    for (const [p, part] of records(content.parts).entries()) {
      const inline = part.inlineData as Json | undefined;
      if (!inline) continue;
      const bytes = decodeBase64(inline.data);
      if (!bytes) {
        const message = `Invalid value at 'contents[${c}].parts[${p}].inline_data.data' (TYPE_BYTES), Base64 decoding failed`;
        return refusal(400, { error: { code: 400, message, status: "INVALID_ARGUMENT" } });
      }
      images.push({ mediaType: String(inline.mimeType), bytes });
    }
  }
  return { images };
}

/** Ollama: a chat message's `images`, base64 strings (anything else fails its JSON decoding). */
export function ollamaImages(body: unknown): ImagesRead {
  const images: Omit<FakeImage, "request">[] = [];
  for (const message of records((body as Json).messages)) {
    if (message.images === undefined) continue;
    for (const item of Array.isArray(message.images) ? message.images : [message.images]) {
      const bytes = decodeBase64(item);
      if (!bytes) {
        const what = typeof item === "string" ? "illegal base64 data" : `cannot unmarshal ${jsonKind(item)}`;
        return refusal(400, {
          error: `json: ${what} into Go struct field Message.messages.images of type api.ImageData`,
        });
      }
      images.push({ mediaType: sniffImage(bytes) ?? "application/octet-stream", bytes });
    }
  }
  return { images };
}

function jsonKind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value;
}

function refusal(status: number, body: unknown): ImagesRead {
  return { refusal: { status, body } };
}
