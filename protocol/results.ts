/**
 * Result schemas for every op. The dispatcher adds `engine` and `ms` to every answer;
 * results are checked against these in tests and when `ALLTERNIT_CHECK_RESULTS=1`.
 *
 * @module
 */
import { z } from "zod";
import { Bounds, Element } from "./element.ts";

/** Members every answer carries (protocol.md, "Ops"). */
export const Common = { engine: z.string(), ms: z.number() };

/** Live-map state of the window an answer came from. */
export const LiveState = z.strictObject({
  state: z.enum(["live", "degraded"]),
  reason: z.string().optional(),
  /** With `reason: "app_not_responding"`: the map's age in ms (what the app last showed). */
  age_ms: z.number().int().min(0).optional(),
  /**
   * Elements were still moving after an action (an animation no toolkit announces) when
   * the map was read: a read 100 ms later shows where they have got to.
   */
  moving: z.literal(true).optional(),
});

/** One engine in `hello`. */
export const EngineReport = z.strictObject({
  name: z.string(),
  available: z.boolean(),
  reason: z.string().optional(),
  ops: z.array(z.string()),
});

/** `hello`. */
export const HelloResult = z.strictObject({
  name: z.string(),
  version: z.string(),
  protocol: z.literal(1),
  os: z.string(),
  pid: z.number().int(),
  engines: z.array(EngineReport),
  ops: z.array(z.string()),
  live: z.strictObject({
    watched: z.number().int(),
    limit: z.number().int(),
    calls: z.number().int().optional(),
    walks: z.number().int().optional(),
    events: z.number().int().optional(),
    /** Acts whose element the app had replaced behind its id, found again and acted on. */
    rebound: z.number().int().optional(),
    /** Pointer inputs of acts that waited for their element's window to come to rest. */
    rested: z.number().int().optional(),
  }),
  router: z.record(z.string(), z.unknown()).optional(),
  /** `launch_app` and `close_app`: on or off (config `app_control`), and the allow-list. */
  app_control: z.strictObject({ enabled: z.boolean(), launch: z.array(z.string()) }).optional(),
  ...Common,
});

/** A top-level window as `list_apps` and `act`'s `opened` list it. */
export const WindowInfo = z.strictObject({
  window: z.string(),
  title: z.string(),
  bounds: Bounds,
  focused: z.boolean(),
  /** What kind of window, when the engine knows. */
  role: z.enum(["window", "dialog", "alert", "menu", "popup"]).optional(),
  /** It blocks input to the rest of its app until closed. */
  modal: z.boolean().optional(),
  /** The window of the same app it belongs to (a dialog's main window), when known. */
  parent: z.string().optional(),
});

/** `list_apps`. */
export const ListAppsResult = z.strictObject({
  apps: z.array(z.strictObject({
    app: z.string(),
    pid: z.number().int(),
    name: z.string(),
    windows: z.array(WindowInfo),
    /**
     * Only on an app whose accessibility did not answer the listing: it is listed from its
     * last answer and its X windows, `state: "degraded"` with the reason
     * (`app_not_responding`) and `age_ms`, the age of that last answer.
     */
    live: LiveState.optional(),
  })),
  /** With `launchable`: the system's desktop entries, and whether `launch_app` may start each. */
  launchable: z.array(z.strictObject({
    id: z.string(),
    name: z.string(),
    allowed: z.boolean(),
  })).optional(),
  ...Common,
});

/**
 * A window stacked over the one read, hiding `bounds` (screen points) of it. A read from
 * pixels leaves out what lies there: it would be the cover's content, not the window's.
 */
export const Covering = z.strictObject({
  /** The cover's X window id as xwininfo prints it (`0x1a00007`). */
  x11_window: z.string(),
  title: z.string(),
  /** `_NET_WM_PID`; 0 when the cover's app set none. */
  pid: z.number().int(),
  bounds: Bounds,
});
/** {@link Covering} as a value. */
export type Covering = z.infer<typeof Covering>;

/** `read_ui`: either the whole map or, with `since`, a diff. */
export const ReadUiResult = z.strictObject({
  app: z.string(),
  pid: z.number().int(),
  window: z.string(),
  version: z.number().int(),
  elements: z.array(Element).optional(),
  added: z.array(Element).optional(),
  changed: z.array(Element).optional(),
  removed: z.array(z.string()).optional(),
  reset: z.boolean().optional(),
  truncated: z.boolean().optional(),
  cached: z.boolean(),
  live: LiveState,
  source: z.enum(["tree", "vision", "both"]),
  source_reason: z.string().optional(),
  degraded: z.boolean().optional(),
  degraded_reason: z.string().optional(),
  /** Windows on top of part of this one; a vision read left the parts they hide out. */
  covered: z.array(Covering).optional(),
  ...Common,
});

