// Chat commands people send (`/new`, `/reset`, `/compact`, `/activation`, `/status`, …): parsed, then applied to a session.
export { applyCommand, type CommandContext, type CommandResult } from "./apply.js";
export { type CompactContext, compactSession, summariseTranscript } from "./compact.js";
export { type Command, type CommandName, type ParseCommandOptions, parseCommand } from "./parse.js";
