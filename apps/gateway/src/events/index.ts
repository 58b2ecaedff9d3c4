// The event stream (`GET /v1/events`): inbound events for outside agents, filtered by access, resumable by id.
export { EventFilter } from "./filter.js";
export { EventHub } from "./stream.js";
