/** One label set's value of a counter. */
export interface CounterSample {
  labels: readonly string[];
  value: number;
}

/** Where a histogram's observations go once it was scraped (the exposition's histogram). */
export type HistogramSink = (labels: readonly string[], value: number) => void;

/** A counter per label values, in plain numbers: what a scrape reads (`samples`). */
export class CounterSeries {
  readonly #values = new Map<string, CounterSample>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
  ) {}

  /** Adds `by` (1) to the series of `labels` (in `labelNames` order). */
  inc(labels: readonly string[], by = 1): void {
    const key = labels.join("\u0000");
    const known = this.#values.get(key);
    if (known) known.value += by;
    else this.#values.set(key, { labels: [...labels], value: by });
  }

  /** The value of one label set (0 when it never counted). */
  value(labels: readonly string[]): number {
    return this.#values.get(labels.join("\u0000"))?.value ?? 0;
  }

  /** Every label set counted so far. */
  samples(): CounterSample[] {
    return [...this.#values.values()];
  }
}

interface Buckets {
  labels: readonly string[];
  /** Observations per bucket (not cumulative); the last one is `+Inf`. */
  counts: number[];
  /** Their sums, per bucket. */
  sums: number[];
}

/**
 * A histogram per label values, kept in plain numbers until the first scrape hands them to the
 * exposition (`drainTo`), which then receives each observation as it comes.
 */
export class HistogramSeries {
  readonly #series = new Map<string, Buckets>();
  #sink: HistogramSink | undefined;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    /** Upper bounds, ascending (`+Inf` is implied). */
    readonly buckets: readonly number[],
  ) {}

  observe(labels: readonly string[], value: number): void {
    if (this.#sink) {
      this.#sink(labels, value);
      return;
    }
    const key = labels.join("\u0000");
    let series = this.#series.get(key);
    if (!series) {
      const empty = () => new Array<number>(this.buckets.length + 1).fill(0);
      series = { labels: [...labels], counts: empty(), sums: empty() };
      this.#series.set(key, series);
    }
    let index = this.buckets.findIndex((bound) => value <= bound);
    if (index < 0) index = this.buckets.length;
    series.counts[index] = (series.counts[index] ?? 0) + 1;
    series.sums[index] = (series.sums[index] ?? 0) + value;
  }

  /** Observations per label set so far: their count and sum (before the first scrape). */
  totals(labels: readonly string[]): { count: number; sum: number } {
    const series = this.#series.get(labels.join("\u0000"));
    const add = (values: readonly number[] | undefined) => (values ?? []).reduce((a, b) => a + b, 0);
    return { count: add(series?.counts), sum: add(series?.sums) };
  }

  /**
   * Hands what was observed so far to `sink` — each bucket's observations as that many of their
   * mean, which keeps every bucket's count and the sum exact — and every later observation as it
   * comes. Nothing is kept here after it.
   */
  drainTo(sink: HistogramSink): void {
    for (const { labels, counts, sums } of this.#series.values()) {
      for (const [index, count] of counts.entries()) {
        // Rounding must not carry a mean past its bucket's bound.
        const mean = Math.min(count > 0 ? (sums[index] ?? 0) / count : 0, this.buckets[index] ?? Infinity);
        for (let n = 0; n < count; n++) sink(labels, mean);
      }
    }
    this.#series.clear();
    this.#sink = sink;
  }
}
