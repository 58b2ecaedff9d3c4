import type { MediaCapabilities } from "@chorus/core";

const KB = 1024;
const MB = 1024 * KB;

/**
 * The largest document: "you can send documents up to 2 GB" (WhatsApp Help Center, "How to send
 * documents"); the media host takes the upload as one request.
 */
export const WHATSAPP_MAX_DOCUMENT = 2048 * MB;
/**
 * The largest photo, video or voice message: "The maximum file size allowed for all media (photo,
 * video or voice messages) sent or forwarded through WhatsApp is 16 MB" (WhatsApp Help Center,
 * "How to send media"); WhatsApp Web refuses larger uploads as media (wwebjs/whatsapp-web.js
 * issue "Evaluation failed: a", uploads over 17 MB). Larger ones go as documents (core's rule 4).
 */
export const WHATSAPP_MAX_MEDIA = 16 * MB;
/**
 * The largest sticker: "Each sticker must be less than 100 KB … animated stickers must be less
 * than 500 KB" (WhatsApp/stickers README, "Sticker art and app requirements"): the animated limit,
 * so both kinds go; a larger WebP goes as an image.
 */
export const WHATSAPP_MAX_STICKER = 500 * KB;

/**
 * What WhatsApp does with media, as data (DESIGN §2.6). Every kind goes out natively, each
 * medium a message of its own (WhatsApp has no album message a linked device can send; phones
 * group consecutive photos themselves): photos, videos and documents with a caption, audio
 * without one (`AudioMessage` has no caption field, WAProto), a voice note as PTT in Ogg/Opus, a
 * sticker as WebP, a location as a pin. Inbound: all of them, live locations as a snapshot, and
 * contact cards. A linked device downloads whatever it was sent, documents up to 2 GB.
 */
export const whatsappMediaCapabilities: MediaCapabilities = {
  send: ["image", "video", "audio", "voice", "file", "sticker", "location"],
  receive: ["image", "video", "audio", "voice", "file", "sticker", "location", "contact"],
  maxSendBytes: WHATSAPP_MAX_DOCUMENT,
  maxSendBytesByKind: {
    image: WHATSAPP_MAX_MEDIA,
    video: WHATSAPP_MAX_MEDIA,
    audio: WHATSAPP_MAX_MEDIA,
    voice: WHATSAPP_MAX_MEDIA,
    sticker: WHATSAPP_MAX_STICKER,
  },
  maxReceiveBytes: WHATSAPP_MAX_DOCUMENT,
  caption: true,
  uncaptioned: ["audio"],
  perMessage: 1,
};
