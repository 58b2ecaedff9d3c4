import { type FakeResponse, type FakeServer, mediumResponse, type RequestContext } from "../fake-server/index.js";
import type { MemoryMediaStore } from "./media-store.js";
import type { MemoryPlatformState } from "./platform-state.js";
import type { MemoryPlatformRules } from "./rules.js";
import type { WireContact, WireError, WireLocation, WireMediaKind, WireMedium, WireMessage } from "./wire.js";

/** A person sends a medium (with its bytes), a location or a contact card. */
export interface UserMediumInput {
  conversationId: string;
  senderId: string;
  kind: WireMediaKind | "location" | "contact";
  /** For media kinds. */
  bytes?: Uint8Array;
  mime?: string;
  filename?: string;
  caption?: string;
  location?: WireLocation;
  contact?: WireContact;
}

/** A message's media as the platform holds them, with the bytes as uploaded. */
export interface MemoryMessageMedia {
  text: string;
  media: { kind: WireMediaKind; bytes: Uint8Array; mime: string; filename: string; caption?: string }[];
  location?: WireLocation;
}

/** The kinds the memory platform shows. */
export const WIRE_MEDIA_KINDS: readonly WireMediaKind[] = ["image", "video", "audio", "voice", "file", "sticker"];

type Ctx = RequestContext<unknown>;
type Fail = (status: number, error: WireError["error"], message: string) => FakeResponse;
type Guard = (handler: (ctx: Ctx) => FakeResponse) => (ctx: Ctx) => FakeResponse | Promise<FakeResponse>;

/** Registers `POST /v1/uploads` (raw bytes in) and `GET /v1/media/:id` (streamed bytes out); see `wire.ts`. */
export function routeMedia(
  server: FakeServer,
  media: MemoryMediaStore,
  rules: MemoryPlatformRules,
  guard: Guard,
  fail: Fail,
): void {
  server.route(
    "POST",
    "/v1/uploads",
    guard((ctx) => {
      if (ctx.rawBody.byteLength > rules.maxUploadBytes)
        return fail(413, "too_large", `uploads are limited to ${rules.maxUploadBytes} bytes`);
      const mime = ctx.headers["content-type"]?.split(";")[0]?.trim() || "application/octet-stream";
      const stored = media.put(new Uint8Array(ctx.rawBody), mime, filenameOf(ctx.headers["x-filename"]));
      const { id, filename } = stored;
      return { status: 201, json: { id, mime, filename, size: stored.bytes.byteLength } };
    }),
  );

  server.route(
    "GET",
    "/v1/media/:id",
    guard((ctx) => {
      const stored = media.get(ctx.params.id ?? "");
      if (!stored) return fail(404, "media_not_found", "no such medium");
      return mediumResponse(stored.bytes, {
        headers: { "content-type": stored.mime },
        served: (bytes) => {
          media.bytesServed += bytes;
        },
      });
    }),
  );
}

function filenameOf(header: string | string[] | undefined): string {
  if (typeof header !== "string" || header === "") return "file";
  try {
    return decodeURIComponent(header);
  } catch {
    return header;
  }
}

/** What a bot's message post carries besides text, read and checked against the platform's rules. */
export function readOutgoingMedia(
  body: { media?: unknown; location?: unknown },
  media: MemoryMediaStore,
  rules: MemoryPlatformRules,
): { media?: WireMedium[]; location?: WireLocation } | { refused: [status: number, WireError["error"], string] } {
  const out: { media?: WireMedium[]; location?: WireLocation } = {};
  if (body.media !== undefined) {
    if (!Array.isArray(body.media)) return { refused: [400, "bad_request", "media must be a list"] };
    if (body.media.length > rules.maxMediaPerMessage)
      return { refused: [400, "too_many_media", `at most ${rules.maxMediaPerMessage} media per message`] };
    const items: WireMedium[] = [];
    for (const item of body.media as { uploadId?: unknown; kind?: unknown; caption?: unknown }[]) {
      const stored = typeof item?.uploadId === "string" ? media.get(item.uploadId) : undefined;
      if (!stored) return { refused: [400, "bad_request", `unknown uploadId ${String(item?.uploadId)}`] };
      if (!WIRE_MEDIA_KINDS.includes(item.kind as WireMediaKind))
        return { refused: [400, "bad_request", `kind must be one of ${WIRE_MEDIA_KINDS.join(", ")}`] };
      items.push({
        id: stored.id,
        kind: item.kind as WireMediaKind,
        mime: stored.mime,
        filename: stored.filename,
        size: stored.bytes.byteLength,
        ...(typeof item.caption === "string" && item.caption !== "" ? { caption: item.caption } : {}),
      });
    }
    if (items.length > 0) out.media = items;
  }
  if (body.location !== undefined) {
    const at = body.location as Partial<WireLocation> | null;
    const valid =
      typeof at?.latitude === "number" &&
      typeof at.longitude === "number" &&
      Math.abs(at.latitude) <= 90 &&
      Math.abs(at.longitude) <= 180;
    if (!valid) return { refused: [400, "bad_request", "location needs a latitude and a longitude"] };
    out.location = {
      latitude: at.latitude as number,
      longitude: at.longitude as number,
      ...(typeof at.name === "string" ? { name: at.name } : {}),
      ...(typeof at.address === "string" ? { address: at.address } : {}),
    };
  }
  return out;
}

/** Stores what someone sends (a medium's bytes, a pin, a card) as their message in the event stream. */
export function postUserMedium(state: MemoryPlatformState, input: UserMediumInput): WireMessage {
  const { kind } = input;
  const attached: Pick<WireMessage, "media" | "location" | "contact"> = {};
  if (kind === "location") {
    if (input.location) attached.location = input.location;
  } else if (kind === "contact") {
    if (input.contact) attached.contact = input.contact;
  } else {
    const bytes = input.bytes ?? new Uint8Array();
    const stored = state.media.put(bytes, input.mime ?? "application/octet-stream", input.filename ?? "file");
    attached.media = [{ id: stored.id, kind, mime: stored.mime, filename: stored.filename, size: bytes.byteLength }];
  }
  return state.postMessage({
    conversationId: input.conversationId,
    senderId: input.senderId,
    text: input.caption ?? "",
    mentions: [],
    ...attached,
  });
}

/** A message's media with their bytes, its pin and its text, as the platform holds them. */
export function mediaOfMessage(state: MemoryPlatformState, messageId: string): MemoryMessageMedia {
  const message = state.messages.get(messageId);
  if (!message) throw new Error(`memory platform: no message ${messageId}`);
  return {
    text: message.text,
    media: (message.media ?? []).map((m) => ({
      kind: m.kind,
      bytes: state.media.get(m.id)?.bytes ?? new Uint8Array(),
      mime: m.mime,
      filename: m.filename,
      ...(m.caption !== undefined ? { caption: m.caption } : {}),
    })),
    ...(message.location ? { location: message.location } : {}),
  };
}
