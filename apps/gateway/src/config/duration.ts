import { z } from "@chorus/core";

/** `30s`, `5m`, `1h`, `2d` or milliseconds as a number → milliseconds. */
export const durationSchema = z.union([
  z.number().int().min(0),
  z
    .string()
    .regex(/^\d+(ms|s|m|h|d)$/, 'expected a duration like "30s", "5m", "1h"')
    .transform((text) => {
      const [, amount, unit] = /^(\d+)(ms|s|m|h|d)$/.exec(text) as RegExpExecArray;
      const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[unit as "ms"];
      return Number(amount) * factor;
    }),
]);
