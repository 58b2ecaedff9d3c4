import { collectBytes } from "@chorus/channel-kit";
import {
  type Attachment,
  type ChannelCapabilities,
  type ChannelInstance,
  type ChannelPlugin,
  type InboundMessageEvent,
  mediaOf,
  toChorusError,
} from "@chorus/core";
import type { Logger } from "pino";
import { acceptsImages, type ModelConfig } from "../config/index.js";
import { storedStream } from "../media/index.js";
import type { StateStore } from "../state/index.js";
import { extractText, readableAs } from "./extract.js";
import { hasBytes, intake } from "./intake.js";
import { attachmentLine, type LineBody } from "./lines.js";
import { IntakeRecords } from "./record.js";
import type { Transcriber } from "./transcribe.js";
import type { ItemRecord, MediaAccess, MediaLimits, MessageImage, Understood } from "./types.js";
import { imageLimit, isPicture, unseenBecause } from "./vision.js";

/** Everything reading attachments needs from the gateway. */
export interface MediaUnderstandingOptions {
  store: MediaAccess;
  state: Pick<StateStore, "kv">;
  /** `agents.defaults.transcription`; without it voice notes and audio stay untranscribed. */
  transcriber?: Transcriber | undefined;
  limits: MediaLimits;
  logger: Logger;
  /** Counts the bytes of attachments stored, by channel (`chorus_media_bytes_total`, in). */
  counted?: ((channel: string, bytes: number) => void) | undefined;
}

/** The channel account a message came through, as far as downloading its attachments goes. */
export interface MediaSource {
  plugin: Pick<ChannelPlugin<unknown>, "label" | "id">;
  /** The account's capabilities: its media as its config gives them. */
  capabilities: Pick<ChannelCapabilities, "media">;
  supervisor: { readonly instance: Pick<ChannelInstance, "download"> | undefined };
  /** Takes the account's secrets out of a platform's error before the agent reads it. */
  redactor: { text(text: string): string };
}

/** One message with attachments, where `row` is its inbox row. */
export interface MediaMessage {
  source: MediaSource;
  row: number;
  event: Pick<InboundMessageEvent, "attachments">;
  /** Aborts downloads and transcriptions (shutdown); the message is then decided again. */
  signal?: AbortSignal | undefined;
}

/** The line of an untranscribed voice note when no transcription is configured. */
export const NOT_CONFIGURED = "no agents.defaults.transcription";
/** A voice note counts as such up to this long where a platform does not mark voice notes (DESIGN §2.6). */
const SHORT_AUDIO_MS = 5 * 60_000;
/** Audio of unknown duration counts as short up to this size (five minutes at 128 kbit/s). */
const SHORT_AUDIO_BYTES = 5 * 1024 * 1024;
/** A buffered message's file text in a group's context, at most (as its text is: `pendingOf`). */
const CONTEXT_EXTRACT_CHARS = 4000;

/**
 * What the agent gets of a message's attachments (DESIGN §2.6): each downloaded through its channel
 * into the store and named by its `mediaId`; voice notes and audio as their words; photos as image
 * input for a model that takes images, else as a line; PDFs and text files as their text; locations,
 * contacts and everything else as a line; a download that failed as a line saying why. What intake
 * learned is kept by inbox row (`IntakeRecords`), so nothing is downloaded or transcribed twice.
 */
export class MediaUnderstanding {
  readonly #records: IntakeRecords;

  constructor(private readonly options: MediaUnderstandingOptions) {
    this.#records = new IntakeRecords(options.state);
  }

  /** One message's attachments, read as the decide step asks for them. */
  of(message: MediaMessage): MessageMedia {
    return new MessageMedia(this.options, this.#records, message);
  }
}

/** One message's attachments: what a group's mention detection hears, and what the turn gets. */
export class MessageMedia {
  readonly #attachments: readonly Attachment[];
  /** Downloads that failed for now, by attachment (not kept with the message: reading it again tries again). */
  readonly #unkept = new Map<number, ItemRecord>();
  /** Why a transcription failed for now, by attachment (not kept with the message). */
  readonly #passing = new Map<number, string>();

