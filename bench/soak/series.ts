/**
 * The soak bench's samples and what is made of them: a least-squares slope, and the series
 * as one line of figures.
 *
 * @module
 */
import { round } from "../stats.ts";

/** One sample, every 30 s. */
export interface Sample {
  /** Minutes since the load started. */
  min: number;
  /** `load` while the clients run, `idle` once they stopped and every app closed. */
  phase: "load" | "idle";
  /** The driver's resident set, MB (VmRSS). */
  rss: number;
  /** Of it, anonymous memory (heaps, buffers) and file-backed pages (code), MB. */
  anon: number;
  file: number;
  /** The peer's resident set, MB, sampled the same way. */
  peer: number;
  /** Windows the driver watched (`hello`'s `live.watched`), -1 when hello failed. */
  watched: number;
  /** Reads served from pixels so far, OCR'd (`hello`'s router sources vision + both). */
  pixelReads: number;
  /** Apps of the bench running. */
  apps: number;
}

/** Resident, anonymous and file-backed memory of process `pid`, MB, from /proc. */
export async function residentMb(
  pid: number,
): Promise<{ rss: number; anon: number; file: number }> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const mb = (field: string) =>
    round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
  return { rss: mb("VmRSS"), anon: mb("RssAnon"), file: mb("RssFile") };
}

/** Slope of the least-squares line through `points` ([x, y]); 0 with fewer than 2. */
export function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (const [x, y] of points) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
  }
  return sxx === 0 ? 0 : sxy / sxx;
}

/** Figures `pick` of the samples, rounded to whole units, comma-separated. */
export const seriesOf = (samples: readonly Sample[], pick: (s: Sample) => number): string =>
  samples.map((s) => String(round(pick(s), 0))).join(", ");
