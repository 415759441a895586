/**
 * Parameter schemas for every op (protocol.md, "Ops"). Objects are strict so a misspelt
 * field is an `invalid_params` error rather than silently ignored.
 *
 * @module
 */
import { z } from "zod";
import { ActionName, Bounds } from "./element.ts";

/** Per-call deadline every op accepts (code-style: every request carries a deadline). */
const timeout = {
  timeout_ms: z.number().int().min(1).max(600_000).optional().describe("deadline, ms"),
};

/**
 * A screen coordinate: X (and the other OSes' virtual screens) address points with 16-bit
 * signed numbers, so anything outside cannot mean a place on a screen, and past 2^31 it
 * would not even reach the OS as the integer it asks for.
 */
const Coord = z.number().min(-32_767).max(32_767);
/** Wheel steps of one `pixel_scroll`: a longer scroll is several calls, each cancellable. */
const ScrollSteps = z.number().int().min(-1_000).max(1_000);
const Point = z.strictObject({ x: Coord, y: Coord }).describe("{x, y}");
const Version = z.number().int().min(0).describe("read_ui's version");
/**
 * Strings a client chooses are bounded before they reach a map, router.json or the audit
 * log: four 4-MiB app names once made router.json 88 MB. Ids are the driver's own (well
 * under 256 characters); an app name is a process or window name; a query is something
 * to look for on a screen.
 */
const Id = z.string().min(1).max(256);
const AppName = z.string().min(1).max(256);
const QueryText = z.string().max(1_000);
/** Text to put into an element: a document's worth. */
const Text = z.string().max(100_000);
const WindowId = Id.describe("window id");

/** `hello` and `list_apps` take nothing but a deadline. */
export const NoParams = z.strictObject({ ...timeout });

/** `read_ui`. */
export const ReadUiParams = z.strictObject({
  app: z.union([AppName, z.number().int().positive().max(2 ** 31)]).optional().describe(
    "app name or pid: its front window",
  ),
  window: WindowId.optional(),
  since: z.number().int().min(0).optional().describe("only what changed since this version"),
  fresh: z.boolean().optional().describe("re-walk the tree"),
  crops: z.boolean().optional(),
  /** Most elements in the answer (then `truncated: true`); the live map keeps them all. */
  max_elements: z.number().int().min(1).max(100_000).optional().describe("most elements"),
  ...timeout,
});

/** One element action, as `act` takes it and as a `run_batch` step. */
export const ElementAction = {
  id: Id.describe("element id, or its first 6+ characters"),
  action: ActionName.describe(
    "press buttons, menu items; check boxes; select rows, tabs, options; set_value fields",
  ),
  value: Text.optional().describe("set_value/type_text text; click: words to click"),
  /** `select` only: add the element to the selection rather than replace the selection. */
  extend: z.boolean().optional().describe("select: add to the selection"),
  /**
   * `set_value` only: give the field Return once its text is in, for an app that reads it
   * only then. Never implied: Return also submits forms and presses default buttons.
   */
  commit: z.enum(["enter"]).optional().describe("set_value: then press Enter"),
  /**
   * `set_value` / `type_text`: the text is a secret. It is typed only into the element
   * holding the focus itself, never echoed, logged or audited, and the element's value is
   * left out of every answer from then on. Implied on a password field.
   */
  secret: z.boolean().optional().describe("never echoed; implied on passwords"),
};

/** Actions that put text somewhere need the text. */
const needsValue = (p: { action: string; value?: string | undefined }) =>
  !(p.action === "set_value" || p.action === "type_text") || p.value !== undefined;
const valueIssue = { message: "Required for set_value and type_text", path: ["value"] };
/** `extend` means something for `select` alone: anywhere else it is a mistake to say so. */
const extendsSelect = (p: { action: string; extend?: boolean | undefined }) =>
  p.extend === undefined || p.action === "select";
