import { type OutboundMessage, splitText } from "@chorus/core";
import type { AnyMessageContent } from "@whiskeysockets/baileys";
import { locationContent, type MediaOptions, prepareMedium, type UploadKind } from "../media/outbound.js";

/**
 * Longest text of one message. WhatsApp takes about 65,000 characters, but a wall of text that
 * long is unreadable on a phone; 4000 is what other gateways split at too.
 */
export const WHATSAPP_MAX_TEXT = 4000;

/** One WhatsApp message of an outbound message. */
export interface SendStep {
  /** Baileys' content with these mentions; called for each attempt (a medium's bytes are opened again). */
  content(mentions: readonly string[]): AnyMessageContent;
  /** The text people read in it (a text part, a caption), where `@<number>` mentions are looked for. */
  readonly shown: string;
  /** What the bot's message log keeps of it. */
  readonly note: string;
  /** A medium's kind as planned and as it goes out. */
  readonly medium?: { readonly asked: UploadKind; readonly sentAs: UploadKind };
}

/**
 * The WhatsApp messages of one outbound message, in order: its text in 4000-character parts;
 * each medium a message of its own, its caption on it where WhatsApp shows one (a caption audio or
 * a sticker cannot carry goes right before it, as text); then the location as a pin. A message
 * with neither media nor a location is its text, as it is.
 */
export async function stepsOf(message: OutboundMessage, options: MediaOptions): Promise<SendStep[]> {
  const media = message.media ?? [];
  const steps: SendStep[] = [];
  const texts = (text: string) => {
    for (const part of splitText(text, WHATSAPP_MAX_TEXT)) steps.push(textStep(part));
  };
  if (message.text.trim() !== "" || (media.length === 0 && !message.location)) texts(message.text);
  for (const medium of media) {
    const prepared = await prepareMedium(medium, options);
    if (prepared.captionApart !== undefined) texts(prepared.captionApart);
    const carried = prepared.captionApart === undefined ? (medium.caption ?? "") : "";
    steps.push({
      content: (mentions) => withMentions(prepared.content(), mentions),
      shown: carried,
      note: prepared.note,
      medium: { asked: prepared.asked, sentAs: prepared.sentAs },
    });
  }
  const location = message.location;
  if (location) steps.push({ content: () => locationContent(location), shown: "", note: "[location]" });
  return steps;
}

function textStep(text: string): SendStep {
  return {
    content: (mentions) => ({ text, linkPreview: null, ...(mentions.length > 0 ? { mentions: [...mentions] } : {}) }),
    shown: text,
    note: text,
  };
}

function withMentions(content: AnyMessageContent, mentions: readonly string[]): AnyMessageContent {
  return mentions.length > 0 ? ({ ...content, mentions: [...mentions] } as AnyMessageContent) : content;
}
