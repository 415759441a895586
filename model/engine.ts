/**
 * The one contract every engine implements (AT-SPI, UI Automation, AX, Cua, vision).
 *
 * Engines hold native handles and know nothing of RPC, ids or versions: they answer raw
 * trees ({@link RawNode}) that the element map (`map/`) turns into ids and versions, and
 * they perform actions on the handles the map kept for each id. The router sees engines
 * only through this interface.
 *
 * @module
 */
import type { ActionName, Bounds, TableRange } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";
import type { Covering, WindowState } from "../protocol/results.ts";
import type { WindowParams } from "../protocol/params.ts";
import type { z } from "zod";

/** One accessible node as an engine read it, before the map gives it an id. */
export interface RawNode {
  /** Engine-private handle; opaque to every other layer. */
  handle: string;
  /** Role in the AX vocabulary (`AXButton`, `AXStaticText`, ...). */
  role: string;
  /** Accessible name ("" when none). */
  name: string;
  /** Value or text contents, when the node has one. */
  value?: string;
  /** Why `name` is empty or partial although the node shows text (vision's OCR). */
  unread?: string;
  /** Screen points. */
  bounds: Bounds;
  /** Sensitive / enabled. */
  enabled: boolean;
  /** Has keyboard focus. */
  focused: boolean;
  /** What {@link Engine.act} can do with this node. */
  actions: ActionName[];
  /** Children in tree order. */
  children: RawNode[];
  /**
   * How many children the app itself said the node has when it was read, hidden ones
   * included, when the engine knows: the live map's child-list check compares it with
   * {@link Engine.childCounts} to catch rows added without a notification.
   */
  childCount?: number;
  /** `value` was cut at the engine's text limit. */
  truncated?: boolean;
  /** A table read by its visible range: its size and which cells `children` holds. */
  table?: TableRange;
  /** A checkable element's state (`"mixed"`: indeterminate); absent when not checkable. */
  checked?: boolean | "mixed";
  /** An expandable element's state; absent when it cannot expand. */
  expanded?: boolean;
  /** A selectable element's state; absent when it cannot be selected. */
  selected?: boolean;
  /**
   * A table cell's row and column (0-based), when the engine knows them: the cell's id is
   * then keyed by them, not by its name or contents (`map/ids.ts`). Absent elsewhere.
   */
  cell?: { row: number; column: number };
  /**
   * The text of the element's label (a label relation: the "Size" beside a combo box),
   * when the engine read one. A field, combo or slider, whose name may be its value, is
   * keyed by it rather than by its name (`map/ids.ts`). Absent elsewhere.
   */
  label?: string;
}

/** How much of a node a patch reads again. */
export type PatchScope = "bounds" | "node" | "subtree";

/** One node a patch reads again. */
export interface NodeRequest {
  /** The node's handle. */
  handle: string;
  /**
   * `bounds`: only its bounds moved (the answer's other fields mean nothing); `node`: its
   * own attributes; `subtree`: its attributes and children (a structural change).
   */
  scope: PatchScope;
}

/** Whether an engine can serve on this machine, and why not. */
export interface Availability {
  /** True when the engine can serve structured calls. */
  available: boolean;
  /** Why not (`no_display`, `no_accessibility_bus`, `wrong_os`, ...). */
  reason?: string;
}

/** A top-level window as listed by an engine. */
export interface WindowInfo {
  /** Engine-stable window id for the window's lifetime. */
  window: string;
  /** Title. */
  title: string;
  /** Screen points. */
  bounds: Bounds;
  /** The window is active. */
  focused: boolean;
  /** What kind of window, when the engine knows. */
  role?: WindowRole;
  /** It blocks input to the rest of its app until closed (a modal dialog). */
  modal?: boolean;
  /** The window of the same app this one belongs to (a dialog's main window), when known. */
  parent?: string;
}

/** Kinds of top-level windows an agent tells apart. */
export type WindowRole = "window" | "dialog" | "alert" | "menu" | "popup";