const extendIssue = { message: "Only select takes extend", path: ["extend"] };
/** `commit` says how a set ends: only `set_value` sets. */
const commitsSet = (p: { action: string; commit?: string | undefined }) =>
  p.commit === undefined || p.action === "set_value";
const commitIssue = { message: "Only set_value takes commit", path: ["commit"] };

/**
 * What a plan made on an older version may act on. `window` (the default): any change of
 * the window since then refuses with `stale_version`. `element`: only a change of the
 * target itself (gone, moved, renamed, disabled, other actions) refuses; otherwise the
 * action goes ahead and the answer's diff holds what changed meanwhile.
 */
export const Guard = z.enum(["window", "element"]);
/** See {@link Guard}. */
export type Guard = z.infer<typeof Guard>;

/** `act`. */
export const ActParams = z.strictObject({
  window: WindowId,
  version: Version,
  ...ElementAction,
  guard: Guard.optional().describe("element: only a change of the element refuses"),
  ...timeout,
}).refine(needsValue, valueIssue).refine(extendsSelect, extendIssue).refine(
  commitsSet,
  commitIssue,
);

/** `pixel_click`. */
export const PixelClickParams = z.strictObject({
  x: Coord.describe("screen point"),
  y: Coord.describe("screen point"),
  button: z.enum(["left", "right", "middle"]).optional().describe("default left"),
  count: z.number().int().min(1).max(3).optional().describe("clicks"),
  ...timeout,
});
/** `pixel_move`. */
export const PixelMoveParams = z.strictObject({ x: Coord, y: Coord, ...timeout });
/** `pixel_drag`. */
export const PixelDragParams = z.strictObject({ from: Point, to: Point, ...timeout });
/** `pixel_scroll`: dy > 0 scrolls down; `x, y` move the pointer first. */
export const PixelScrollParams = z.strictObject({
  dx: ScrollSteps.describe("wheel steps, > 0 right"),
  dy: ScrollSteps.describe("wheel steps, > 0 down"),
  x: Coord.optional(),
  y: Coord.optional(),
  ...timeout,
});
/**
 * Keys aimed at a window: it is made the keyboard focus first and the focus proven
 * (between chunks of a long text too), else `focus_denied`; without it, keys go to
 * whatever has the focus. A `run_batch`'s key steps always go to the batch's window.
 */
const keysFor = { window: WindowId.optional().describe("keys go to this window only") };

/**
 * `pixel_type_text`: keys are paced to the app, so a text's length is time; a longer text
 * is several calls, or `act set_value`.
 */
export const PixelTypeTextParams = z.strictObject({
  text: z.string().max(10_000).describe("typed as keys"),
  ...keysFor,
  ...timeout,
});
/** `pixel_key`: one chord such as `ctrl+a` or `Return`. */
export const PixelKeyParams = z.strictObject({
  keys: z.string().min(1).max(1_000).describe("chord: ctrl+a, Return"),
  ...keysFor,
  ...timeout,
});
/** `hold_key`. */
export const HoldKeyParams = z.strictObject({
  key: z.string().min(1).max(100),
  ms: z.number().int().min(1).max(60_000),
  ...keysFor,
  ...timeout,
});

/** What `window` does to a window. */
export const WindowAction = z.enum([
  "focus",
  "raise",
  "move",
  "resize",
  "minimize",
  "maximize",
  "fullscreen",
  "restore",
  "close",
]);
/** A window's new inside size, in screen points. */
const Size = z.number().int().min(1).max(32_767);

