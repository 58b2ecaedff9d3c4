export { applyCommand, type CommandContext, type CommandResult } from "./apply.js";
export { type CompactContext, compactSession, summariseTranscript } from "./compact.js";
export { type Command, type CommandName, type ParseCommandOptions, parseCommand } from "./parse.js";
