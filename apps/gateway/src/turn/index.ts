export { type SystemTextInput, systemText, type TurnPromptInput, turnSystemPrompt } from "./prompt.js";
export { failureNotice, sendReply, withoutModelAddress } from "./reply.js";
export { type TurnRequest, TurnRunner, type TurnRunnerOptions, type TurnTrigger } from "./run.js";
export { bindMessageTool, MessageToolDefinitions, type ToolBindingInput } from "./tool-binding.js";
export { commitTurn, type FinishedTurn, readHistory, type SessionHistory } from "./transcript.js";
export { TurnTyping, type TurnTypingOptions, type TypingMode, typingModeFor } from "./typing.js";
export { announceToolCalls, toolCallLine } from "./verbose.js";
