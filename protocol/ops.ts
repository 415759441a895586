/**
 * The table of ops: one entry per op with its params and result schemas, its kind and a
 * one-line summary. `hello`, the dispatcher, the client and the docs all read this table,
 * so the list of ops exists exactly once.
 *
 * @module
 */
import type { z } from "zod";
import * as P from "./params.ts";
import * as R from "./results.ts";

/** What an op does, as far as the router and the locks care. */
export type OpKind = "meta" | "read" | "action" | "input";

/** One row of the table. */
export interface OpSpec<Params extends z.ZodType, Result extends z.ZodType> {
  /** Params schema. */
  params: Params;
  /** Result schema (including `engine` and `ms`). */
  result: Result;
  /** Router / lock class. */
  kind: OpKind;
  /** One line for `--help`, the README and MCP tool descriptions. */
  summary: string;
  /**
   * The op's `timeout_ms` is how long it waits for a condition (verify), so the request
   * deadline is that plus the default deadline, and the op answers before it.
   */
  waits?: boolean;
}

function op<Params extends z.ZodType, Result extends z.ZodType>(
  spec: OpSpec<Params, Result>,
): OpSpec<Params, Result> {
  return spec;
}

/** Every op the driver serves. */
export const OPS = {
  hello: op({
    params: P.NoParams,
    result: R.HelloResult,
    kind: "meta",
    summary: "Capability report: version, engines and their availability, ops, live state.",
  }),
  list_apps: op({
    params: P.ListAppsParams,
    result: R.ListAppsResult,
    kind: "meta",
    summary: "Running apps with their windows.",
  }),
  read_ui: op({
    params: P.ReadUiParams,
    result: R.ReadUiResult,
    kind: "read",
    summary: "A window's element map, or with `since` the diff from that version.",
  }),
  act: op({
    params: P.ActParams,
    result: R.ActResult,
    kind: "action",
    summary: "Act on an element by id, planned on a map version; answers the settled diff.",
  }),
  run_batch: op({
    params: P.RunBatchParams,
    result: R.RunBatchResult,
    kind: "action",
    summary: "Several element actions and pixel steps, each settled before the next.",
  }),
  verify: op({
    params: P.VerifyParams,
    result: R.VerifyResult,
    kind: "read",
    summary: "Wait until an element matches an expectation, or the timeout passes.",
    waits: true,
  }),
  find: op({
    params: P.FindParams,
    result: R.FindResult,
    kind: "read",
    summary: "Elements of a window matching role, name, value, name_contains or text_contains.",
  }),
  screenshot: op({
    params: P.ScreenshotParams,
    result: R.ImageResult,
    kind: "read",
    summary: "PNG of a window, or of the whole screen.",
  }),
  zoom: op({
    params: P.ZoomParams,
    result: R.ImageResult,
    kind: "read",
    summary: "PNG of a region of a window or the screen, scaled.",
  }),
  pixel_click: op({
    params: P.PixelClickParams,
    result: R.OkResult,
    kind: "input",
    summary: "Click at screen point x, y.",
  }),
  pixel_move: op({
    params: P.PixelMoveParams,
    result: R.OkResult,
    kind: "input",
    summary: "Move the pointer to screen point x, y.",
  }),
  pixel_drag: op({
    params: P.PixelDragParams,
    result: R.OkResult,
    kind: "input",
    summary: "Press at `from`, move to `to`, release.",
  }),
  pixel_scroll: op({
    params: P.PixelScrollParams,
    result: R.OkResult,
    kind: "input",
    summary: "Scroll by dx, dy wheel steps (dy > 0 is down), optionally at x, y.",
  }),
  pixel_type_text: op({
    params: P.PixelTypeTextParams,
    result: R.OkResult,
    kind: "input",
    summary: "Type text with the keyboard into whatever has focus.",
  }),
  pixel_key: op({
    params: P.PixelKeyParams,
    result: R.OkResult,
    kind: "input",
    summary: "Press one key chord such as `ctrl+a` or `Return`.",
  }),
  hold_key: op({
    params: P.HoldKeyParams,
    result: R.OkResult,
    kind: "input",
    summary: "Hold a key down for `ms` milliseconds.",
  }),
  window: op({
    params: P.WindowParams,
    result: R.WindowResult,
    kind: "action",
    summary: "Focus, move, resize, minimize, maximize or close a window.",
  }),
  launch_app: op({
    params: P.LaunchAppParams,
    result: R.LaunchAppResult,
    kind: "action",
    summary:
      "Start an allowed app by its desktop entry id; answers once its first window is listed.",
  }),
  close_app: op({
    params: P.CloseAppParams,
    result: R.CloseAppResult,
    kind: "action",
    summary: "Close an app's windows politely; with force, end it after a grace period.",
  }),
  clipboard_get: op({
    params: P.ClipboardGetParams,
    result: R.ClipboardGetResult,
    kind: "read",
    summary: "The clipboard's (or the primary selection's) text.",
  }),
  clipboard_set: op({
    params: P.ClipboardSetParams,
    result: R.ClipboardSetResult,
    kind: "action",
    summary: "Put text on the clipboard (or the primary selection), for any app to paste.",
  }),
  trace_start: op({
    params: P.TraceStartParams,
    result: R.TraceStartResult,
    kind: "meta",
    summary: "Record this connection's ops, answers and screenshots into a trace folder.",
  }),
  trace_stop: op({
    params: P.TraceStopParams,
    result: R.TraceStopResult,
    kind: "meta",
    summary: "Finish this connection's trace; answers its folder and what it holds.",
  }),
} as const;

/** Name of an op. */
export type OpName = keyof typeof OPS;
/** Parsed params of op `N`. */
export type ParamsOf<N extends OpName> = z.infer<(typeof OPS)[N]["params"]>;
/** Result of op `N` as it goes on the wire. */
export type ResultOf<N extends OpName> = z.infer<(typeof OPS)[N]["result"]>;
/** Result of op `N` as a handler returns it: the dispatcher adds `ms`. */
export type HandlerResultOf<N extends OpName> = Omit<ResultOf<N>, "ms">;

/** Every op name, in table order. */
export const OP_NAMES: readonly OpName[] = Object.keys(OPS) as OpName[];

/** Is `name` an op of the table? */
export function isOpName(name: string): name is OpName {
  return Object.hasOwn(OPS, name);
}
