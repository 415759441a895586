/**
 * Reads a trace folder back (trace/format.ts): the header, the op lines in the order the
 * ops started, and the end line when recording stopped cleanly. A last line cut short
 * (the driver was killed mid-write) is skipped, not fatal: the rest is still worth seeing.
 *
 * @module
 */
import {
  IMAGES_DIR,
  isOpLine,
  type OpLine,
  TRACE_FILE,
  type TraceEnd,
  type TraceHeader,
  type TraceLine,
} from "../format.ts";

/** A trace as the viewer shows it. */
export interface LoadedTrace {
  /** The folder. */
  dir: string;
  /** First line. */
  header: TraceHeader | undefined;
  /** Op lines by `seq`. */
  ops: OpLine[];
  /** Last line; undefined when recording did not stop cleanly. */
  end: TraceEnd | undefined;
  /** Lines that could not be read (a cut-off last line). */
  skipped: number;
}

/** Image file names are hashes: nothing else is served or inlined. */
export const IMAGE_NAME = /^[0-9a-f]{64}$/;

/** Reads the trace in `dir`. */
export async function loadTrace(dir: string): Promise<LoadedTrace> {
  let text: string;
  try {
    text = await Deno.readTextFile(`${dir}/${TRACE_FILE}`);
  } catch (err) {
    throw new Error(`Cannot read a trace in "${dir}": ${(err as Error).message}`, { cause: err });
  }
  const out: LoadedTrace = { dir, header: undefined, ops: [], end: undefined, skipped: 0 };
  for (const raw of text.split("\n")) {
    if (raw.trim() === "") continue;
    let line: TraceLine;
    try {
      line = JSON.parse(raw);
    } catch {
      out.skipped++;
      continue;
    }
    if ("trace" in line) out.header = line;
    else if ("end" in line) out.end = line;
    else if (isOpLine(line)) out.ops.push(line);
  }
  out.ops.sort((a, b) => a.seq - b.seq);
  return out;
}

/** The hashes of every image the trace's op lines refer to. */
export function imagesOf(trace: LoadedTrace): Set<string> {
  const shas = new Set<string>();
  for (const op of trace.ops) {
    if (op.images?.before) shas.add(op.images.before.sha);
    if (op.images?.after) shas.add(op.images.after.sha);
    for (const step of op.step_images ?? []) if (step) shas.add(step.sha);
    const png = op.answer?.png;
    if (typeof png === "string" && png.startsWith(`${IMAGES_DIR}/`)) {
      shas.add(png.slice(IMAGES_DIR.length + 1, -".png".length));
    }
  }
  for (const sha of shas) if (!IMAGE_NAME.test(sha)) shas.delete(sha);
  return shas;
}

/** Path of image `sha` inside the trace. */
export function imagePath(dir: string, sha: string): string {
  return `${dir}/${IMAGES_DIR}/${sha}.png`;
}
