import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** `bench/results/` at the repository root: one file a benchmark, merged into `bench/results.json` by `pnpm bench`. */
const RESULTS_DIR = fileURLToPath(new URL("../../../../bench/results/", import.meta.url));

/** One figure: its value, its unit, and the target it is measured against when it has one. */
export interface Figure {
  value: number;
  unit: string;
  /** `≤ 250` (at most) or `≥ 10000` (at least), in the same unit. */
  target?: string;
  /** What the figure is, in a few words. */
  what?: string;
  /** Spread of the runs the value is the median of: [min, max]. */
  range?: [number, number];
}

/**
 * Writes the figures of one benchmark to `bench/results/gateway.<name>.json`; `pnpm bench`
 * (scripts/bench-results.mjs) merges every such file into `bench/results.json`.
 */
export function recordFigures(name: string, figures: Record<string, Figure>): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const rounded = Object.fromEntries(
    Object.entries(figures).map(([key, figure]) => [
      key,
      {
        ...figure,
        value: round(figure.value),
        ...(figure.range ? { range: figure.range.map(round) as [number, number] } : {}),
      },
    ]),
  );
  writeFileSync(`${RESULTS_DIR}gateway.${name}.json`, `${JSON.stringify(rounded, null, 2)}\n`);
}

/** Three significant digits are all a benchmark on a shared machine can claim. */
function round(value: number): number {
  if (!Number.isFinite(value) || value === 0) return value;
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(value))));
  return Number(value.toFixed(Math.min(digits, 4)));
}
