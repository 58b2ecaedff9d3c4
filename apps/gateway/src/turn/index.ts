export { type Completion, type ReplyDraft, TurnCommitter } from "./commit.js";
export { type SystemTextInput, systemText, type TurnPromptInput, turnSystemPrompt } from "./prompt.js";
export { failureNotice, withoutModelAddress } from "./reply.js";
export { type TurnRequest, TurnRunner, type TurnRunnerOptions, type TurnTrigger } from "./run.js";
export { bindMessageTool, MessageToolDefinitions, type ToolBindingInput } from "./tool-binding.js";
export { type FinishedTurn, readHistory, recordTurn, type SessionHistory, type TurnRecord } from "./transcript.js";
export { TurnTyping, type TurnTypingOptions, type TypingMode, typingModeFor } from "./typing.js";
export { announceToolCalls, toolCallLine } from "./verbose.js";
