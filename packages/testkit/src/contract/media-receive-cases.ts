import { randomUUID } from "node:crypto";
import {
  type Attachment,
  type AttachmentKind,
  formatBytes,
  type InboundEvent,
  type InboundMessageEvent,
  isChorusError,
  type MediaCapabilities,
  type UploadKind,
} from "@chorus/core";
import { waitFor } from "../fake-server/index.js";
import { sampleMedium } from "../media/samples.js";
import type { ContractCase } from "./cases.js";
import type { ChannelHarness } from "./harness.js";
import {
  aKind,
  bytesDiffer,
  bytesServed,
  declared,
  generatedBytes,
  readAll,
  sameMime,
  userSendsMedium,
} from "./media-support.js";
import type { InboundMediumSample } from "./types.js";
import { check } from "./violation.js";

const LOCATION = { latitude: 48.85837, longitude: 2.294481, name: "Eiffel Tower" };
const CONTACT = { name: "Ada Lovelace", phones: ["+44 20 7946 0958"] };
/**
 * The medium the download-cap case sends. Loopback sockets take a few MB (Linux: up to 4 MB of send
 * buffer) before a client can even cancel, so the medium is large enough that reading it whole
 * shows plainly in what the platform served.
 */
const LARGE_BYTES = 16 * 1024 * 1024;
/** The cap that download is given. */
const SMALL_CAP = 64 * 1024;

const always = () => true;
const digits = (phone: string) => phone.replace(/\D/g, "");

/** What someone sends to test the receiving of `kind`. */
function inboundSample(kind: AttachmentKind): InboundMediumSample {
  if (kind === "location") return { kind, location: LOCATION };
  if (kind === "contact") return { kind, contact: CONTACT };
  const { bytes, mime, filename } = sampleMedium(kind);
  return { kind, bytes, mime, filename };
}

const isMessage = (event: InboundEvent): event is InboundMessageEvent => event.type === "message";

/**
 * Someone sends `sample`; resolves with the one message event it became once a text sent after it
 * arrived too, so a second event for the same medium would have shown by then.
 */
async function received(h: ChannelHarness, sample: InboundMediumSample, promise: string): Promise<Attachment> {
  const events = h.running.events;
  const before = events.length;
  const since = () => events.slice(before).filter(isMessage);
  const withMedia = () => since().filter((e) => (e.attachments?.length ?? 0) > 0);
  await userSendsMedium(h, sample);
  try {
    await waitFor(() => withMedia().length > 0, { timeoutMs: h.stepTimeoutMs });
  } catch {
    const texts = since().map((e) => JSON.stringify(e.text));
    check(
      false,
      `${promise}: the plugin emitted no message event with an attachment${texts.length > 0 ? ` (only messages without attachments: ${texts.join(", ")})` : ""}`,
    );
  }
  const marker = `contract after the ${sample.kind} ${randomUUID().slice(0, 8)}`;
  await h.within(`delivering "${marker}"`, Promise.resolve(h.fixture.userSends(marker, h.running.hooksUrl)));
  try {
    await waitFor(() => since().some((e) => e.text.includes(marker)), { timeoutMs: h.stepTimeoutMs });
  } catch {
    check(false, `a message someone wrote ("${marker}") was never emitted as an inbound event`);
  }
  const emitted = withMedia();
  const attachments = emitted.flatMap((e) => e.attachments ?? []);
  const shown = attachments.map((a) => a.kind).join(", ");
  check(
    emitted.length === 1 && attachments.length === 1,
    `${promise}: one message event with one attachment, the plugin emitted ${emitted.length} events with [${shown}]`,
  );
  return attachments[0] as Attachment;
}

/** Downloads `attachment` under `maxBytes` and reads it whole. */
async function download(h: ChannelHarness, attachment: Attachment, maxBytes: number) {
  const instance = h.instance;
  check(instance.download !== undefined, "the instance has no download");
  const medium = await h.within("starting a download", h.record(instance.download(attachment, { maxBytes })));
  const bytes = await h.within("reading a download", h.record(readAll(medium.stream, maxBytes)));
  return { medium, bytes };
}

