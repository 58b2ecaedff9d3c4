/** Receives problems the state stores recovered from (corrupt files set aside, failed background writes). */
export type StateWarningHandler = (message: string, error?: unknown) => void;

/** The default handler: a Node process warning, so nothing is dropped silently. */
export function defaultStateWarning(message: string, error?: unknown): void {
  const detail = error instanceof Error ? `: ${error.message}` : "";
  process.emitWarning(`${message}${detail}`, { type: "ChorusStateWarning" });
}