/** A running application with its windows. */
export interface AppInfo {
  /** Engine-stable app id. */
  app: string;
  /** Process id (0 when unknown). */
  pid: number;
  /** Application name, as a caller would type it. */
  name: string;
  /** Top-level windows. */
  windows: WindowInfo[];
  /**
   * Set only on an app listed although it did not answer the listing (hung, or its
   * accessibility bridge blocked by a modal dialog): it is listed from its last listing
   * and its X windows rather than left out.
   */
  live?: AppLiveState;
}

/** Why an app is listed from memory: `reason`, and how old that memory is. */
export interface AppLiveState {
  /** Always `degraded`: what is listed was not answered now. */
  state: "degraded";
  /** Why (`app_not_responding`). */
  reason: string;
  /** Age of the last listing the app answered, in ms; absent when it never answered. */
  age_ms?: number;
}

/** Limits and cancellation for one read. */
export interface ReadBudget {
  /** Stop walking after this many nodes and say `truncated`. */
  maxElements: number;
  /** Aborts when the caller's deadline passes. */
  signal: AbortSignal;
  /** Per-call timeout for this read (watched apps get a short one so a hung app answers fast). */
  callTimeoutMs?: number;
}

/** A window's tree and what reading it cost. */
export interface WindowTree {
  /** The window node itself. */
  root: RawNode;
  /** Nodes visited. */
  nodes: number;
  /** Wall time of the walk. */
  ms: number;
  /** The budget cut the walk short. */
  truncated: boolean;
  /** The engine's own word that this tree is unusable (Cua's `degraded_reason`). */
  degradedReason?: string;
  /** Windows on top of part of this one, whose parts a read from pixels left out. */
  covered?: Covering[];
}

/** Pixels of one capture, RGBA, row-major, no padding. */
export interface Capture {
  /** Width in pixels. */
  width: number;
  /** Height in pixels. */
  height: number;
  /** Pixels per screen point. */
  scale: number;
  /** Screen point of the capture's top-left pixel. */
  origin: { x: number; y: number };
  /** `width * height * 4` bytes. */
  rgba: Uint8Array;
}

/** Screen-wide input, in screen points. */
export type PixelInput =
  | {
    kind: "click";
    x: number;
    y: number;
    button: "left" | "right" | "middle";
    count: number;
    /** A modifier held down over the click (`ctrl`: a list adds the row to its selection). */
    holding?: "ctrl";
  }
  /**
   * `keyboard`: the pointer only gives the window under it the keyboard (with no window
   * manager, X sends keys there), so it need not land on the element.
   */
  | { kind: "move"; x: number; y: number; keyboard?: true }
  | { kind: "drag"; from: { x: number; y: number }; to: { x: number; y: number } }
  | { kind: "scroll"; x?: number; y?: number; dx: number; dy: number }
  | { kind: "type"; text: string }
  | { kind: "key"; keys: string }
  | { kind: "hold"; key: string; ms: number };

/** How an action was carried out, so callers know when it was not the native path. */
export interface ActOutcome {
  /**
   * `action`: the accessibility interface did it; `pixel`: input at the element's point;
   * `keys`: the element was focused and the text typed.
   */
  via: "action" | "pixel" | "keys";
  /**
   * What the element holds when, read back, it does not hold what was asked (`set_value`,
   * `type_text`): the action failed, and the caller is told with what there is.
   */
  found?: string;
  /**
   * The element already was as asked (`check` on a checked box, `expand` on an open row):
   * nothing was sent to the app, so there is nothing to wait for.
   */
  already?: true;
  /**
   * The action was done but cannot be read back (a password field's text, a page's grid
   * row whose selection Gecko does not show): `found` means nothing.
   */
  verified?: false;
  /** The widget was told to take its new value (Return after a spin box's text). */
  commit?: "enter";
  /**
   * Other nodes (handles) the action changed besides the element, which may not announce
   * it: a combo whose option was selected. The map reads them again with the element.
   */
  alsoChanged?: string[];
}

