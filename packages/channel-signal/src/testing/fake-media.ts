import { randomBytes } from "node:crypto";
import { RpcFailure } from "./fake-rpc.js";

/** A file as the daemon keeps it: one received (in its attachments directory) or one the bot sent. */
export interface FakeFile {
  /** signal-cli's attachment id: the CDN key, then the extension (`Ll0_Sz0fjsnRUu_CKbhc.png`). */
  readonly id: string;
  readonly contentType: string;
  readonly filename: string | null;
  readonly bytes: Uint8Array;
  /** Sent with `--voice-note` (Signal's VOICE_MESSAGE flag). */
  readonly voiceNote: boolean;
}

/** A sticker pack the account knows; `fetched`: signal-cli has downloaded its stickers. */
interface FakeStickerPack {
  readonly stickers: Map<number, Uint8Array>;
  fetched: boolean;
}

/** The answer of `getAttachment` / `getSticker`: `JsonAttachmentData`, the file as one base64 string. */
export class DataAnswer {
  constructor(readonly bytes: Uint8Array) {}
}

const JSON_RPC_INTERNAL_ERROR = -32603;
const USER_ERROR = -1;
const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/webp": "webp",
  "video/mp4": "mp4",
  "audio/mpeg": "mp3",
  "audio/ogg": "ogg",
  "audio/aac": "aac",
  "application/pdf": "pdf",
};

/**
 * What the fake daemon does with files, after signal-cli 0.14.6: the attachments directory it
 * serves with `getAttachment` (a received file is stored there before its envelope is written),
 * sticker packs for `getSticker` (fetched by a job after the sticker arrives, or by the first
 * `getSticker` that misses it, which still fails), and `send`'s `data:` URIs read the way its
 * `DataURI` reads them. `bytesServed` counts what downloads wrote to the wire.
 */
export class FakeMediaStore {
  readonly files = new Map<string, FakeFile>();
  readonly #packs = new Map<string, FakeStickerPack>();
  bytesServed = 0;

  /** A received file into the attachments directory; its id as signal-cli names it. */
  store(input: { bytes: Uint8Array; contentType: string; filename?: string | null; voiceNote?: boolean }): FakeFile {
    const id = `${randomBytes(15).toString("base64url")}${extensionOf(input.filename ?? null, input.contentType)}`;
    const file: FakeFile = {
      id,
      contentType: input.contentType,
      filename: input.filename ?? null,
      bytes: input.bytes,
      voiceNote: input.voiceNote === true,
    };
    this.files.set(id, file);
    return file;
  }

  /** A sticker into a new pack; `fetched: false` until the daemon's job (or a missed `getSticker`) fetches it. */
  addSticker(bytes: Uint8Array, fetched = true): { packId: string; stickerId: number } {
    const packId = randomBytes(16).toString("hex");
    this.#packs.set(packId, { stickers: new Map([[0, bytes]]), fetched });
    return { packId, stickerId: 0 };
  }

  /** `getAttachment --id` (`--recipient`/`--group-id` are read by nothing): the file, or signal-cli's not-found error. */
  getAttachment(params: Record<string, unknown>): DataAnswer {
    const id = params.id;
    if (typeof id !== "string") throw new RpcFailure(USER_ERROR, "Missing attachment id parameter");
    // AttachmentStore.sanitizeId: anything but [A-Za-z0-9_.-] becomes "_".
    const file = this.files.get(id.replace(/[^A-Za-z0-9_.-]/g, "_"));
    if (!file) throw new RpcFailure(USER_ERROR, `Could not find attachment with ID: ${id}`);
    return new DataAnswer(file.bytes);
  }

  /** `getSticker --pack-id --sticker-id`: the sticker once its pack is fetched; a miss fetches it and still fails. */
  getSticker(params: Record<string, unknown>): DataAnswer {
    const packId = String(params.packId ?? "");
    const stickerId = Number(params.stickerId);
    const pack = this.#packs.get(packId);
    const bytes = pack?.fetched ? pack.stickers.get(stickerId) : undefined;
    if (pack) pack.fetched = true;
    if (!bytes) throw new RpcFailure(USER_ERROR, `Could not find sticker with ID: ${stickerId} in pack ${packId}`);
    return new DataAnswer(bytes);
  }

