// Heartbeats: a turn in each direct session every `agents.defaults.heartbeat.every`, scheduled per agent, run through the pipeline like any turn.
export { DEFAULT_HEARTBEAT_PROMPT } from "./scheduler.js";
export { startHeartbeats } from "./start.js";
