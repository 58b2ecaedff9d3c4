import { ChorusError } from "@chorus/core";

/** A case found the plugin's behaviour at odds with its declared flags. */
export class ContractViolation extends Error {
  override readonly name = "ContractViolation";
}

/** Fails the case with `message` unless `condition` holds. */
export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ContractViolation(message);
}

/** Runs `action` and checks it fails with a `ChorusError` of `code`; returns the error. */
export async function expectRefusal(action: () => Promise<unknown>, code: string, what: string): Promise<ChorusError> {
  let outcome: unknown;
  try {
    outcome = await action();
  } catch (error) {
    check(error instanceof ChorusError, `${what}: expected ChorusError ${code}, got ${String(error)}`);
    check(error.code === code, `${what}: expected ${code}, got ${error.code} (${error.message})`);
    return error;
  }
  throw new ContractViolation(`${what}: expected ${code}, but it succeeded with ${JSON.stringify(outcome)}`);
}

/** The same multiset of reactions, order ignored. */
export function sameReactions(actual: readonly string[], expected: readonly string[]): boolean {
  const a = [...actual].sort();
  const b = [...expected].sort();
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

export function show(reactions: readonly string[]): string {
  return reactions.length === 0 ? "no reactions" : `[${reactions.join(", ")}]`;
}
