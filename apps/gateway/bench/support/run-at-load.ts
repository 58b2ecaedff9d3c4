import { bench, describe } from "vitest";

/**
 * The one bench of a benchmark whose run happened at load (its figures printed and recorded): it
 * runs `check` once, so the file passes only when the run did what it should.
 */
export function benchRunAtLoad(suite: string, check: () => void): void {
  describe(suite, () => {
    bench("figures above (the run happens once, at load)", check, {
      iterations: 1,
      time: 0,
      warmupIterations: 0,
      warmupTime: 0,
    });
  });
}
