import { CONTEXT_MARKER, CONTINUATION, CURRENT_MARKER } from "../groups/index.js";
import { type ReadLine, readAttachmentLines } from "../understand/index.js";
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from "./types.js";

/** The emoji the demo agent reacts with. */
export const DEMO_REACTION = "👍";

/** What the demo model does in one step: react with the `message` tool, or answer. */
export type DemoStep =
  | { kind: "react"; toolCallId: string; input: { action: "react"; emoji: string } }
  | { kind: "text"; text: string };

const MAX_ECHO = 280;

/** Decides the demo model's next step from the prompt and the tools it was offered (pure, deterministic). */
export function planDemoStep(options: Pick<LanguageModelV3CallOptions, "prompt" | "tools" | "toolChoice">): DemoStep {
  const { prompt } = options;
  const lastUser = prompt.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) return { kind: "text", text: "Demo agent (offline): there is nothing to answer yet." };
  const said = userText(prompt[lastUser] as LanguageModelV3Message);
  const sinceUser = prompt.slice(lastUser + 1);
  const reactCallIds = sinceUser.flatMap(reactCallsOf);
  const toolName = reactToolName(options);
  if (reactCallIds.length === 0 && toolName !== undefined) {
    return {
      kind: "react",
      toolCallId: `demo-react-${lastUser + 1}`,
      input: { action: "react", emoji: DEMO_REACTION },
    };
  }
  const failure = reactCallIds.map((id) => failureOf(sinceUser, id)).find((text) => text !== undefined);
  return { kind: "text", text: demoText(said, failure) };
}

/**
 * The demo agent's answer: a clearly labelled echo, naming what came with the message ("I got your
 * photo (image.png, 12 KB)") so a first run shows attachments arrive.
 */
export function demoText(said: string, reactionFailure?: string): string {
  const { current: whole, context } = readGroupBatch(said);
  const { words: current, got } = attachmentsOf(whole);
  const echo = current.length > MAX_ECHO ? `${current.slice(0, MAX_ECHO - 1)}…` : current;
  const seen = context === 0 ? "" : ` (with ${context} earlier message${context === 1 ? "" : "s"} as context)`;
  const heard =
    got === "" ? `you said "${echo}"` : current === "" ? `I got ${got}` : `I got ${got}; you said "${echo}"`;
  const text = `Demo agent (offline): ${heard}${seen}. Configure a model in chorus.json to talk to a real one.`;
  return reactionFailure === undefined ? text : `${text} (My ${DEMO_REACTION} reaction failed: ${reactionFailure})`;
}

/** A message's own words (before its attachment lines) and what its lines name: `your photo (image.png, 12 KB)`. */
function attachmentsOf(text: string): { words: string; got: string } {
  const lines = readAttachmentLines(text);
  if (lines.length === 0) return { words: text, got: "" };
  const named = lines.map((line) => `your ${line.noun}${line.detail === "" ? "" : ` (${line.detail})`}`);
  const got = named.length === 1 ? (named[0] as string) : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
  return { words: text.slice(0, (lines[0] as ReadLine).at).trim(), got };
}

/** The name of the offered `message` tool when it has a `react` action and tools are not switched off. */
function reactToolName(options: Pick<LanguageModelV3CallOptions, "tools" | "toolChoice">): string | undefined {
  if (options.toolChoice?.type === "none") return undefined;
  const tool = options.tools?.find((candidate) => candidate.type === "function" && candidate.name === "message");
  if (tool?.type !== "function") return undefined;
  const action = (tool.inputSchema.properties?.action ?? {}) as { enum?: unknown[] };
  return Array.isArray(action.enum) && action.enum.includes("react") ? tool.name : undefined;
}

function userText(message: LanguageModelV3Message): string {
  if (message.role !== "user") return "";
  return message.content
    .map((part) => (part.type === "text" ? part.text : ""))
    .join("")
    .trim();
}

function reactCallsOf(message: LanguageModelV3Message): string[] {
  if (message.role !== "assistant") return [];
  return message.content.flatMap((part) =>
    part.type === "tool-call" && part.toolName === "message" && (part.input as { action?: unknown })?.action === "react"
      ? [part.toolCallId]
      : [],
  );
}

/** The error message of the tool result answering `toolCallId`, when that call failed. */
function failureOf(messages: LanguageModelV3Message[], toolCallId: string): string | undefined {
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolCallId !== toolCallId) continue;
      const { output } = part;
      if (output.type === "error-text") return output.value;
      if (output.type === "json") {
        const value = output.value as { ok?: unknown; error?: { message?: unknown } } | null;
        if (value?.ok === false) return String(value.error?.message ?? "unknown error");
      }
    }
  }
  return undefined;
}

/**
 * The current message of a group batch (DESIGN §4 markers) and how many pending messages came
 * with it, so the demo answers what was said rather than echoing the markers; plain text as is.
 */
export function readGroupBatch(said: string): { current: string; context: number } {
  const lines = said.split("\n");
  const from = lines.findLastIndex((line) => line.startsWith("[from: "));
  if (from === -1) return { current: said, context: 0 };
  const currentAt = lines.indexOf(CURRENT_MARKER);
  const contextAt = lines.indexOf(CONTEXT_MARKER);
  const current = lines
    .slice(currentAt === -1 ? 0 : currentAt + 1, from)
    .join("\n")
    .replace(/^[^:\n]{1,80}: /u, "")
    .replaceAll(`\n${CONTINUATION}`, "\n");
  const context =
    contextAt === -1 || currentAt === -1
      ? 0
      : lines.slice(contextAt + 1, currentAt).filter((l) => l.trim() !== "" && !l.startsWith(CONTINUATION)).length;
  return { current, context };
}
