import type { MultipartPart } from "@chorus/channel-kit";
import type { OutboundMedium } from "@chorus/core";
import type { Api } from "grammy";
import type { Message } from "grammy/types";
import type { StepItem, TelegramStep } from "./media-steps.js";
import { callMultipart, MultipartCall } from "./upload.js";

/** Where a step goes: the chat, its forum topic, and the message it answers (the first step only). */
export interface StepTarget {
  chatId: string;
  threadId?: string | undefined;
  replyTo?: number | undefined;
}

/** The Bot API method and file field of each kind sent alone (Bot API, sendPhoto … sendSticker). */
const SINGLE: Record<OutboundMedium["kind"], { method: string; field: string }> = {
  image: { method: "sendPhoto", field: "photo" },
  video: { method: "sendVideo", field: "video" },
  audio: { method: "sendAudio", field: "audio" },
  voice: { method: "sendVoice", field: "voice" },
  file: { method: "sendDocument", field: "document" },
  sticker: { method: "sendSticker", field: "sticker" },
};

/** The `InputMedia` type of each kind an album may hold (Bot API, InputMediaPhoto …). */
const IN_ALBUM: Partial<Record<OutboundMedium["kind"], string>> = {
  image: "photo",
  video: "video",
  audio: "audio",
  file: "document",
};

/**
 * Sends one step; resolves with the messages Telegram made (`sendMediaGroup` answers one per
 * item). Media are uploaded as streamed multipart bodies: a file in the method's own field, an
 * album's files as parts named in its `media` JSON with `attach://<name>`.
 */
export async function sendStep(api: Api, step: TelegramStep, target: StepTarget): Promise<Message[]> {
  const thread = target.threadId !== undefined ? { message_thread_id: Number(target.threadId) } : {};
  // `allow_sending_without_reply` keeps a deleted original from failing the answer.
  const reply =
    target.replyTo !== undefined
      ? { reply_parameters: { message_id: target.replyTo, allow_sending_without_reply: true } }
      : {};
  switch (step.kind) {
    case "text":
      return [await api.sendMessage(target.chatId, step.text, { ...thread, ...reply })];
    case "location": {
      const { latitude, longitude, name, address } = step.location;
      // A place with a name and an address is a venue (it shows both); otherwise a plain pin.
      const sent =
        name && address
          ? await api.sendVenue(target.chatId, latitude, longitude, name, address, { ...thread, ...reply })
          : await api.sendLocation(target.chatId, latitude, longitude, { ...thread, ...reply });
      return [sent];
    }
    case "single": {
      const { method, field } = SINGLE[step.item.medium.kind];
      const fields = { chat_id: target.chatId, ...thread, ...reply, ...captionOf(step.item) };
      const call = new MultipartCall([...textParts(fields), filePart(field, step.item.medium)]);
      return [await callMultipart<Message>(api, method, call)];
    }
    case "album": {
      const media = step.items.map((item, index) => ({
        type: IN_ALBUM[item.medium.kind] ?? "document",
        media: `attach://file${index}`,
        ...captionOf(item),
      }));
      const fields = { chat_id: target.chatId, ...thread, ...reply, media };
      const files = step.items.map((item, index) => filePart(`file${index}`, item.medium));
      return callMultipart<Message[]>(api, "sendMediaGroup", new MultipartCall([...textParts(fields), ...files]));
    }
  }
}

function captionOf(item: StepItem): { caption?: string } {
  return item.caption !== undefined ? { caption: item.caption } : {};
}

/** Form fields as the Bot API reads them: strings as they are, numbers as digits, objects as JSON. */
function textParts(fields: Record<string, unknown>): MultipartPart[] {
  return Object.entries(fields).map(([name, value]) => ({
    name,
    value: typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value),
  }));
}

function filePart(name: string, medium: OutboundMedium): MultipartPart {
  return {
    name,
    filename: medium.filename,
    contentType: medium.mime,
    size: medium.size,
    open: () => medium.open(),
  };
}
