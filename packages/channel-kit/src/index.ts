export { BoundedMap, BoundedSet } from "./collections/bounded.js";
export { CachedLookup, type CachedLookupOptions } from "./collections/cached-lookup.js";
export { KeyedQueue } from "./collections/keyed-queue.js";
export { reconnectOptionsShape, retryOptionsShape } from "./config.js";
export {
  type HttpAnswer,
  HttpClient,
  type HttpClientOptions,
  type HttpMethod,
  type OutgoingRequest,
  type PlatformCall,
} from "./http/client.js";
export { codeForStatus, PlatformHttpError, platformMessage } from "./http/errors.js";
export {
  capStream,
  collectBytes,
  downloadMedium,
  type MediaDownloadOptions,
  type MultipartBody,
  type MultipartPart,
  multipartBody,
  streamOf,
  type TooLargeExtra,
  tooLarge,
} from "./media/index.js";
export { originOf, type ProbeAnswer, probeRequest, unreachable } from "./probe.js";
export {
  acknowledges,
  createReceiver,
  type Receipt,
  type Receiver,
  type ReceiverOptions,
  type Redelivery,
  webhookAnswer,
} from "./receive/index.js";
export { BOT_REACTIONS_TTL_MS, BotReactionRecord, type ReactionTarget } from "./records/bot-reactions.js";
export { REDACTED, Redactor, secretsOf } from "./redact/redactor.js";
export {
  type BackoffPolicy,
  backoffDelay,
  checkBackoffPolicy,
  RECONNECT_BACKOFF,
  Reconnect,
} from "./retry/backoff.js";
export { abortableDelay, withTimeout } from "./retry/delay.js";
export { causeText, type RetryFacts, type RetryPolicy, retryDelay } from "./retry/policy.js";
export { parseRetryAfter } from "./retry/retry-after.js";
export { type RetryingOptions, retrying } from "./retry/retrying.js";
export { anySignal } from "./signals/any-signal.js";
export { hmacSha256, hmacSha256Hex, safeEqual } from "./signatures.js";
