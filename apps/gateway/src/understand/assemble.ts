import type { Logger } from "pino";
import type { GatewayConfig } from "../config/index.js";
import type { StateStore } from "../state/index.js";
import { Transcriber } from "./transcribe.js";
import type { MediaAccess } from "./types.js";
import { MediaUnderstanding } from "./understanding.js";

/**
 * The gateway's reader of attachments: its media store, the `media` limits (`maxBytes`,
 * `maxExtractChars`) and, when configured, `agents.defaults.transcription`.
 */
export function understandingFor(
  config: Pick<GatewayConfig, "media" | "agents">,
  store: MediaAccess,
  state: Pick<StateStore, "kv">,
  logger: Logger,
  /** Counts the bytes of attachments stored, by channel (the gateway's media metric). */
  counted?: (channel: string, bytes: number) => void,
  env: NodeJS.ProcessEnv = process.env,
): MediaUnderstanding {
  const { transcription } = config.agents.defaults;
  return new MediaUnderstanding({
    store,
    state,
    limits: { maxBytes: config.media.maxBytes, maxExtractChars: config.media.maxExtractChars },
    logger,
    counted,
    ...(transcription ? { transcriber: new Transcriber(transcription, { env }) } : {}),
  });
}