/**
 * How an action's effects were judged settled: the app went quiet, it posted nothing, it
 * was still posting when `settle_max_ms` passed (`busy`), or the request's deadline came
 * first (`timeout`: the action was performed, its effects may still be arriving).
 */
export const Settled = z.enum(["quiet", "no_reaction", "busy", "timeout"]);

/** `act`. */
/** How an action was carried out (`keys`: the element focused and the text typed). */
export const Via = z.enum(["action", "pixel", "keys"]);

export const ActResult = z.strictObject({
  /**
   * False when the action ran but did not do what was asked: a `set_value` or `type_text`
   * whose element, read back, holds something else, or a `check`, `uncheck`, `expand`,
   * `collapse`, `select` or `focus` whose element did not come to that state (`value` says
   * what).
   */
  ok: z.boolean(),
  version: z.number().int(),
  via: Via,
  /**
   * When `ok` is false: what the element holds (its text), or is (`unchecked`, `checked`,
   * `collapsed`, `expanded`, `not selected`, `not focused`) after a state action.
   */
  value: z.string().optional(),
  /**
   * The text went to a password field or was marked `secret`: what the element holds is
   * never answered (no `value`, even when `ok` is false).
   */
  secret: z.literal(true).optional(),
  /** The element already was as asked (`check` on a checked box): nothing was done. */
  already: z.literal(true).optional(),
  /**
   * False when the effect cannot be read back to check it (a password field shows bullets,
   * or nothing; a page's grid row whose selection Gecko does not show): the text was
   * entered, or the click made, and `ok` says no more than that.
   */
  verified: z.literal(false).optional(),
  /**
   * How a `set_value` was committed, when the widget takes a value only once told so: a
   * spin box or a spreadsheet cell is given `enter` (the Return key) after the text.
   */
  commit: z.enum(["enter"]).optional(),
  /**
   * `changed` when the app reacted or the map moved on from the planned version; `none`
   * when nothing changed, and always when `already` (nothing was done: what the map took
   * in meanwhile is still in the diff).
   */
  effect: z.enum(["changed", "none"]),
  settled: Settled,
  settle_ms: z.number(),
  /** The element was found again by its crop: its id had changed since the plan. */
  resolved_by: z.literal("crop").optional(),
  added: z.array(Element),
  changed: z.array(Element),
  removed: z.array(z.string()),
  /** Windows of the app the action brought up (a dialog, a menu), when any. */
  opened: z.array(WindowInfo).optional(),
  /**
   * The action closed its own window (a dialog's button) or ended its app: it was done,
   * the answer's map is the window's last, and later calls on the window answer
   * `window_not_found`.
   */
  closed: z.literal(true).optional(),
  /**
   * Elements were still moving when the answer's map was read (an animation the action
   * started): a read 100 ms later shows where they have got to.
   */
  moving: z.literal(true).optional(),
  /**
   * After `scroll_into_view`: the element as the window reads now, with its bounds and
   * its id in the map (an `offscreen` element gets its map id here once it shows).
   */
  element: Element.optional(),
  ...Common,
});

/** One step's outcome in `run_batch`. */
export const StepResult = z.strictObject({
  ok: z.boolean(),
  skipped: z.boolean().optional(),
  error: z.strictObject({
    code: z.string(),
    message: z.string(),
  }).optional(),
  via: Via.optional(),
  /** When the step did not take: what the element holds or is. */
  value: z.string().optional(),
  /** As `act`'s: the text was a secret, and what the element holds is not answered. */
  secret: z.literal(true).optional(),
  /** The element already was as asked: nothing was done. */
  already: z.literal(true).optional(),
  /** As `act`'s: the text went in, or the click was made, but cannot be read back. */
  verified: z.literal(false).optional(),
  /** As `act`'s: how a `set_value` was committed. */
  commit: z.enum(["enter"]).optional(),
  /** The step's element was found again by its crop: its id had changed since the plan. */
  resolved_by: z.literal("crop").optional(),
  settled: Settled.optional(),
  ms: z.number(),
});

