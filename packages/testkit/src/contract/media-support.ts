import { collectBytes } from "@chorus/channel-kit";
import {
  type GeoLocation,
  type MediaCapabilities,
  type MediaPlan,
  type MessageRef,
  mediaOf,
  type OutboundMedium,
  type OutboundMessage,
  type PlannedMessage,
  planMedia,
  type UploadKind,
} from "@chorus/core";
import { sampleMedium } from "../media/samples.js";
import type { ChannelHarness } from "./harness.js";
import type { InboundMediumSample, MediaContractHooks, PlatformMessageMedia } from "./types.js";
import { check } from "./violation.js";

/** The suite's `media.maxBytes`: no gateway limit, so the channel's own limits are the ones tested. */
const NO_GATEWAY_LIMIT = Number.MAX_SAFE_INTEGER;
/** Bytes one generated chunk holds. */
const CHUNK = 64 * 1024;

/** A medium the suite sends: what core plans with, and its bytes opened as a stream. */
export type SuiteMedium = OutboundMedium;

/** The media capabilities the plugin declares. */
export function declared(h: Pick<ChannelHarness, "plugin">): MediaCapabilities {
  return mediaOf(h.plugin.capabilities);
}

/** Kinds of `media.send` that are uploads (all but `location`). */
export function uploadKinds(media: MediaCapabilities): UploadKind[] {
  return media.linkOnly ? [] : media.send.filter((kind): kind is UploadKind => kind !== "location");
}

/** Sample bytes of `kind` as a medium to send. */
export function sampleToSend(kind: UploadKind): SuiteMedium {
  const sample = sampleMedium(kind);
  return {
    kind,
    mime: sample.mime,
    filename: sample.filename,
    size: sample.bytes.byteLength,
    open: () => streamOf(sample.bytes),
  };
}

/**
 * A medium of `size` bytes (the sample of its kind, then filler) generated chunk by chunk as it is
 * read: an over-limit medium is never held whole in memory, whatever the limit.
 */
export function generatedMedium(kind: UploadKind, size: number): SuiteMedium {
  const sample = sampleMedium(kind);
  return {
    kind,
    mime: sample.mime,
    filename: `large-${sample.filename}`,
    size,
    open: () => generated(size, sample.bytes),
  };
}

/** `size` bytes starting with `head`, then a repeating pattern, in chunks. */
export function generatedBytes(size: number, head: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set(head.subarray(0, size));
  for (let i = head.byteLength; i < size; i++) bytes[i] = i % 251;
  return bytes;
}

function generated(size: number, head: Uint8Array): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (offset >= size) return controller.close();
        const chunk = new Uint8Array(Math.min(CHUNK, size - offset));
        if (offset < head.byteLength) chunk.set(head.subarray(offset, offset + chunk.byteLength));
        offset += chunk.byteLength;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
}

/** A stream of a copy of `bytes`: each `open()` gets its own, whatever the plugin does with the chunks. */
function streamOf(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes.slice());
      controller.close();
    },
  });
}

/** One planned message as the plugin was asked to send it, and the ref `send` gave back. */
export interface SentPart {
  readonly planned: PlannedMessage;
  readonly ref: MessageRef;
}

/**
 * Plans a `send` with core's `planMedia` as the gateway does (throws its `ChorusError` when the plan
 * refuses), then calls the plugin's `send` once per planned message, in order.
 */
export async function sendPlanned(
  h: ChannelHarness,
  input: { text?: string; media: readonly SuiteMedium[]; location?: GeoLocation },
): Promise<{ plan: MediaPlan; parts: SentPart[] }> {
  const plan = planWith(h, input);
  const parts: SentPart[] = [];
  for (const planned of plan.messages) {
    const message: OutboundMessage = {
      text: planned.text ?? "",
      ...(planned.media.length > 0
        ? {
            media: planned.media.map((item): OutboundMedium => {
              const { caption: _own, ...medium } = input.media[item.index] as SuiteMedium;
              return { ...medium, kind: item.as, ...(item.caption !== undefined ? { caption: item.caption } : {}) };
            }),
          }
        : {}),
      ...(planned.location ? { location: planned.location } : {}),
    };
    const ref = await h.within("sending a planned message", h.record(h.instance.send(h.fixture.conversation, message)));
    parts.push({ planned, ref });
  }
  return { plan, parts };
}