/** `window`: `x`/`y` only and always for move, `w`/`h` for resize, `force` for close. */
export const WindowParams = z.strictObject({
  window: WindowId,
  action: WindowAction.describe("move: x, y; resize: w, h"),
  x: Coord.int().optional().describe("move: the inside's left"),
  y: Coord.int().optional().describe("move: the inside's top"),
  w: Size.optional().describe("resize: inside width"),
  h: Size.optional().describe("resize: inside height"),
  force: z.boolean().optional().describe("close: kill its X client"),
  ...timeout,
}).superRefine((p, ctx) => {
  const needs: Record<string, readonly ("x" | "y" | "w" | "h" | "force")[]> = {
    move: ["x", "y"],
    resize: ["w", "h"],
  };
  const allowed: Record<string, readonly string[]> = {
    move: ["x", "y"],
    resize: ["w", "h"],
    close: ["force"],
  };
  for (const key of needs[p.action] ?? []) {
    if (p[key] === undefined) {
      ctx.addIssue({ code: "custom", path: [key], message: `${p.action} needs ${key}` });
    }
  }
  for (const key of ["x", "y", "w", "h", "force"] as const) {
    if (p[key] !== undefined && !(allowed[p.action] ?? []).includes(key)) {
      ctx.addIssue({ code: "custom", path: [key], message: `${p.action} takes no ${key}` });
    }
  }
});

/** `list_apps`: with `launchable`, the desktop entries `launch_app` knows too. */
export const ListAppsParams = z.strictObject({
  launchable: z.boolean().optional().describe("also the apps launch_app starts"),
  ...timeout,
});

/** `launch_app`: a desktop entry by id, with the files or URLs its Exec line takes. */
export const LaunchAppParams = z.strictObject({
  id: z.string().min(1).max(256).describe("desktop entry id (list_apps launchable)"),
  args: z.array(z.string().min(1).max(4_096)).max(32).optional().describe("files or URLs"),
  ...timeout,
});

/** `close_app`: an app by name or pid; `force` ends it once `grace_ms` passed. */
export const CloseAppParams = z.strictObject({
  app: z.union([AppName, z.number().int().positive().max(2 ** 31)]).describe("name or pid"),
  force: z.boolean().optional().describe("end it if it does not exit"),
  grace_ms: z.number().int().min(0).max(60_000).optional().describe("wait before force, ms"),
  ...timeout,
});

/** Which X selection: the clipboard (ctrl+c) or the primary one (the selected text). */
const Selection = z.enum(["clipboard", "primary"]).describe("primary: the selected text");

/** `clipboard_get`: at most `max_bytes` of the selection's text (default 1 MiB). */
export const ClipboardGetParams = z.strictObject({
  selection: Selection.optional(),
  max_bytes: z.number().int().min(1).max(4 * 1024 * 1024).optional().describe("default 1 MiB"),
  ...timeout,
});

/** `clipboard_set`: the text the driver then serves as the selection's owner. */
export const ClipboardSetParams = z.strictObject({
  text: Text.describe("text to put"),
  selection: Selection.optional(),
  ...timeout,
});

/** A `run_batch` step that is pixel input: the op name plus that op's params. */
export const PixelStep = z.discriminatedUnion("op", [
  PixelClickParams.extend({ op: z.literal("pixel_click") }),
  PixelMoveParams.extend({ op: z.literal("pixel_move") }),
  PixelDragParams.extend({ op: z.literal("pixel_drag") }),
  PixelScrollParams.extend({ op: z.literal("pixel_scroll") }),
  PixelTypeTextParams.omit({ window: true }).extend({ op: z.literal("pixel_type_text") }),
  PixelKeyParams.omit({ window: true }).extend({ op: z.literal("pixel_key") }),
]);

/** One `run_batch` step. */
export const BatchStep = z.union([
  z.strictObject(ElementAction).refine(needsValue, valueIssue).refine(
    extendsSelect,
    extendIssue,
  ).refine(commitsSet, commitIssue),
  PixelStep,
]);
/** One `run_batch` step. */
export type BatchStep = z.infer<typeof BatchStep>;

/** `run_batch`. */
export const RunBatchParams = z.strictObject({
  window: WindowId,
  version: Version,
  steps: z.array(BatchStep).min(1).max(200).describe("element actions, or pixel steps by op"),
  stop_on_error: z.boolean().optional().describe("default true"),
  ...timeout,
});

