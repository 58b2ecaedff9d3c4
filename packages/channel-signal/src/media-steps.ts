import { tooLarge } from "@chorus/channel-kit";
import {
  ChorusError,
  formatBytes,
  locationText,
  type OutboundMedium,
  type OutboundMessage,
  splitText,
} from "@chorus/core";
import { SIGNAL_CLI_MAX_STRING, SIGNAL_MAX_PER_MESSAGE, SIGNAL_MAX_UPLOAD } from "./media.js";
import { dataUriLength } from "./uploads.js";

/** One `send` of an outbound message: its text, and the media that go with it as its caption. */
export interface SignalStep {
  readonly text: string;
  readonly media?: readonly OutboundMedium[];
  /** `voiceNote: true` (signal-cli's `--voice-note`): it marks every audio file of the send. */
  readonly voiceNote?: boolean;
}

/**
 * The sends of one outbound message (planned by core), in order:
 * 1. without media, its text (and a location, as text: Signal has no pin) in parts of `maxText`;
 * 2. with media, its text and the media's captions as one caption; parts of it beyond `maxText`
 *    go first as texts of their own, the last part travels with the first media;
 * 3. media in sends of at most 32; a voice note alone (the flag marks every file of a send).
 */
export function signalSteps(message: OutboundMessage, maxText: number): SignalStep[] {
  const media = message.media ?? [];
  const location = message.location ? locationText(message.location) : "";
  const said = [message.text, ...media.map((m) => m.caption ?? ""), location].filter((t) => t.trim() !== "");
  const parts = splitText(said.join("\n\n"), maxText);
  if (media.length === 0) return parts.map((text) => ({ text }));
  const caption = parts.pop() ?? "";
  const steps: SignalStep[] = parts.map((text) => ({ text }));
  for (const batch of batchesOf(media)) {
    const voiceNote = batch[0]?.kind === "voice";
    steps.push({ text: steps.some((s) => s.media) ? "" : caption, media: batch, ...(voiceNote ? { voiceNote } : {}) });
  }
  return steps;
}

function batchesOf(media: readonly OutboundMedium[]): OutboundMedium[][] {
  const batches: OutboundMedium[][] = [];
  let batch: OutboundMedium[] = [];
  for (const medium of media) {
    if (medium.kind === "voice" || batch.length === SIGNAL_MAX_PER_MESSAGE) {
      if (batch.length > 0) batches.push(batch);
      batch = [];
    }
    if (medium.kind === "voice") batches.push([medium]);
    else batch.push(medium);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/**
 * Refuses, before anything is sent, a medium the daemon could not take: over 14 MB (its `data:`
 * URI would pass the 20,000,000 characters signal-cli's JSON reads in one string, and the whole
 * request would fail), or empty (signal-cli reads an empty `data:` URI as a file path).
 */
export function checkMedia(media: readonly OutboundMedium[]): void {
  for (const medium of media) {
    if (medium.size === 0) {
      throw new ChorusError("E_INVALID_INPUT", `"${medium.filename}" is empty: Signal sends no empty files`);
    }
    if (medium.size > SIGNAL_MAX_UPLOAD || dataUriLength(medium) > SIGNAL_CLI_MAX_STRING) {
      throw tooLarge(`"${medium.filename}"`, SIGNAL_MAX_UPLOAD, medium.size, {
        kind: medium.kind,
        hint: `signal-cli takes a file of up to ${formatBytes(SIGNAL_MAX_UPLOAD)} over its JSON-RPC (one JSON string of at most 20,000,000 characters); send a link to a larger one.`,
      });
    }
  }
}