/** What an action asks beyond its name and text. */
export interface ActOptions {
  /**
   * `select`: add the element to its list's selection rather than replace the selection.
   * An engine that cannot add refuses (`action_not_supported`); it never replaces instead.
   */
  extend?: boolean;
  /**
   * `set_value`: give the field Return once its text is in, for an app that reads the
   * field only then. An engine that cannot refuses (`action_not_supported`).
   */
  commit?: "enter";
  /**
   * `set_value` / `type_text`: the text is a secret. The engine types it only into the
   * element holding the focus itself, and never echoes it (not in a refusal either).
   */
  secret?: boolean;
}

/** A change an app announced; the live map turns these into patches. */
export interface EngineEvent {
  /** Window the change belongs to, when the engine knows it. */
  window?: string;
  /** Engine-stable app id (as in {@link AppInfo.app}). */
  app: string;
  /**
   * What changed, coarse enough to compare across engines; `gone`: the app quit;
   * `muted`: the engine stopped hearing some of the app's changes (why in `detail`), so
   * its windows cannot stay live; `unmuted`: it hears them again after missing some;
   * `placed`: the window system moved, resized or reparented `window` (a window manager
   * framing it), which apps often do not announce, so every bound in it may have moved.
   */
  kind:
    | "structure"
    | "property"
    | "state"
    | "text"
    | "bounds"
    | "window"
    | "focus"
    | "gone"
    | "muted"
    | "unmuted"
    | "placed";
  /** The node named by the notification, when there is one. */
  handle?: string;
  /** The toolkit's detail (AT-SPI: the state name of a state change, e.g. `showing`). */
  detail?: string;
}

/**
 * Runs input that lands by screen position (a click standing in for an action, keys typed
 * into the focused window) while no other input anywhere runs: the driver's exclusive
 * pixel lock. An engine wraps such input in the gate `act` is given; without one it runs
 * the input as it is. `aims` (default true) says the input lands at the element's point
 * (a click, not keys): it then waits for the element to rest.
 */
export type InputGate = <T>(input: () => Promise<T>, aims?: boolean) => Promise<T>;

/** Does `input` land at a point that must be the element's (not keys, nor a move for them)? */
export function aimsAtPoint(input: PixelInput): boolean {
  return input.kind === "click" || input.kind === "drag" || input.kind === "scroll" ||
    (input.kind === "move" && input.keyboard !== true);
}

/** Is `input` keyboard input (keys land wherever the keyboard focus is)? */
export function isKeys(input: PixelInput): boolean {
  return input.kind === "type" || input.kind === "key" || input.kind === "hold";
}

/**
 * Refuses keys aimed at `window` on an engine that cannot yet prove where keys land
 * (`action_not_supported`): sending them to whatever holds the focus could type into
 * another app. Other input, and keys aimed at no window, pass.
 */
export function refuseAimedKeys(engine: string, input: PixelInput, window?: string): void {
  if (window === undefined || !isKeys(input)) return;
  throw new DriverError(
    "action_not_supported",
    `Cannot send keys to window "${window}" on the ${engine} engine: it cannot yet make a ` +
      "window the keyboard focus and prove it; send them without a window to type into " +
      "whatever has the focus",
    { actions: [], engine },
  );
}

/**
 * Refuses the {@link ActOptions} an engine has no way to honour (`action_not_supported`):
 * `select` with `extend` (replacing the selection instead would undo what the caller
 * selected before) and `commit` (a set left uncommitted would be answered as done).
 */
export function refuseOptions(engine: string, node: RawNode, options?: ActOptions): void {
  if (options?.commit !== undefined) {
    throw new DriverError(
      "action_not_supported",
      `Cannot commit "${node.name || node.role}" by Enter on the ${engine} engine: send ` +
        "`pixel_key Return` with its window after the set",
      { actions: node.actions, engine },
    );
  }
  if (options?.extend !== true) return;
  throw new DriverError(
    "action_not_supported",
    `Cannot add "${node.name || node.role}" to a selection on the ${engine} engine: it ` +
      "can only select one element, replacing the selection",
    { actions: node.actions, engine },
  );
}

