// The agent's turn: the session's history, the prompt, the model with the `message` tool, typing and
// the turn's reactions around it; what it answers goes back to the pipeline to be committed and sent.
export { ExternalTurns } from "./external.js";
export { type SystemTextInput, systemText, type TurnPromptInput, turnSystemPrompt } from "./prompt.js";
export { failureNotice, withoutModelAddress } from "./reply.js";
export { TurnRunner, type TurnRunnerOptions } from "./run.js";
export { bindMessageTool, MessageToolDefinitions, type ToolBindingInput } from "./tool-binding.js";
export { type FinishedTurn, readHistory, recordTurn, type SessionHistory, type TurnRecord } from "./transcript.js";
export type { ReplyDraft, TurnAnswer, TurnRequest, TurnTrigger } from "./types.js";
export { TurnTyping, type TurnTypingOptions, type TypingMode, typingModeFor } from "./typing.js";
export { announceToolCalls, toolCallLine } from "./verbose.js";