/** `run_batch`. */
export const RunBatchResult = z.strictObject({
  ok: z.boolean(),
  results: z.array(StepResult),
  version: z.number().int(),
  added: z.array(Element),
  changed: z.array(Element),
  removed: z.array(z.string()),
  ...Common,
});

/** `verify`. */
export const VerifyResult = z.strictObject({
  ok: z.boolean(),
  actual: z.union([Element, z.null()]),
  version: z.number().int(),
  ...Common,
});

/** `find`. */
export const FindResult = z.strictObject({
  elements: z.array(Element),
  version: z.number().int(),
  /** With `scope: "all"`: how many of the app's objects the search asked about. */
  searched: z.number().int().optional(),
  /**
   * More may match than answered: `max_results` cut the answer, or with `scope: "all"` the
   * search stopped before the end of the tree (its node budget, its time, or a list too
   * long to search).
   */
  truncated: z.literal(true).optional(),
  ...Common,
});

/** `screenshot` and `zoom`. */
export const ImageResult = z.strictObject({
  png: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  scale: z.number(),
  ...Common,
});

/** Every `pixel_*` op and `hold_key`. */
export const OkResult = z.strictObject({ ok: z.literal(true), ...Common });

/** A window's state as the window system shows it after a `window` op. */
export const WindowState = z.strictObject({
  /** The window still exists (false once a close took). */
  exists: z.boolean(),
  /** Its inside, in screen points. */
  bounds: Bounds,
  state: z.enum(["normal", "minimized", "maximized", "fullscreen"]),
  /** It holds the keyboard focus. */
  focused: z.boolean(),
  /** Its place among the painted top-level windows: 0 on top, -1 when not painted. */
  stacking: z.number().int(),
});

/** `window`. */
export const WindowResult = z.strictObject({
  /** The window came to the asked state (read back from the window system). */
  ok: z.boolean(),
  window: z.string(),
  state: WindowState,
  /** What the window shows instead, when `ok` is false. */
  found: z.string().optional(),
  /** Windows that appeared meanwhile: a close answered by an unsaved-changes dialog. */
  opened: z.array(WindowInfo).optional(),
  ...Common,
});

/** An app as `list_apps` lists it. */
const AppEntry = z.strictObject({
  app: z.string(),
  pid: z.number().int(),
  name: z.string(),
  windows: z.array(WindowInfo),
});

/** `launch_app`. */
export const LaunchAppResult = z.strictObject({
  ok: z.literal(true),
  /** The desktop entry started. */
  id: z.string(),
  /** The process started. */
  pid: z.number().int(),
  /** The app once its first window is listed. */
  app: AppEntry,
  ...Common,
});

/** `close_app`. */
export const CloseAppResult = z.strictObject({
  /** Every window closed and the process gone. */
  ok: z.boolean(),
  /** Each window the app had, and whether it closed. */
  windows: z.array(z.strictObject({ window: z.string(), title: z.string(), closed: z.boolean() })),
  /** Windows the app opened meanwhile (an unsaved-changes dialog), never dismissed. */
  opened: z.array(WindowInfo).optional(),
  /** The app's process is gone. */
  exited: z.boolean(),
  /** It was ended by a signal (`force`), not by closing its windows. */
  forced: z.boolean().optional(),
  ...Common,
});

/** `clipboard_get`. */
export const ClipboardGetResult = z.strictObject({
  selection: z.enum(["clipboard", "primary"]),
  /** The selection's text; null when nobody owns it or its owner has no text. */
  text: z.string().nullable(),
  /** The owner had more than `max_bytes`: `text` is their beginning. */
  truncated: z.boolean().optional(),
  ...Common,
});

/** `clipboard_set`. */
export const ClipboardSetResult = z.strictObject({
  ok: z.literal(true),
  selection: z.enum(["clipboard", "primary"]),
  /** The text's size in UTF-8 bytes. */
  bytes: z.number().int(),
  ...Common,
});

/** `trace_start`: the folder the trace is written to. */
export const TraceStartResult = z.strictObject({ path: z.string(), ...Common });

/** `trace_stop`: the finished trace's folder and what it holds. */
export const TraceStopResult = z.strictObject({
  path: z.string(),
  /** Op lines written. */
  ops: z.number().int().min(0),
  /** Distinct screenshots stored. */
  images: z.number().int().min(0),
  /** Bytes of those screenshots. */
  image_bytes: z.number().int().min(0),
  /** The size cap was reached: later steps have no screenshots (the trace says from when). */
  images_capped: z.boolean(),
  ...Common,
});
