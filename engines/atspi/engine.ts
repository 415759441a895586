/**
 * The Linux engine: AT-SPI over the accessibility bus for trees and element actions,
 * XTest and XGetImage (platform/x11) for pointer, keyboard and pixels.
 *
 * @module
 */
import type { DBusConnection } from "../../platform/dbus/mod.ts";
import type { ActionName, Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import {
  type ActOptions,
  type ActOutcome,
  aimsAtPoint,
  type AppInfo,
  type Availability,
  type Capture,
  type Engine,
  type EngineEvent,
  type EngineStats,
  type InputGate,
  type NodeRequest,
  type PixelInput,
  type RawNode,
  type ReadBudget,
  type SearchBudget,
  type SearchFilter,
  type SearchResult,
  ungated,
  type WindowRequest,
  type WindowTree,
} from "../../model/engine.ts";
import {
  captureScreen,
  operateWindow,
  processName,
  readSelection,
  SelectionOwner,
  sendInput,
  stackingOrder,
  topLevelWindows,
  type WindowFacts,
  X11Display,
} from "../../platform/x11/mod.ts";
import { entryDirs, entryId, listEntries } from "../../platform/xdg/desktop_entries.ts";
import { endProcess, launchEntry } from "../../platform/xdg/launch.ts";
import { log } from "../../util/log.ts";
import { performAction } from "./act.ts";
import {
  dropDeparted,
  listApps,
  type ListingMemory,
  type WindowEntry,
  withoutPhantoms,
} from "./apps.ts";
import { addParents, hasOwnedWindows } from "./parents.ts";
import { connectA11yBus } from "./bus.ts";
import { AtspiClient, type CallLimits, handleOf, NULL_PATH, type Ref, refOf } from "./client.ts";
import { AtspiEvents, MUTE_MS } from "./events.ts";
import {
  askToolkit,
  readSkeleton,
  skeletonByWalk,
  visibilityState,
  windowWithdrawn,
} from "./skeleton.ts";
import { STATE } from "./states.ts";
import { mapLimit } from "../../util/pool.ts";
import { buildTree, placeOf } from "./tree.ts";
import { askToFill, hasPage, untilFilled, Warmups } from "./first_read.ts";
import { isEmpty, uncover, visiblePart } from "./uncover.ts";
import { Known } from "./known.ts";
import { searchTree } from "./search.ts";
import { liveRef } from "./sheet.ts";
import { windowBoundsOr } from "./x_bounds.ts";
import { placedByX, shifted, shiftTree, WindowOrigins } from "./window_origin.ts";
import { ATSPI_OPS } from "./ops.ts";
import { PlacementWatch } from "../../platform/x11/placement.ts";
import { clientWindowAt, type FocusTarget } from "../../platform/x11/mod.ts";
import { clientWindowOf } from "../../platform/x11/client_window.ts";
import { WindowPlacement } from "./placement.ts";

/** Engine settings. */
export interface AtspiOptions {
  /** Per-call timeout for app calls. */
  appTimeoutMs?: number;
  /** Environment lookup (tests pass their own). */
  env?: (k: string) => string | undefined;
  /** How long an app that floods bounds notifications is first muted (default 30 s). */
  boundsMuteMs?: number;
}

/** The answer to a bounds-only patch read: only `handle` and `bounds` mean anything. */
const BOUNDS_ONLY: RawNode = {
  handle: "",
  role: "",
  name: "",
  bounds: { x: 0, y: 0, w: 0, h: 0 },
  enabled: false,
  focused: false,
  actions: [],
  children: [],
};

/** The first wait before connecting again to an accessibility bus that went away. */
const REBUS_MIN_MS = 250;
/** The longest wait between two tries. */
const REBUS_MAX_MS = 4_000;

/** AT-SPI + X11. */
/** The X selection behind each of `clipboard_*`'s names. */
const SELECTIONS = { clipboard: "CLIPBOARD", primary: "PRIMARY" } as const;
/** How long an owner gets to hand its text over (an INCR transfer included). */
const CLIPBOARD_MS = 5_000;

export class AtspiEngine implements Engine {
  readonly name = "atspi";
  readonly ops: readonly string[] = ATSPI_OPS;
  readonly #timeoutMs: number;
  readonly #env: (k: string) => string | undefined;
  readonly #muteMs: number;
  readonly #windows = new Map<string, WindowEntry>();
  /** Window ids whose app left the bus, with the app's name (apps.ts `dropDeparted`). */
  readonly #departed = new Map<string, string>();
  #bus: DBusConnection | undefined;
  #client: AtspiClient | undefined;
  #x11: X11Display | undefined;
  /** The selections this engine owns (clipboard_set), each until another client copies. */
  readonly #owners = new Set<SelectionOwner>();
  #connecting: Promise<AtspiClient> | undefined;
  #events: AtspiEvents | undefined;
  /** The subscriber's listener while subscribed: it hears the bus that replaces a lost one. */
  #heard: ((event: EngineEvent) => void) | undefined;
  /** The apps the subscriber follows, asked again of the events of a new bus. */
  #followed: readonly string[] = [];
  /** The next try to connect again after the bus went, and the wait before it. */
  #rebus: ReturnType<typeof setTimeout> | undefined;
  #rebusMs = REBUS_MIN_MS;
  /** X moves of watched windows, heard while subscribed (placement.ts). */
  #placement: WindowPlacement | undefined;
  /** Each window's title as last listed or read: how its X window is found. */
  readonly #titles = new Map<string, string>();
  /** Where GTK 4's windows are, whose extents are window-relative (window_origin.ts). */
  readonly #origins = new WindowOrigins();
  #closed = false;
  #walks = 0;
  readonly #shown = new Map<string, number>();
  /** Objects' fixed attributes and how each app is best read, across reads. */
  readonly #known = new Known();
  /** Gecko apps asked to fill their caches when listed (first_read.ts). */
  readonly #warmups = new Warmups();
  /** Each app's last answered listing: an app that stops answering stays listed (apps.ts). */
  readonly #listings: ListingMemory = { apps: new Map(), hung: new Set(), nameOf: processName };

  /** Nothing connects until the first call. */
  constructor(options: AtspiOptions = {}) {
    this.#timeoutMs = options.appTimeoutMs ?? 6_000;
    this.#env = options.env ?? ((k) => Deno.env.get(k));
    this.#muteMs = options.boundsMuteMs ?? MUTE_MS;
  }

  async availability(): Promise<Availability> {
    try {
      await this.#connect();
      this.#display();
      return { available: true };
    } catch (err) {
      const reason = err instanceof DriverError
        ? String(err.data.reason ?? err.message)
        : String(err);
      return { available: false, reason };
    }
  }

  #connect(): Promise<AtspiClient> {
    if (this.#client && this.#bus && !this.#bus.closed) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  /**
   * Connects to the accessibility bus (again, after a loss) and, while subscribed, starts
   * hearing its events before anyone can read through it: a read on the new bus must
   * never predate its notifications.
   */
  async #open(): Promise<AtspiClient> {
    const bus = await connectA11yBus(this.#env);
    if (this.#closed) {
      bus.close();
      throw new DriverError("driver_unavailable", "The AT-SPI engine is closed", {
        reason: "closed",
      });
    }
    if (this.#heard) {
      try {
        await this.#listen(bus);
      } catch (err) {
        bus.close();
        throw err;
      }
    }
    const client = new AtspiClient(bus);
    this.#bus = bus;
    this.#client = client;
    bus.onClose(() => this.#busLost(bus, client));
    return client;
  }

  /** Hears `bus`'s events (the subscriber's listener), following the followed apps. */
  async #listen(bus: DBusConnection): Promise<void> {
    const heard = this.#heard;
    if (!heard) return;
    const events = new AtspiEvents(bus, heard, { muteMs: this.#muteMs });
    try {
      await events.start();
      if (this.#followed.length > 0) await events.follow(this.#followed);
    } catch (err) {
      await events.close();
      throw err;
    }
    const before = this.#events;
    this.#events = events;
    this.#known.focusHeard = true;
    if (before) await before.close();
  }

  /**
   * The accessibility bus went (it, or the session bus it was found on, was restarted): every
   * app on it is gone for the engine, since bus names never carry over to another bus, and
   * the subscriber is told so. While subscribed, the engine connects again on its own, with
   * a growing wait; any call connects again at once.
   */
  #busLost(bus: DBusConnection, client: AtspiClient): void {
    if (this.#closed || this.#bus !== bus) return;
    const apps = new Set([
      ...this.#listings.apps.keys(),
      ...[...this.#windows.values()].map((w) => w.ref.bus),
    ]);
    log("warn", "the accessibility bus connection closed; apps on it are gone", {
      apps: apps.size,
    });
    const none = new Set<string>();
    this.#windows.clear();
    this.#departed.clear();
    this.#titles.clear();
    this.#shown.clear();
    this.#listings.apps.clear();
    this.#listings.hung.clear();
    this.#known.keep(none);
    this.#warmups.keep(none);
    this.#origins.keep(() => false);
    void client.close();
    // The followed apps were that bus's; the subscriber follows the next bus's anew.
    this.#followed = [];
    const events = this.#events;
    this.#events = undefined;
    this.#known.focusHeard = false;
    void events?.close();
    for (const app of apps) this.#heard?.({ app, kind: "gone" });
    if (this.#heard) this.#reconnectLater();
  }

  /** Tries to connect again after a wait, until it does or the subscriber leaves. */
  #reconnectLater(): void {
    if (this.#rebus !== undefined || this.#closed) return;
    this.#rebus = setTimeout(() => {
      this.#rebus = undefined;
      if (this.#closed || !this.#heard) return;
      this.#connect().then(() => {
        this.#rebusMs = REBUS_MIN_MS;
        log("info", "the accessibility bus is back: connected and subscribed again", {});
      }, (err) => {
        this.#rebusMs = Math.min(this.#rebusMs * 2, REBUS_MAX_MS);
        log("debug", "the accessibility bus is still gone", { error: String(err) });
        this.#reconnectLater();
      });
    }, this.#rebusMs);
    Deno.unrefTimer(this.#rebus);
  }

  #display(): X11Display {
    this.#x11 ??= X11Display.open(this.#env("DISPLAY"));
    return this.#x11;
  }

  #limits(signal?: AbortSignal): CallLimits {
    return { timeoutMs: this.#timeoutMs, signal };
  }

  async listApps(signal: AbortSignal): Promise<AppInfo[]> {
    const client = await this.#connect();
    const listing = await listApps(
      client,
      { timeoutMs: Math.min(this.#timeoutMs, 1_000), signal },
      this.#windows,
      this.#listings,
    );
    const present = listing.present;
    let apps = listing.apps;
    // An app that left the bus never comes back under its name: what was kept for it goes.
    dropDeparted(this.#windows, present, this.#departed);
    this.#known.keep(present);
    this.#warmups.keep(present);
    client.keep(present);
    for (const id of this.#shown.keys()) if (!this.#windows.has(id)) this.#shown.delete(id);
    this.#origins.keep((id) => this.#windows.has(id));
    for (const app of apps) {
      client.prepare(app.app);
      const windows = app.windows.flatMap((w) => this.#windows.get(w.window)?.ref ?? []);
      void this.#warmUp(client, app.app, windows);
      const relative = this.#known.windowRelative.has(app.app);
      for (const w of app.windows) {
        this.#titles.set(w.window, w.title);
        w.bounds = relative
          ? placedByX(this.#display(), app.pid, w.title, w.bounds)
          : windowBoundsOr(w.bounds, () => this.#display(), app.pid, w.title);
      }
    }
    // Untitled windows X paints nowhere are no one's to use (withoutPhantoms).
    if (apps.some((a) => a.windows.some((w) => w.title === ""))) {
      try {
        const painted = stackingOrder(this.#display());
        // GTK 4 places its windows relative to themselves: X is no check of those.
        apps = apps.map((a) =>
          this.#known.windowRelative.has(a.app) ? a : withoutPhantoms(a, painted)
        );
      } catch (err) {
        log("debug", "no painted windows from X", { error: String(err) });
      }
    }
    // Owners come from X, asked only when some window can have one.
    if (hasOwnedWindows(apps)) {
      try {
        addParents(apps, topLevelWindows(this.#display()));
      } catch (err) {
        log("debug", "no window owners from X", { error: String(err) });
      }
    }
    return apps;
  }

  /** The window entry for an id, listing apps again once when it is not known yet. */
  async window(id: string, signal: AbortSignal): Promise<WindowEntry> {
    let entry = this.#windows.get(id);
    if (!entry && !this.#departed.has(id)) {
      await this.listApps(signal);
      entry = this.#windows.get(id);
    }
    const app = this.#departed.get(id);
    if (!entry && app !== undefined) {
      throw new DriverError("app_not_running", `The app of window "${id}" (${app}) quit`, {});
    }
    if (!entry) throw new DriverError("window_not_found", `No window "${id}"`, { version: 0 });
    return entry;
  }

  /** Asks a Gecko app met for the first time to fill its caches (first_read.ts). */
  #warmUp(client: AtspiClient, bus: string, windows: Ref[]): Promise<void> {
    const limits = this.#limits();
    const known = this.#known;
    return this.#warmups.start(bus, async () => {
      if (!known.toolkits.has(bus)) await askToolkit(client, bus, limits, known);
      if (known.toolkits.get(bus) !== "Gecko") return "none";
      return await askToFill(client, bus, windows, limits, known);
    });
  }

  async readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    const started = performance.now();
    const before = this.#windows.get(window)?.ref.bus;
    if (before !== undefined && !this.#known.filled.has(before)) {
      await this.#warmups.settled(before, budget.signal);
    }
    const asking = performance.now();
    const tree = await this.#readWindow(window, budget);
    const bus = this.#windows.get(window)?.ref.bus;
    if (bus === undefined || this.#known.filled.has(bus)) return tree;
    if (this.#known.toolkits.get(bus) !== "Gecko") {
      this.#known.filled.add(bus);
      return tree;
    }
    // Gecko answers its own windows' objects itself; a page's come from the caches.
    if (!hasPage(tree)) return tree;
    this.#known.filled.add(bus);
    if (this.#warmups.warmAt(bus, asking)) return tree;
    const again = await untilFilled(tree, () => {
      this.#known.forget(bus);
      return this.#readWindow(window, budget);
    });
    return { ...again, ms: performance.now() - started };
  }

  async #readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    const started = performance.now();
    this.#walks++;
    const client = await this.#connect();
    const { ref, pid } = await this.window(window, budget.signal);
    const limits = { timeoutMs: budget.callTimeoutMs ?? this.#timeoutMs, signal: budget.signal };
    const skeleton = await this.#ofWindow(
      window,
      ref,
      client,
      limits,
      () => readSkeleton(client, ref, limits, budget.maxElements * 4, this.#known),
    );
    const top = skeleton.get(ref.path);
    if (top && windowWithdrawn(top.states)) {
      this.#windows.delete(window);
      throw new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 });
    }
    const shown = visibilityState(skeleton, ref.path);
    this.#shown.set(window, shown);
    const tree = await buildTree(
      client,
      skeleton,
      ref.path,
      budget.maxElements,
      limits,
      shown,
      this.#known,
    );
    if (!tree) {
      this.#windows.delete(window);
      throw new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 });
    }
    let { root } = tree;
    this.#titles.set(window, root.name);
    if (this.#known.windowRelative.has(ref.bus)) {
      const shift = this.#origins.measure(window, this.#display(), pid, root.name, root.bounds);
      root = shiftTree(root, shift);
    }
    const bounds = windowBoundsOr(root.bounds, () => this.#display(), pid, root.name);
    return { ...tree, root: { ...root, bounds }, ms: performance.now() - started };
  }

  /**
   * The screen rectangle of window `window` (`entry`), from X when the toolkit gives none
   * (Java), moved to where X shows it when the toolkit's is window-relative (GTK 4).
   */
  async #boundsOf(
    client: AtspiClient,
    window: string,
    entry: WindowEntry,
    limits: CallLimits,
  ): Promise<Bounds> {
    const [x, y, w, h] = await client.extents(entry.ref, limits);
    const b = { x, y, w, h };
    if (this.#known.windowRelative.has(entry.ref.bus)) return shifted(b, this.#origins.of(window));
    if (!isEmpty(b)) return b;
    const title = String(await client.prop(entry.ref, "Accessible", "Name", limits) ?? "");
    return windowBoundsOr(b, () => this.#display(), entry.pid, title);
  }

  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    // The window's own visibility rule, learnt on its last full read (GTK 4: VISIBLE).
    const shown = this.#shown.get(window) ?? STATE.SHOWING;
    const shift = this.#origins.of(window);
    return await this.#eachNode(
      window,
      requests,
      budget,
      async ({ handle, scope }, client, limits) => {
        const ref = await liveRef(client, handle, limits);
        if (scope === "bounds") {
          // An animation posts bounds by the hundred: one call each, not a node read.
          const [x, y, w, h] = await client.extents(ref, limits);
          return { ...BOUNDS_ONLY, handle, bounds: shifted(placeOf({ x, y, w, h }), shift) };
        }
        const max = scope === "subtree" ? budget.maxElements : 1;
        const known = this.#known;
        const skeleton = await skeletonByWalk(client, ref, limits, { max, shown, known });
        const tree = await buildTree(client, skeleton, ref.path, max, limits, shown, known);
        return tree ? shiftTree(tree.root, shift) : null;
      },
    );
  }

  async search(window: string, filter: SearchFilter, budget: SearchBudget): Promise<SearchResult> {
    const client = await this.#connect();
    const { ref } = await this.window(window, budget.signal);
    const limits = this.#limits(AbortSignal.any([budget.signal, budget.stop]));
    const shown = this.#shown.get(window) ?? STATE.SHOWING;
    const found = await searchTree(client, ref, limits, filter, budget, this.#known, shown);
    const shift = this.#origins.of(window);
    return { ...found, nodes: found.nodes.map((n) => shiftTree(n, shift)) };
  }

  async childCounts(
    window: string,
    handles: readonly string[],
    budget: ReadBudget,
  ): Promise<Map<string, number | null>> {
    return await this.#eachNode(
      window,
      handles.map((handle) => ({ handle })),
      budget,
      async ({ handle }, client, limits) =>
        Number(
          await client.prop(
            await liveRef(client, handle, limits),
            "Accessible",
            "ChildCount",
            limits,
          ),
        ),
    );
  }

  /**
   * Reads each named node of `window` (16 at a time), by handle; a node that is gone
   * answers `null`, any other failure fails the whole read.
   */
  async #eachNode<I extends { handle: string }, T>(
    window: string,
    items: readonly I[],
    budget: ReadBudget,
    read: (item: I, client: AtspiClient, limits: CallLimits) => Promise<T | null>,
  ): Promise<Map<string, T | null>> {
    const client = await this.#connect();
    await this.window(window, budget.signal);
    const limits = { timeoutMs: budget.callTimeoutMs ?? this.#timeoutMs, signal: budget.signal };
    const out = new Map<string, T | null>();
    await mapLimit(items, 16, async (item) => {
      try {
        out.set(item.handle, await read(item, client, limits));
      } catch (err) {
        if (err instanceof DriverError && err.code === "element_not_found") {
          out.set(item.handle, null);
        } else throw err;
      }
    });
    return out;
  }

  async childCount(window: string, signal: AbortSignal): Promise<number> {
    const client = await this.#connect();
    const { ref } = await this.window(window, signal);
    const limits = this.#limits(signal);
    return Number(
      await this.#ofWindow(
        window,
        ref,
        client,
        limits,
        () => client.prop(ref, "Accessible", "ChildCount", limits),
      ),
    );
  }

  /**
   * Runs `call` on window `window`'s own object: when it fails as "element gone" and the
   * window object itself is gone (a dialog a button just closed), the window is what is
   * gone, and the caller is told so (`window_not_found`), not handed its object path.
   */
  async #ofWindow<T>(
    window: string,
    ref: Ref,
    client: AtspiClient,
    limits: CallLimits,
    call: () => Promise<T>,
  ): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof DriverError && err.code === "element_not_found")) throw err;
      const gone = await client.states(ref, limits).then(
        (states) => states.has(STATE.DEFUNCT),
        (e) => e instanceof DriverError && e.code === "element_not_found",
      );
      if (!gone) throw err;
      this.#windows.delete(window);
      throw new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 }, {
        cause: err,
      });
    }
  }

  async focusedHandle(window: string, signal: AbortSignal): Promise<string | null> {
    const client = await this.#connect();
    const { ref } = await this.window(window, signal);
    // AT-SPI has no cheap "focused element of this app" query (the registry does not
    // expose it, and finding it means walking). The probe's second call answers the
    // window's state set instead: it changes when focus enters or leaves the window,
    // which is the change a notification should have announced.
    const limits = this.#limits(signal);
    const [state] = await this.#ofWindow(
      window,
      ref,
      client,
      limits,
      () => client.call(ref, "Accessible", "GetState", limits),
    );
    return `${handleOf(ref)}#${(state as number[]).join(",")}`;
  }

  async act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate: InputGate = ungated,
    options: ActOptions = {},
  ): Promise<ActOutcome> {
    const client = await this.#connect();
    const entry = await this.window(window, signal);
    const limits = this.#limits(signal);
    const ref = await liveRef(client, node.handle, limits);
    if (ref.path === NULL_PATH) throw new DriverError("element_not_found", "Element is gone");
    // Pointer input goes to the element's visible part: the window cuts off what is
    // scrolled out of it.
    const frame = await this.#boundsOf(client, window, entry, limits);
    const visible = { ...node, bounds: visiblePart(node.bounds, frame) };
    // Scrolling and words compare the window with the toolkit's own extents: its frame as
    // the toolkit gives it (GTK 4's window-relative; window_origin.ts).
    const shift = this.#known.windowRelative.has(entry.ref.bus)
      ? this.#origins.of(window)
      : { dx: 0, dy: 0 };
    const ownFrame = { ...frame, x: frame.x - shift.dx, y: frame.y - shift.dy };
    return await performAction(
      client,
      // Pointer input lands by screen position: under the gate, and only where the
      // element's app is on top.
      (input) =>
        gate(async () => {
          await uncover(this.#display(), input, { pid: entry.pid });
          // Keys for the element go to its window, never to whatever holds the focus.
          await this.input(input, signal, window);
        }, aimsAtPoint(input)),
      ref,
      visible,
      ownFrame,
      action,
      value,
      limits,
      this.#known,
      options,
    );
  }

  async input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    const keys = input.kind === "type" || input.kind === "key" || input.kind === "hold";
    const target = keys && window !== undefined
      ? await this.#keysTarget(window, signal)
      : undefined;
    await sendInput(this.#display(), input, signal, target);
  }

  /**
   * The X client window keys for `window` must reach: the app's window of that title, else
   * its window the accessibility extents match; `focus_denied` when X shows none.
   */
  async launchables(signal: AbortSignal): Promise<{ id: string; name: string }[]> {
    signal.throwIfAborted();
    return (await listEntries(entryDirs(this.#env))).map(({ id, name }) => ({ id, name }));
  }

  async launch(
    id: string,
    args: readonly string[],
    signal: AbortSignal,
  ): Promise<{ pid: number; program: string }> {
    signal.throwIfAborted();
    const want = entryId(id);
    const entry = (await listEntries(entryDirs(this.#env))).find((e) => e.id === want);
    if (!entry) {
      throw new DriverError("invalid_params", `No desktop entry "${want}" on this system`, {
        issues: [{ path: ["id"], message: "list_apps with launchable: true lists them" }],
      });
    }
    // The driver's session, on the display and buses this engine reads.
    const env = Deno.env.toObject();
    for (const key of ["DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS"]) {
      const value = this.#env(key);
      if (value !== undefined) env[key] = value;
    }
    return launchEntry(entry, args, env);
  }

  endProcess(
    pid: number,
    options: { force: boolean; graceMs: number },
    signal: AbortSignal,
  ): Promise<{ gone: boolean; forced: boolean }> {
    return endProcess(pid, options, signal);
  }

  async clipboardGet(
    selection: "clipboard" | "primary",
    maxBytes: number,
    signal: AbortSignal,
  ): Promise<{ text: string; truncated: boolean } | null> {
    return await readSelection(this.#display().name, SELECTIONS[selection], {
      timeoutMs: CLIPBOARD_MS,
      maxBytes,
      signal,
    });
  }

  async clipboardSet(
    selection: "clipboard" | "primary",
    text: string,
    signal: AbortSignal,
  ): Promise<void> {
    // One owner per selection, kept until another client copies or the engine closes:
    // on X a copied text lives only as long as its owner.
    const owner = await SelectionOwner.claim(this.#display().name, SELECTIONS[selection], text, {
      signal,
    });
    this.#owners.add(owner);
    owner.onLost = () => this.#owners.delete(owner);
  }

  async windowOp(
    window: string,
    request: WindowRequest,
    signal: AbortSignal,
  ): Promise<{ state: WindowFacts; reached: boolean }> {
    const { xid } = await this.#keysTarget(window, signal);
    const out = await operateWindow(this.#display(), xid, request);
    // The map moves with the window: its placement is read before the next answer.
    this.#placement?.flush();
    return out;
  }

  async #keysTarget(window: string, signal: AbortSignal): Promise<FocusTarget> {
    const client = await this.#connect();
    const entry = await this.window(window, signal);
    const limits = this.#limits(signal);
    const [title, box] = await Promise.all([
      client.prop(entry.ref, "Accessible", "Name", limits).then((n) => String(n ?? "")),
      client.extents(entry.ref, limits),
    ]);
    const display = this.#display();
    const [x, y, w, h] = box;
    const xid = clientWindowOf(display, entry.pid, title) ??
      clientWindowAt(display, entry.pid, { x, y, w, h }, title);
    if (xid === undefined) {
      throw new DriverError(
        "focus_denied",
        `Cannot send keys to "${title}" (pid ${entry.pid}): X shows no window of it to focus`,
        { holder: null },
      );
    }
    return { xid, pid: entry.pid, title };
  }

  async capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    const display = this.#display();
    if (window === undefined) return captureScreen(display);
    const client = await this.#connect();
    const entry = await this.window(window, signal);
    return captureScreen(
      display,
      await this.#boundsOf(client, window, entry, this.#limits(signal)),
    );
  }

  async subscribe(listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    const known = this.#known;
    // `Event.Focus` (no detail; a `focused` state change may be a loss) says where each
    // app's focus went: an in-place cell editor is found by it (cell_editor.ts).
    const heard = (event: EngineEvent) => {
      if (event.kind === "focus" && event.detail === undefined && event.handle) {
        known.lastFocus.set(event.app, { path: refOf(event.handle).path, at: performance.now() });
      }
      listener(event);
    };
    this.#heard = heard;
    try {
      await this.#connect();
      // Connected before subscribing: the events of that bus are not heard yet.
      if (!this.#events) await this.#listen(this.#bus!);
    } catch (err) {
      this.#heard = undefined;
      throw err;
    }
    const placement = new WindowPlacement(
      listener,
      () => PlacementWatch.open(this.#display().name),
      (id) => {
        const entry = this.#windows.get(id);
        const title = this.#titles.get(id);
        return entry && { app: entry.ref.bus, pid: entry.pid, title: title ?? "" };
      },
    );
    this.#placement = placement;
    return async () => {
      if (this.#placement === placement) this.#placement = undefined;
      placement.close();
      // A later subscriber owns the events now.
      if (this.#heard !== heard) return;
      this.#heard = undefined;
      this.#followed = [];
      clearTimeout(this.#rebus);
      this.#rebus = undefined;
      const events = this.#events;
      this.#events = undefined;
      known.focusHeard = false;
      await events?.close();
    };
  }

  watchPlacement(windows: readonly string[]): void {
    for (const id of this.#titles.keys()) {
      if (!this.#windows.has(id) && !windows.includes(id)) this.#titles.delete(id);
    }
    this.#placement?.watch(windows);
  }

  flushEvents(): void {
    this.#placement?.flush();
  }

  async follow(apps: readonly string[]): Promise<void> {
    // Kept for the events of the next bus, when this one goes.
    this.#followed = [...apps];
    await this.#events?.follow(apps);
  }

  /** Apps this engine calls over their own peer socket instead of the bus. */
  async peerApps(): Promise<string[]> {
    return (await this.#client?.peers()) ?? [];
  }

  stats(): EngineStats {
    return { calls: this.#client?.calls ?? 0, walks: this.#walks };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#rebus);
    this.#rebus = undefined;
    await this.#connecting?.catch(() => {});
    this.#placement?.close();
    for (const owner of this.#owners) owner.close();
    this.#owners.clear();
    await this.#client?.close();
    this.#bus?.close();
    this.#x11?.close();
  }
}
