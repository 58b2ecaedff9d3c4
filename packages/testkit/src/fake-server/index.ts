export { FakeServerError, type FakeServerErrorCode, HttpError, InvalidJsonError, WaitTimeoutError } from "./errors.js";
export {
  type DelayFault,
  type Fault,
  type FaultEffect,
  type FaultKind,
  type FaultMatch,
  type FaultTimes,
  faults,
  type HangFault,
  type MalformedFault,
  outage,
  type PlatformFault,
  type RateLimitFault,
  type ResetFault,
  type StatusFault,
} from "./faults.js";
export { type MediumResponseOptions, mediumResponse } from "./media-response.js";
export { compilePattern, type PathMatcher, type PathParams } from "./pattern.js";
export { closedPort } from "./ports.js";
export { describeRecorded, requestMatcher, type WaitForRequestOptions } from "./request-log.js";
export { empty, json, text } from "./responses.js";
export { createFakeServer } from "./server.js";
export type { FakeServer, FakeServerOptions } from "./server-types.js";
export type {
  FakeResponse,
  HandlerError,
  PathPattern,
  RecordedRequest,
  RequestContext,
  RequestMatch,
  ResponseHeaders,
  RouteHandler,
} from "./types.js";
export { eventually, type WaitOptions, waitFor } from "./wait.js";
export type { WebSocketContext, WebSocketHandler } from "./websocket.js";