/** What `verify` and `find` match on. */
const Query = {
  role: QueryText.optional().describe(
    "AXButton, AXTextField, AXCheckBox, AXRadioButton (web tabs), AXCell, AXMenuItem, AXLink…",
  ),
  name: QueryText.optional().describe("exactly"),
  value: QueryText.optional().describe("exactly"),
};

/** `verify`: one of `id` or `query` names the element. */
export const VerifyParams = z.strictObject({
  window: WindowId,
  id: Id.optional().describe("element id"),
  query: z.strictObject({ ...Query, role: Query.role.describe("as in find") }).optional()
    .describe("or the first element matching"),
  expect: z.strictObject({
    exists: z.boolean().optional(),
    name: Text.optional(),
    value: Text.optional(),
    enabled: z.boolean().optional(),
    focused: z.boolean().optional(),
  }).describe("{exists?, name?, value?, enabled?, focused?}: all given must hold"),
  ...timeout,
}).refine((p) => (p.id === undefined) !== (p.query === undefined), {
  message: 'Give exactly one of "id" or "query"',
  path: ["id"],
});

/** `find`. */
export const FindParams = z.strictObject({
  window: WindowId,
  query: z.strictObject({
    ...Query,
    name_contains: QueryText.optional().describe("part of the name"),
    /** Case-insensitive, in the name or the value: a page's message, a cell's contents. */
    text_contains: QueryText.optional().describe("part of name or value"),
  }).describe("all given must match"),
  /**
   * `map` (the default): the window's map, what shows. `all`: the app's whole tree for the
   * window too, hidden and scrolled-out parts and the rows of long lists, bounded and timed.
   */
  scope: z.enum(["map", "all"]).optional().describe("all: beyond the view, whole page or list"),
  /** Most elements answered (default 100). */
  max_results: z.number().int().min(1).max(10_000).optional().describe("default 100"),
  ...timeout,
});

/** `screenshot`. */
export const ScreenshotParams = z.strictObject({ window: WindowId.optional(), ...timeout });

/**
 * Most pixels (in screen points × scale²) a `zoom` answers: a 2048 × 2048 image. Zoom is
 * for reading small text; a full screen at scale 8 once took 7 s and 530 MB.
 */
export const ZOOM_MAX_PIXELS = 2048 * 2048;

/** `zoom`. */
export const ZoomParams = z.strictObject({
  window: WindowId.optional(),
  region: Bounds.refine((r) => r.w > 0 && r.h > 0, "Region must have a positive size")
    .describe("{x, y, w, h} in screen points"),
  scale: z.number().min(0.1).max(8).optional().describe("default 1"),
  ...timeout,
}).superRefine((p, ctx) => {
  const factor = p.scale ?? 1;
  const pixels = p.region.w * p.region.h * factor * factor;
  if (pixels <= ZOOM_MAX_PIXELS) return;
  const fits = Math.sqrt(ZOOM_MAX_PIXELS / (p.region.w * p.region.h));
  ctx.addIssue({
    code: "custom",
    path: ["scale"],
    message: `${p.region.w}x${p.region.h} at scale ${factor} is ${Math.round(pixels)} pixels, ` +
      `over the ${ZOOM_MAX_PIXELS} a zoom answers: use a smaller region or scale ≤ ${
        Math.floor(fits * 100) / 100
      }`,
  });
});

/**
 * `trace_start`: record this connection's ops into `dir` (docs/traces.md); without it, a
 * new folder under the data folder's `traces/`. A folder that already holds a trace is
 * refused rather than mixed into.
 */
export const TraceStartParams = z.strictObject({
  dir: z.string().min(1).max(4_096).optional().describe("trace folder (default: a new one)"),
  ...timeout,
});

/** `trace_stop` takes nothing but a deadline. */
export const TraceStopParams = NoParams;
