/** What a statement binds: node:sqlite takes no booleans or `undefined` (`bindValues` maps them). */
export type SqlValue = null | number | bigint | string | Uint8Array;

/** A value node:sqlite binds as it is. */
function isBindable(value: unknown): boolean {
  return value !== undefined && typeof value !== "boolean";
}

/** `$1 … $n` → `?` in order, with the argument order each `?` needs. */
export function positional(text: string): { text: string; order: number[] } {
  const order: number[] = [];
  const rewritten = text.replace(/\$(\d+)/g, (_, n: string) => {
    order.push(Number(n) - 1);
    return "?";
  });
  return { text: rewritten, order };
}

/** The values to bind; `args` itself where it already is that (most statements: `$1 … $n` once each, no booleans). */
export function bindValues(
  prepared: { order: readonly number[]; inOrder: boolean },
  args: readonly unknown[],
): readonly SqlValue[] {
  const { order, inOrder } = prepared;
  if (inOrder && args.length === order.length && args.every(isBindable)) return args as readonly SqlValue[];
  return order.map((i) => {
    const value = args[i];
    return (typeof value === "boolean" ? (value ? 1 : 0) : value === undefined ? null : value) as SqlValue;
  });
}
