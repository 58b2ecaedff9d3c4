import type { InboundMediumSample } from "@chorus/testkit";
import type { Message, MessageEntity, User } from "grammy/types";
import type { FakeFiles, FakeFileType } from "./fake-files.js";
import { mediumFields } from "./fake-medium.js";

/** A medium a person sends in a test. */
export interface UserMediumInput {
  chatId: number;
  from: User;
  /** What is sent: a medium with its bytes, a place, or a contact card (testkit's sample shape). */
  sample: InboundMediumSample;
  /** Send a video as a GIF-like animation or a round video note instead. */
  as?: "animation" | "video_note";
  /** A place with a name and an address is a venue (`venue` plus `location`). */
  venue?: { title: string; address: string };
  /** Entities of the caption (`caption_entities`): a mention of the bot in it. */
  captionEntities?: MessageEntity[];
  /** Whole seconds of a video, audio or voice note (default 1). */
  duration?: number;
  /** The file is this many bytes: the sample's, then a pattern made as it is served (a large download, not held in memory). */
  generatedSize?: number;
  /** What `file_size` says instead of the real size; the file is then served without a length (a server that lies). */
  declaredSize?: number;
  /** The album this item is part of (`media_group_id`). */
  mediaGroupId?: string;
  replyTo?: number;
  threadId?: number;
}

/** Core's kinds as the file types Telegram makes of them. */
const TYPE: Record<string, FakeFileType> = {
  image: "photo",
  video: "video",
  audio: "audio",
  voice: "voice",
  file: "document",
  sticker: "sticker",
};

/**
 * The message fields of what a person sends, in the Bot API's shapes (see `mediumFields`); the bytes
 * are stored so `getFile` and the file endpoint serve them. A contact's name is split into first and
 * last name at its first space, as Telegram's contact card holds them.
 */
export function userMediumFields(files: FakeFiles, input: UserMediumInput): Partial<Message> {
  const { sample } = input;
  const extra: Partial<Message> = {
    ...(input.mediaGroupId !== undefined ? { media_group_id: input.mediaGroupId } : {}),
    ...(input.captionEntities ? { caption_entities: input.captionEntities } : {}),
  };
  if (sample.kind === "location") {
    if (!sample.location) throw new Error("fake Telegram: a location sample needs its location");
    const location = { latitude: sample.location.latitude, longitude: sample.location.longitude };
    const venue =
      input.venue ??
      (sample.location.name && sample.location.address
        ? { title: sample.location.name, address: sample.location.address }
        : undefined);
    return { location, ...(venue ? { venue: { location, ...venue } } : {}), ...extra } as Partial<Message>;
  }
  if (sample.kind === "contact") {
    const card = sample.contact;
    if (!card) throw new Error("fake Telegram: a contact sample needs its card");
    const [first = card.name, ...rest] = card.name.split(" ");
    return {
      contact: {
        phone_number: card.phones?.[0] ?? "",
        first_name: first,
        ...(rest.length > 0 ? { last_name: rest.join(" ") } : {}),
        ...(card.vcard !== undefined ? { vcard: card.vcard } : {}),
      },
      ...extra,
    };
  }
  if (!sample.bytes) throw new Error(`fake Telegram: a ${sample.kind} sample needs its bytes`);
  const type = sample.kind === "video" && input.as ? input.as : TYPE[sample.kind];
  if (!type) throw new Error(`fake Telegram: no Telegram medium for ${sample.kind}`);
  const mime = sample.mime ?? "application/octet-stream";
  const stored = type === "voice" ? "audio/ogg" : mime;
  const file =
    input.generatedSize !== undefined
      ? files.addGenerated(type, input.generatedSize, sample.bytes, stored, sample.filename)
      : files.add(type, sample.bytes, stored, sample.filename);
  if (input.declaredSize !== undefined) files.declare(file.fileId, input.declaredSize);
  const facts = {
    ...(sample.caption !== undefined ? { caption: sample.caption } : {}),
    ...(input.duration !== undefined ? { duration: input.duration } : {}),
    ...(type === "sticker" ? { emoji: "😀" } : {}),
  };
  return { ...mediumFields(files, type, file, facts), ...extra };
}
