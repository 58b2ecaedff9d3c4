import type { TurnResult } from "../agent/index.js";
import type { MessageToolCalls, TurnScope } from "../channels/index.js";

/** One line per tool call: `🛠 message react 👍 → ok`, or `→ failed (E_CODE)`. */
export function toolCallLine(call: { input: unknown; output: unknown }): string {
  const input = call.input as Record<string, unknown>;
  const output = call.output as { ok?: boolean; error?: { code?: string } } | undefined;
  const outcome = output?.ok === false ? `failed (${output.error?.code ?? "error"})` : "ok";
  const text = `🛠 message ${String(input.action ?? "")} ${String(input.emoji ?? input.text ?? "")}`.trim();
  return `${text} → ${outcome}`;
}

/**
 * `/verbose on` (a session setting): each tool call of the turn is shown in the chat before the
 * reply, one message per call. A failure to send one is ignored: the reply still goes out.
 */
export async function announceToolCalls(
  tools: MessageToolCalls,
  result: TurnResult | undefined,
  scope: TurnScope,
): Promise<void> {
  for (const call of result?.toolCalls ?? []) {
    await tools.execute({ action: "send", text: toolCallLine(call) }, scope).catch(() => undefined);
  }
}
