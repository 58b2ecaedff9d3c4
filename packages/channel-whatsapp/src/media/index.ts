/** Media: what WhatsApp takes and gives (capabilities), attachments of inbound messages, downloads (decrypted, checked), and media as outbound content. */
export { attachmentsOf, captionOf, MEDIA_TYPES, type WhatsAppMediaSource } from "./attachments.js";
export {
  WHATSAPP_MAX_DOCUMENT,
  WHATSAPP_MAX_MEDIA,
  WHATSAPP_MAX_STICKER,
  whatsappMediaCapabilities,
} from "./capabilities.js";
export { decryptMedium, ENCRYPTION_OVERHEAD, MEDIA_MAC_BYTES, type MediaChecks, type MediaKeys } from "./decrypt.js";
export { createDownload, type DownloadDeps } from "./download.js";
export { findFfmpeg, transcodeToOpus } from "./ffmpeg.js";
export {
  checkMediaLimits,
  locationContent,
  type MediaOptions,
  type PreparedMedium,
  prepareMedium,
  VOICE_MIME,
} from "./outbound.js";
export { contactCardOf, type SharedContact } from "./vcard.js";
export { headOf, isOggOpus, VOICE_HEAD_BYTES } from "./voice.js";
