// The event stream (`GET /v1/events`): inbound events for outside agents, filtered by access, resumable by id, their attachments stored first and shown with their `mediaId`; and, for the operator only, the drops and refusals (operator events).
export { attachmentView, NOT_ALLOWED } from "./attachments.js";
export { EventFilter, type StreamEvent } from "./filter.js";
export { type OperatorEvent, OperatorEvents, type OperatorOutcome, type OperatorReport } from "./operator.js";
export { EventHub } from "./stream.js";