  /**
   * `send`'s `attachment`/`attachments`: each a `data:` URI (`data:<type>;filename=<name>;base64,…`,
   * parameters URL-decoded); anything else is a path, which this daemon, on another machine, does
   * not have: signal-cli's error for a file it cannot open.
   */
  readAttachments(params: Record<string, unknown>): Omit<FakeFile, "id">[] {
    const given = params.attachment ?? params.attachments;
    const list = given === undefined || given === null ? [] : Array.isArray(given) ? given : [given];
    const voiceNote = params.voiceNote === true;
    return list.map((value) => {
      const uri = parseDataUri(String(value));
      if (!uri) {
        throw new RpcFailure(
          JSON_RPC_INTERNAL_ERROR,
          `Failed to send message: ${value}: ${value} (No such file or directory) (AttachmentInvalidException) (UnexpectedErrorException)`,
        );
      }
      return { contentType: uri.type, filename: uri.filename, bytes: uri.bytes, voiceNote };
    });
  }
}

/**
 * signal-cli's `DataURI.of`: `data:[<type>/<subtype>][;<key>=<value>][;base64],<data>` (the
 * parameter read greedily, its value URL-decoded, `+` as a space), base64 decoded strictly (Java's
 * basic decoder), text/plain when no type is given. Undefined where it is not one, the pattern or
 * the base64 (`Utils.createStreamDetails` then takes the string for a file path).
 */
function parseDataUri(value: string): { type: string; filename: string | null; bytes: Uint8Array } | undefined {
  const match = /^data:(?<type>[^;,]+?\/[^;,]+?)?(?<parameters>;.+?=.+?)?(?<base64>;base64)?,(?<data>.+)$/is.exec(
    value,
  );
  if (!match?.groups) return undefined;
  const { type, parameters, base64, data } = match.groups as Record<string, string | undefined>;
  const param = parameters ? /^;(?<key>.+)=(?<value>.+)$/s.exec(parameters) : null;
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, " "));
  const filename = param?.groups?.key === "filename" ? decode(param.groups.value as string) : null;
  if (base64 && !/^[A-Za-z0-9+/]*={0,2}$/.test(data as string)) return undefined;
  const bytes = base64 ? Buffer.from(data as string, "base64") : Buffer.from(decode(data as string));
  return { type: type ?? "text/plain", filename, bytes: new Uint8Array(bytes) };
}

/** `AttachmentStore.getAttachmentExtension`: the file name's extension, else one for the type, else none. */
function extensionOf(filename: string | null, contentType: string): string {
  if (filename?.includes(".")) return `.${filename.slice(filename.lastIndexOf(".") + 1)}`;
  const known = EXTENSIONS[contentType];
  return known ? `.${known}` : "";
}

/** The kind Signal's clients show a file as: a voice note by its flag, else by its type. */
export function shownKind(
  file: Pick<FakeFile, "contentType" | "voiceNote">,
): "image" | "video" | "audio" | "voice" | "file" {
  if (file.voiceNote) return "voice";
  const type = file.contentType.toLowerCase();
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  return "file";
}

/** The longest JSON string the daemon's Jackson reads (`StreamReadConstraints` default); tests may lower it. */
export const JACKSON_MAX_STRING = 20_000_000;

/** Whether `value` holds a string longer than `max` characters (Jackson refuses the whole document). */
export function hasLongString(value: unknown, max: number): boolean {
  if (typeof value === "string") return value.length > max;
  if (Array.isArray(value)) return value.some((item) => hasLongString(item, max));
  if (value !== null && typeof value === "object") return Object.values(value).some((v) => hasLongString(v, max));
  return false;
}
