/**
 * A protobuf timestamp (a number or a `Long`, as Baileys hands them) times `scale`, in
 * milliseconds; undefined when absent or zero.
 */
export function millisOf(value: unknown, scale: number): number | undefined {
  let number: number | undefined;
  if (typeof value === "number") number = value;
  else if (typeof value === "bigint") number = Number(value);
  else if (typeof value === "string" && /^\d+$/.test(value)) number = Number(value);
  else if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toNumber?: unknown }).toNumber === "function"
  ) {
    number = (value as { toNumber(): number }).toNumber();
  }
  return number !== undefined && Number.isFinite(number) && number > 0 ? number * scale : undefined;
}