function receiveCase(kind: AttachmentKind): ContractCase<ChannelHarness> {
  const withBytes = kind !== "location" && kind !== "contact";
  return {
    name: withBytes
      ? `media: ${aKind(kind)} someone sends arrives as one ${kind} attachment, and download gives its bytes`
      : `media: ${aKind(kind)} someone shares arrives as one ${kind} attachment carrying its data`,
    applies: always,
    async run(h) {
      const sample = inboundSample(kind);
      const promise = `media.receive lists ${kind}: ${aKind(kind)} someone sent should arrive as`;
      const attachment = await received(h, sample, promise);
      check(
        attachment.kind === kind,
        `${promise} one ${kind} attachment, the plugin emitted ${aKind(attachment.kind)} attachment`,
      );
      if (kind === "location") return checkLocation(attachment, promise);
      if (kind === "contact") return checkContact(attachment, promise);
      const bytes = sample.bytes as Uint8Array;
      check(
        attachment.mime === undefined || sameMime(attachment.mime, sample.mime as string),
        `${promise} ${sample.mime}, the attachment says ${attachment.mime}`,
      );
      check(
        attachment.size === undefined || attachment.size === bytes.byteLength,
        `${promise} ${bytes.byteLength} bytes, the attachment says ${attachment.size}`,
      );
      const got = await download(h, attachment, declared(h).maxReceiveBytes);
      const differs = bytesDiffer(got.bytes, bytes);
      check(
        differs === undefined,
        `download of ${aKind(kind)} should give its ${bytes.byteLength} bytes, it gave ${differs}`,
      );
    },
  };
}

function checkLocation(attachment: Attachment, promise: string): void {
  const at = attachment.location;
  check(
    at !== undefined &&
      Math.abs(at.latitude - LOCATION.latitude) < 1e-6 &&
      Math.abs(at.longitude - LOCATION.longitude) < 1e-6,
    `${promise} a pin at ${LOCATION.latitude}, ${LOCATION.longitude}, the attachment carries ${at ? `${at.latitude}, ${at.longitude}` : "no location"}`,
  );
}

function checkContact(attachment: Attachment, promise: string): void {
  const card = attachment.contact;
  check(
    card?.name === CONTACT.name,
    `${promise} the card of ${CONTACT.name}, the attachment carries ${card ? JSON.stringify(card.name) : "no contact"}`,
  );
  const phones = (card?.phones ?? []).map(digits);
  for (const phone of CONTACT.phones)
    check(
      phones.includes(digits(phone)),
      `${promise} a card with ${phone}, it carries [${card?.phones?.join(", ") ?? ""}]`,
    );
}

/** A download past its cap stops there: an error, and far fewer bytes served than the medium has. */
function capCase(kind: UploadKind): ContractCase<ChannelHarness> {
  return {
    name: `media: a download past its cap fails with E_TOO_LARGE and stops, without buffering the medium`,
    applies: always,
    async run(h) {
      const served = await bytesServed(h);
      const sample = sampleMedium(kind);
      const large = {
        kind,
        bytes: generatedBytes(LARGE_BYTES, sample.bytes),
        mime: sample.mime,
        filename: `large-${sample.filename}`,
      };
      const attachment = await received(
        h,
        large,
        `media.receive lists ${kind}: ${aKind(kind)} of ${formatBytes(LARGE_BYTES)} should arrive as`,
      );
      let outcome: unknown;
      try {
        const got = await download(h, attachment, SMALL_CAP);
        outcome = `${got.bytes.byteLength} bytes`;
      } catch (error) {
        outcome = error;
      }
      check(
        isChorusError(outcome) && outcome.code === "E_TOO_LARGE",
        `download with maxBytes ${formatBytes(SMALL_CAP)} of a ${formatBytes(LARGE_BYTES)} medium should fail with E_TOO_LARGE, it gave ${isChorusError(outcome) ? `${outcome.code}: ${outcome.message}` : String(outcome)}`,
      );
      const grew = (await bytesServed(h)) - served;
      check(
        grew <= LARGE_BYTES / 2,
        `a download capped at ${formatBytes(SMALL_CAP)} must stop reading there: the platform served ${formatBytes(grew)} of the ${formatBytes(LARGE_BYTES)} medium (it was read whole, then capped)`,
      );
    },
  };
}

/** The receiving cases for the kinds a channel declares in `media.receive`. */
export function receiveCasesFor(media: MediaCapabilities): ContractCase<ChannelHarness>[] {
  const withBytes = media.receive.filter((k): k is UploadKind => k !== "location" && k !== "contact");
  const capKind = withBytes.includes("file") ? "file" : withBytes[0];
  return [...media.receive.map(receiveCase), ...(capKind ? [capCase(capKind)] : [])];
}