  constructor(
    private readonly options: MediaUnderstandingOptions,
    private readonly records: IntakeRecords,
    private readonly message: MediaMessage,
  ) {
    this.#attachments = message.event.attachments ?? [];
  }

  /**
   * The words of the message's voice notes — and of short audio where its channel does not mark
   * voice notes — downloaded and transcribed now (a group's mention detection, before it decides:
   * "Chorus, …" spoken wakes the agent). Empty when there are none or none could be transcribed.
   */
  async spoken(): Promise<string> {
    const marksVoice = mediaOf(this.message.source.capabilities).receive.includes("voice");
    const wanted = this.#indexes((a) => a.kind === "voice" || (!marksVoice && a.kind === "audio" && isShort(a)));
    if (wanted.length === 0 || !this.options.transcriber) return "";
    const items = await this.#ensure(wanted);
    return wanted
      .map((i) => items[i]?.transcript?.trim() ?? "")
      .filter((text) => text !== "")
      .join("\n");
  }

  /** The message as the model gets it: a line per attachment, and its photos as image input when `model` takes images. */
  async understood(model: ModelConfig): Promise<Understood> {
    return this.#read(this.options.limits.maxExtractChars, acceptsImages(model) ? model : undefined);
  }

  /** A buffered group message's lines, as context of the turn a later message triggers (no image input). */
  async context(): Promise<string[]> {
    return (await this.#read(Math.min(this.options.limits.maxExtractChars, CONTEXT_EXTRACT_CHARS))).lines;
  }

  async #read(extractChars: number, seeing?: ModelConfig): Promise<Understood> {
    if (this.#attachments.length === 0) return { lines: [], images: [] };
    const items = await this.#ensure(this.#indexes(() => true));
    const lines: string[] = [];
    const images: MessageImage[] = [];
    for (const [index, attachment] of this.#attachments.entries()) {
      const item = items[index];
      const body: LineBody = {};
      if (item?.mediaId !== undefined) {
        if (attachment.kind === "voice" || attachment.kind === "audio") {
          body.transcript = item.transcript;
          body.untranscribed =
            item.untranscribed ?? this.#passing.get(index) ?? (this.options.transcriber ? undefined : NOT_CONFIGURED);
        } else if (attachment.kind === "file") {
          Object.assign(body, await this.#text(attachment, item, extractChars));
        } else if (seeing && isPicture(attachment)) {
          const unseen = unseenBecause(item, seeing.provider);
          if (unseen === undefined) {
            const image = await this.#image(item, imageLimit(seeing.provider));
            if ("unseen" in image) body.unseen = image.unseen;
            else images.push(image);
          } else body.unseen = unseen;
        }
      }
      lines.push(attachmentLine(attachment, item, body));
    }
    return { lines, images };
  }

  /**
   * The message's attachments in the store, each downloaded now if it was not yet (kept with the
   * message, nothing transcribed): what the event stream and `recent_messages` show outside agents.
   */
  stored(): Promise<(ItemRecord | undefined)[]> {
    return this.#ensure(this.#indexes(hasBytes), false);
  }

  /** The records of `indexes`, downloading (and, unless `transcribe` is false, transcribing) what is missing, then kept. */
  async #ensure(indexes: readonly number[], transcribe = true): Promise<(ItemRecord | undefined)[]> {
    const { source, signal, row } = this.message;
    // Read again under the row's update: another reader (the event stream, a later turn) may have stored some meanwhile.
    const items = await this.records.update(row, async (items) => {
      let changed = false;
      for (const index of indexes) {
        const attachment = this.#attachments[index] as Attachment;
        if (!hasBytes(attachment) || items[index] || this.#unkept.has(index)) continue;
        const got = await intake(attachment, {
          plugin: source.plugin,
          capabilities: source.capabilities,
          instance: source.supervisor.instance,
          store: this.options.store,
          maxBytes: this.options.limits.maxBytes,
          redact: (text) => source.redactor.text(text),
          counted: (bytes) => this.options.counted?.(source.plugin.id, bytes),
          signal,
        });
        if (got.item.failed !== undefined)
          this.options.logger.warn(
            { channel: source.plugin.id, kind: attachment.kind, reason: got.item.failed },
            "could not download an attachment",
          );
        if (got.keep) {
          items[index] = got.item;
          changed = true;
        } else this.#unkept.set(index, got.item);
      }
      return changed;
    });
    const heard: number[] = [];
    for (const index of transcribe ? indexes : []) {
      const { kind } = this.#attachments[index] as Attachment;
      const item = items[index];
      if ((kind === "voice" || kind === "audio") && item && (await this.#transcribe(item, index))) heard.push(index);
    }
    if (heard.length > 0)
      await this.records.update(row, async (kept) => {
        for (const index of heard) kept[index] = items[index];
        return true;
      });
    return this.#attachments.map((_, index) => items[index] ?? this.#unkept.get(index));
  }

  /**
   * Transcribes a stored voice note or audio once; true when its record changed. A passing failure
   * (a timeout, the endpoint's 5xx) is not kept: reading the message again tries again.
   */
  async #transcribe(item: ItemRecord, index: number): Promise<boolean> {
    const { transcriber, store } = this.options;
    const { mediaId } = item;
    if (!transcriber || mediaId === undefined || item.transcript !== undefined || item.untranscribed !== undefined)
      return false;
    if (this.#passing.has(index)) return false;
    const { signal } = this.message;
    try {
      const audio = {
        size: item.size ?? 0,
        mime: item.mime ?? "application/octet-stream",
        filename: item.filename ?? "audio",
        open: () => storedStream(store, mediaId),
      };
      item.transcript = await transcriber.transcribe(audio, signal);
      return true;
    } catch (error) {
      if (signal?.aborted) throw signal.reason ?? error;
      const failure = toChorusError(error);
      const reason = `${failure.code}: ${failure.message}`;
      this.options.logger.warn({ code: failure.code, err: failure.message }, "could not transcribe an attachment");
      if (failure.retryable) {
        this.#passing.set(index, reason);
        return false;
      }
      item.untranscribed = reason;
      return true;
    }
  }

  async #text(attachment: Attachment, item: ItemRecord, maxChars: number): Promise<LineBody> {
    const facts = { mime: item.mime ?? attachment.mime, filename: item.filename ?? attachment.filename };
    const platformFacts = { mime: attachment.mime, filename: attachment.filename };
    // Read only what its type or name says may be a PDF or text; the bytes decide then.
    if (item.mediaId === undefined || ![facts, platformFacts].some((f) => readableAs(f, NOTHING) !== undefined))
      return {};
    try {
      const { stream } = await this.options.store.open(item.mediaId);
      const bytes = await collectBytes(stream, this.options.limits.maxBytes, "the file");
      const as = readableAs(facts, bytes) ?? readableAs(platformFacts, bytes);
      return as === undefined ? {} : { text: await extractText(bytes, as, maxChars) };
    } catch (error) {
      const failure = toChorusError(error);
      return { unreadable: failure.message };
    }
  }

  /** A stored picture's bytes as image input, or why it cannot be shown (gone from the store). */
  async #image(item: ItemRecord, limit: number): Promise<MessageImage | { unseen: string }> {
    try {
      const { medium, stream } = await this.options.store.open(item.mediaId as string);
      const data = await collectBytes(stream, limit, "the photo");
      return { mediaId: medium.mediaId, mediaType: (medium.mime.split(";")[0] ?? medium.mime).trim(), data };
    } catch (error) {
      if (this.message.signal?.aborted) throw this.message.signal.reason ?? error;
      return { unseen: `not shown: ${toChorusError(error).message}` };
    }
  }

  #indexes(wanted: (attachment: Attachment) => boolean): number[] {
    return [...this.#attachments.keys()].filter((i) => wanted(this.#attachments[i] as Attachment));
  }
}

/** Audio short enough to count as a voice note where a platform does not mark voice notes. */
function isShort(attachment: Attachment): boolean {
  if (attachment.durationMs !== undefined) return attachment.durationMs <= SHORT_AUDIO_MS;
  return attachment.size === undefined || attachment.size <= SHORT_AUDIO_BYTES;
}

const NOTHING = new Uint8Array();