/** Runs `input` with no gate. */
export function ungated<T>(input: () => Promise<T>): Promise<T> {
  return input();
}

/** The engine contract. */
export interface Engine {
  /** Short name used in `hello`, the router and the audit log. */
  readonly name: string;
  /** The ops this engine can serve (router: capability first). */
  readonly ops: readonly string[];
  /**
   * False for engines that cannot announce changes (vision, a polled Cua): the live map
   * then treats their windows as degraded and reads them again after a short reuse.
   */
  readonly notifies?: boolean;
  /** Can it serve here, and if not, why. Cheap; may be cached by the engine. */
  availability(): Promise<Availability>;
  /** Running apps with their windows. */
  listApps(signal: AbortSignal): Promise<AppInfo[]>;
  /** Walks one window's tree. */
  readWindow(window: string, budget: ReadBudget): Promise<WindowTree>;
  /**
   * Re-reads named nodes for a patch, each as far as its {@link NodeRequest.scope} says.
   * Below `subtree` the answer's `children` is empty and means nothing. `null` for a node
   * that is gone.
   */
  readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>>;
  /** Child count of the window node (staleness probe, first call). */
  childCount(window: string, signal: AbortSignal): Promise<number>;
  /** Handle of the app's focused node (staleness probe, second call). */
  focusedHandle(window: string, signal: AbortSignal): Promise<string | null>;
  /** Performs an action on a node of `window`. */
  act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate?: InputGate,
    options?: ActOptions,
  ): Promise<ActOutcome>;
  /**
   * A cheap fingerprint of the screen's top-level windows (window system ids, no names,
   * no geometry), for engines that list windows from the window system (vision): `act`
   * takes it before an action and asks {@link Engine.windowsSince} after it, to find
   * windows no notification announced.
   */
  screenWindows?(signal: AbortSignal): Promise<string[]>;
  /** The window ids (as `listApps` gives them) of the windows that appeared since `before`. */
  windowsSince?(before: readonly string[], signal: AbortSignal): Promise<string[]>;
  /**
   * Screen-wide pointer and keyboard input. Keys with `window` go to that window only: the
   * engine makes it the keyboard focus and proves it before the first key and between
   * chunks of a long text, else refuses with `focus_denied`; an engine that cannot prove
   * where keys land refuses keys aimed at a window (`action_not_supported`).
   */
  input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void>;
  /** The system's launchable apps (desktop entries on Linux), by id and name. */
  launchables?(signal: AbortSignal): Promise<{ id: string; name: string }[]>;
  /**
   * Starts launchable `id` (as {@link launchables} names it) with `args` (files, URLs):
   * the started process and its program's name.
   */
  launch?(
    id: string,
    args: readonly string[],
    signal: AbortSignal,
  ): Promise<{ pid: number; program: string }>;
  /** Waits `graceMs` for process `pid` to exit; with `force`, then ends it by signals. */
  endProcess?(
    pid: number,
    options: { force: boolean; graceMs: number },
    signal: AbortSignal,
  ): Promise<{ gone: boolean; forced: boolean }>;
  /** Selection `selection`'s text, at most `maxBytes`; null when nobody owns it. */
  clipboardGet?(
    selection: "clipboard" | "primary",
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<{ text: string; truncated: boolean } | null>;
  /** Owns selection `selection` with `text` until another client takes it. */
  clipboardSet?(
    selection: "clipboard" | "primary",
    text: string,
    signal: AbortSignal,
  ): Promise<void>;
  /**
   * A window operation (`window`), answered with the window's state read back from the
   * window system once it shows the change or a short wait passed (`reached` says which).
   * Engines that cannot place windows leave it out: the driver answers
   * `action_not_supported` naming the engine.
   */
  windowOp?(
    window: string,
    request: WindowRequest,
    signal: AbortSignal,
  ): Promise<{ state: z.infer<typeof WindowState>; reached: boolean }>;
  /**
   * Pixels of a window, or of the whole screen without one: a new capture the caller owns
   * (the driver hands its pixels to its image worker, so an engine keeps no reference).
   */
  capture(window: string | undefined, signal: AbortSignal): Promise<Capture>;
  /** Starts delivering change notifications; returns the unsubscribe function. */
  subscribe(listener: (event: EngineEvent) => void): Promise<() => Promise<void>>;
  /**
   * Narrows element-level notifications to the apps whose windows are watched, so an
   * app nobody reads costs nothing. Engines without it deliver every app's changes.
   * Resolves once the engine hears all of `apps`; rejects if it cannot hear one.
   */
  follow?(apps: readonly string[]): Promise<void>;
  /**
   * The windows the live map watches (before a first read too): an engine that hears the
   * window system place them (X moves, resizes, reparenting into a window manager's
   * frame) announces each change as a `placed` event, since apps often announce none.
   * Engines without it rely on the apps' notifications alone.
   */
  watchPlacement?(windows: readonly string[]): void;
  /**
   * Delivers at once, synchronously, what the engine has heard but not passed on yet
   * (X events read on a timer), so that a map about to be answered from memory is not
   * older than what the window system already said. Makes no accessibility call.
   */
  flushEvents?(): void;
  /**
   * The app's current child count of each node (`null`: the node is gone), one cheap
   * call each: the live map's child-list check of the containers around what a patch
   * reads. Engines without it skip the check.
   */
  childCounts?(
    window: string,
    handles: readonly string[],
    budget: ReadBudget,
  ): Promise<Map<string, number | null>>;
  /**
   * Searches the whole tree of `window`, hidden and scrolled-out parts too, and the rows
   * of a long list or table that are not realized, within `budget`. Engines without it
   * answer `find` from the map alone.
   */
  search?(window: string, filter: SearchFilter, budget: SearchBudget): Promise<SearchResult>;
  /** Accessibility calls and window walks so far (tests and `hello` count them). */
  stats(): EngineStats;
  /** Releases every native resource; idempotent. */
  close(): Promise<void>;
}

