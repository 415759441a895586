/**
 * The trace folder's format (docs/traces.md): `trace.jsonl`, one JSON object a line (a
 * header, one line per op, an end line), and `images/<sha256>.png`, each distinct
 * screenshot once. The recorder writes it and the viewer reads it; nothing else does.
 *
 * @module
 */

/** Version of the format, in the header line. */
export const TRACE_FORMAT = 1;

/** The lines file inside a trace folder. */
export const TRACE_FILE = "trace.jsonl";

/** The screenshots folder inside a trace folder. */
export const IMAGES_DIR = "images";

/** What stands in a trace for a secret's text. */
export const SECRET_MARKER = "[secret: not recorded]";

/** A rectangle in screen points. */
export interface Rect {
  /** Left. */
  x: number;
  /** Top. */
  y: number;
  /** Width. */
  w: number;
  /** Height. */
  h: number;
}

/** A screenshot as an op line refers to it. */
export interface ImageRef {
  /** File `images/<sha>.png`: the SHA-256 of its bytes, hex. */
  sha: string;
  /** Pixels across, after scaling down. */
  width: number;
  /** Pixels down. */
  height: number;
  /** Pixels per screen point, after scaling down. */
  scale: number;
  /** Screen point of the image's top-left corner: element bounds minus this, times scale. */
  origin: { x: number; y: number };
}

/** The first line. */
export interface TraceHeader {
  /** Always "allternit-driver-trace". */
  trace: "allternit-driver-trace";
  /** {@link TRACE_FORMAT}. */
  format: number;
  /** ISO 8601 time recording began. */
  started: string;
  /** The size policy in force (trace/policy.ts). */
  policy: { max_image_bytes: number; max_images: number; max_width: number };
}

/** One op, as recorded. */
export interface OpLine {
  /** 1-based order of the op's start within the trace. */
  seq: number;
  /** Op name. */
  op: string;
  /** Params as validated, secrets replaced by {@link SECRET_MARKER}. */
  params: Record<string, unknown>;
  /** The answer as sent (diffs included); absent on error. */
  answer?: Record<string, unknown>;
  /** The error as sent (`code`, `message`, data); absent on success. */
  error?: { code: string; message: string; data?: Record<string, unknown> };
  /** Engine that served it, from the answer or the route. */
  engine?: string;
  /** The routing decision: the router's reason and the app and window it concerned. */
  route?: { engine: string; reason: string; app: string; window?: string };
  /** ISO 8601 start. */
  start: string;
  /** Wall time, ms. */
  ms: number;
  /** Window screenshots around an action: before it ran, and after its answer. */
  images?: { before?: ImageRef; after?: ImageRef };
  /**
   * A batch's window after each step it ran, by step index (`null`: none taken); step
   * N's before is step N-1's after, the first step's is `images.before`.
   */
  step_images?: (ImageRef | null)[];
  /** The element acted on (an `act`, or a batch's element steps) with its bounds. */
  targets?: { id: string; bounds?: Rect; role?: string; name?: string }[];
  /** Why a screenshot is missing (the cap, or the capture failed). */
  images_note?: string;
}

/** The last line, written when recording stops. */
export interface TraceEnd {
  /** Always true. */
  end: true;
  /** ISO 8601 time recording stopped. */
  stopped: string;
  /** Op lines written. */
  ops: number;
  /** Distinct images stored. */
  images: number;
  /** Their bytes. */
  image_bytes: number;
  /** The cap was reached: from op `capped_at` on, no screenshots. */
  images_capped: boolean;
  /** First op that had no room for its screenshots. */
  capped_at?: number;
}

/** Any line of `trace.jsonl`. */
export type TraceLine = TraceHeader | OpLine | TraceEnd;

/** Is `line` an op line? */
export function isOpLine(line: TraceLine): line is OpLine {
  return "op" in line && "seq" in line;
}
