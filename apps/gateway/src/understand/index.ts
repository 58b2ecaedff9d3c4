// What the agent gets of a message's attachments (DESIGN §2.6): intake into the media store through the channel's `download`, transcription of voice notes and audio, photos as image input, the text of PDFs and text files, and a line per attachment naming its `mediaId`.
export { understandingFor } from "./assemble.js";
export { extractText, type Readable, readableAs } from "./extract.js";
export { hasBytes, type IntakeContext, intake } from "./intake.js";
export { attachmentLine, formatDuration, type LineBody, type ReadLine, readAttachmentLines } from "./lines.js";
export { INTAKE_SCOPE, IntakeRecords } from "./record.js";
export {
  type AudioInput,
  OPENAI_MAX_AUDIO_BYTES,
  Transcriber,
  type TranscriberOptions,
  uploadName,
} from "./transcribe.js";
export type { ItemRecord, MediaAccess, MediaLimits, MessageImage, Understood } from "./types.js";
export { withLines } from "./types.js";
export {
  type MediaMessage,
  type MediaSource,
  MediaUnderstanding,
  type MediaUnderstandingOptions,
  MessageMedia,
  NOT_CONFIGURED,
} from "./understanding.js";
export { imageLimit, isPicture, MODEL_IMAGE_TYPES, unseenBecause } from "./vision.js";