/**
 * What `find` with `scope: "all"` looks for beyond the map. `maybe` sees only a node's role
 * and name, before anything else is read, and prunes the search; `accept` sees the node as
 * a read would make it (value, bounds, states) and decides.
 */
export interface SearchFilter {
  /** Could this node match, from its role and name alone? */
  maybe(role: string, name: string): boolean;
  /** Does the fully read node match? */
  accept(node: RawNode): boolean;
  /** Stop after this many matches. */
  maxResults: number;
}

/** Limits of one search of a window's whole tree. */
export interface SearchBudget {
  /** Most nodes asked about. */
  maxNodes: number;
  /** The search stops (and answers what it found) when this aborts. */
  stop: AbortSignal;
  /** Aborts when the caller's deadline passes. */
  signal: AbortSignal;
}

/** What a search found, and how far it got. */
export interface SearchResult {
  /** Matching nodes, each read alone (`children` empty), in the order found. */
  nodes: RawNode[];
  /** Nodes asked about. */
  visited: number;
  /** False when the budget or the time ran out before the whole tree was searched. */
  complete: boolean;
  /**
   * The handle of each found node's parent, by the found node's handle (absent for the
   * window itself, and from engines that cannot tell): callers place a match in the tree.
   */
  parents?: ReadonlyMap<string, string>;
}

/** Work an engine has done since it started. */
export interface EngineStats {
  /** Calls into the accessibility API. */
  calls: number;
  /** Full reads of a window. */
  walks: number;
}

/** A `window` op as an engine gets it: what to do, without the window it names. */
export type WindowRequest = Omit<z.infer<typeof WindowParams>, "window" | "timeout_ms">;