/** Core's plan for `input` on this channel, without sending anything. */
export function planWith(
  h: ChannelHarness,
  input: { text?: string; media: readonly SuiteMedium[]; location?: GeoLocation },
): MediaPlan {
  return planMedia(
    {
      ...(input.text !== undefined ? { text: input.text } : {}),
      media: input.media.map(({ kind, size, mime, filename }) => ({ kind, size, mime, filename })),
      ...(input.location ? { location: input.location } : {}),
    },
    declared(h),
    { maxBytes: NO_GATEWAY_LIMIT, channel: h.plugin.label },
  );
}

/** Where each media hook is required, for the message when a fixture lacks it. */
const REQUIRED_WHERE: Record<keyof MediaContractHooks, string> = {
  sentMessage: "media.send is not empty",
  botMessageCount: "media.send is not empty",
  userSendsMedium: "media.receive is not empty",
  bytesServed: "media.receive lists a kind with bytes",
};

/** A media hook of the fixture; the case fails naming it when the fixture does not have it. */
function hook<K extends keyof MediaContractHooks>(h: ChannelHarness, name: K): NonNullable<MediaContractHooks[K]> {
  const media = h.fixture.media;
  const found = media?.[name];
  check(
    typeof found === "function",
    `the fixture has no media.${name}: it is required where ${REQUIRED_WHERE[name]} (the plugin declares ${JSON.stringify(declared(h))})`,
  );
  return (found as (...args: unknown[]) => unknown).bind(media) as NonNullable<MediaContractHooks[K]>;
}

/** The bot's message `ref` as the platform holds it, media-wise. */
export async function shownOnPlatform(h: ChannelHarness, ref: MessageRef): Promise<PlatformMessageMedia> {
  return h.within("reading the sent message from the platform", Promise.resolve(hook(h, "sentMessage")(ref)));
}

/** How many messages the bot has in the suite's conversation on the platform. */
export async function botMessages(h: ChannelHarness): Promise<number> {
  return h.within("counting the bot's messages", Promise.resolve(hook(h, "botMessageCount")()));
}

/** Someone sends `sample` to the bot; the platform delivers it. */
export async function userSendsMedium(h: ChannelHarness, sample: InboundMediumSample): Promise<void> {
  await h.within(
    `delivering a ${sample.kind} someone sent`,
    Promise.resolve(hook(h, "userSendsMedium")(sample, h.running.hooksUrl)),
  );
}

/** Bytes the platform has served for media downloads so far. */
export async function bytesServed(h: ChannelHarness): Promise<number> {
  return h.within("reading the bytes the platform served", Promise.resolve(hook(h, "bytesServed")()));
}

/** Reads a downloaded stream whole (the suite's own reading, capped well above what it expects). */
export function readAll(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  return collectBytes(stream, maxBytes, "the downloaded medium");
}

/** Where two byte strings differ, in words; undefined when they are the same. */
export function bytesDiffer(actual: Uint8Array, expected: Uint8Array): string | undefined {
  const shorter = Math.min(actual.byteLength, expected.byteLength);
  for (let i = 0; i < shorter; i++)
    if (actual[i] !== expected[i]) return `${actual.byteLength} bytes differing from byte ${i} on`;
  if (actual.byteLength !== expected.byteLength) return `${actual.byteLength} bytes instead of ${expected.byteLength}`;
  return undefined;
}

/** Whether two MIME types name the same type (parameters and case ignored). */
export function sameMime(a: string, b: string): boolean {
  const base = (mime: string) => mime.split(";")[0]?.trim().toLowerCase();
  return base(a) === base(b);
}

/** A kind in words, as the messages say it (`a voice note`). */
export function aKind(kind: string): string {
  if (kind === "voice") return "a voice note";
  return /^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`;
}
