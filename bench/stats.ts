// deno-lint-ignore-file no-console -- benchmarks print their figures.
/**
 * What every benchmark needs to report: medians, rounding, and one JSON line per figure
 * (the format bench/run.ts collects).
 *
 * @module
 */

/** The median of `xs` (the mean of the middle two for an even count). */
export const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** `v` rounded to `digits` decimals. */
export const round = (v: number, digits = 2): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** Prints one figure as a JSON line. */
export const emit = (row: Record<string, unknown>): void => console.log(JSON.stringify(row));
