/**
 * A tree engine and the vision engine reading one window together, for apps on the
 * accessibility bus whose tree is too thin to work with (a canvas, a game, an Electron
 * app before accessibility is asked for): read_ui `source: both`. The tree engine reads
 * the window and vision the same window's pixels; the answer is the tree with vision's
 * regions beside it ({@link mergeTrees}). Actions on tree nodes go to the tree engine,
 * on regions to vision (pixel input at the region). Pixels announce nothing, so the live
 * map reads such windows again after a short reuse, like any vision window.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type {
  ActOptions,
  ActOutcome,
  AppInfo,
  Availability,
  Capture,
  Engine,
  EngineEvent,
  EngineStats,
  InputGate,
  NodeRequest,
  PixelInput,
  RawNode,
  ReadBudget,
  WindowRequest,
  WindowTree,
} from "../../model/engine.ts";
import type { VisionEngine } from "../vision/engine.ts";
import { nodesFrom } from "../vision/tree.ts";
import { fromPixels, mergeTrees, pixelHandle } from "./merge.ts";

/** What vision needs to find a tree engine's window among the X windows. */
export type PidOf = (window: string, signal: AbortSignal) => Promise<number>;

/** The vision half: finds windows, reads pixels, acts by pixels. */
export type PixelEngine = Pick<VisionEngine, "windowFor" | "read" | "act" | "availability">;

/** `tree` and `vision` read as one engine named `<tree>+vision`. */
export class MergedEngine implements Engine {
  readonly name: string;
  readonly ops: readonly string[];
  readonly notifies = false;
  readonly #tree: Engine;
  readonly #vision: PixelEngine;
  readonly #pidOf: PidOf;
  /** The vision window of each tree window read so far. */
  readonly #pixels = new Map<string, string>();

  /** `pidOf` gives the process of a tree window, to find its X window. */
  constructor(tree: Engine, vision: PixelEngine, pidOf: PidOf) {
    this.name = `${tree.name}+vision`;
    this.#tree = tree;
    this.#vision = vision;
    this.#pidOf = pidOf;
    // Whatever both can do; input and listing are the tree engine's.
    this.ops = tree.ops;
  }

  async availability(): Promise<Availability> {
    const [t, v] = await Promise.all([this.#tree.availability(), this.#vision.availability()]);
    if (!t.available) return { available: false, reason: `${this.#tree.name}: ${t.reason}` };
    if (!v.available) return { available: false, reason: `vision: ${v.reason}` };
    return { available: true };
  }

  listApps(signal: AbortSignal): Promise<AppInfo[]> {
    return this.#tree.listApps(signal);
  }

  async readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    const tree = await this.#tree.readWindow(window, budget);
    const pixels = await this.#pixelWindow(window, tree.root, budget.signal);
    const vision = await this.#vision.read(pixels, budget);
    const room = Math.max(0, budget.maxElements - tree.nodes);
    const merged = mergeTrees(tree.root, vision.root, room);
    return {
      root: merged.root,
      nodes: tree.nodes + merged.added,
      ms: tree.ms + vision.ms,
      truncated: tree.truncated || merged.truncated || vision.truncated,
      ...(tree.degradedReason !== undefined ? { degradedReason: tree.degradedReason } : {}),
      // The pixels' part was read around what covers the window: say so.
      ...(vision.covered !== undefined ? { covered: vision.covered } : {}),
    };
  }

  /** The X window showing `window`, found once by pid, title and place. */
  async #pixelWindow(window: string, root: RawNode, signal: AbortSignal): Promise<string> {
    const known = this.#pixels.get(window);
    if (known !== undefined) return known;
    const pid = await this.#pidOf(window, signal);
    const found = this.#vision.windowFor({ pid, title: root.name, bounds: root.bounds });
    if (found === undefined) {
      // Not window_not_found: the tree's window is there, only its pixels are not found.
      const reason = `vision finds no X window for "${root.name}" (pid ${pid})`;
      throw new DriverError("driver_unavailable", `Cannot read ${window} from pixels: ${reason}`, {
        reason,
      });
    }
    // Windows come and go over a long-running service: remember the recent ones only.
    if (this.#pixels.size >= 64) this.#pixels.delete(this.#pixels.keys().next().value!);
    this.#pixels.set(window, found);
    return found;
  }

  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    // Pixels can't be read a node at a time: read the window (vision caches unchanged pixels).
    return nodesFrom((await this.readWindow(window, budget)).root, requests);
  }

  childCount(window: string, signal: AbortSignal): Promise<number> {
    return this.#tree.childCount(window, signal);
  }

  focusedHandle(window: string, signal: AbortSignal): Promise<string | null> {
    return this.#tree.focusedHandle(window, signal);
  }

  act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate?: InputGate,
    options?: ActOptions,
  ): Promise<ActOutcome> {
    if (!fromPixels(node)) {
      return this.#tree.act(window, node, action, value, signal, gate, options);
    }
    const pixels = this.#pixels.get(window);
    if (pixels === undefined) {
      throw new DriverError("window_not_found", `Window "${window}" was not read from pixels`, {
        version: 0,
      });
    }
    return this.#vision.act(
      pixels,
      { ...node, handle: pixelHandle(node.handle) },
      action,
      value,
      signal,
      gate,
      options,
    );
  }

  input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    return this.#tree.input(input, signal, window);
  }

  capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    return this.#tree.capture(window, signal);
  }

  /** The tree engine's window operations (the window is its). */
  windowOp(
    window: string,
    request: WindowRequest,
    signal: AbortSignal,
  ): ReturnType<NonNullable<Engine["windowOp"]>> {
    if (!this.#tree.windowOp) {
      throw new DriverError(
        "action_not_supported",
        `The ${this.#tree.name} engine has no window operations yet`,
      );
    }
    return this.#tree.windowOp(window, request, signal);
  }

  /** Pixels announce nothing; the tree's notifications reach the live map through the tree engine. */
  subscribe(_listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    return Promise.resolve(() => Promise.resolve());
  }

  stats(): EngineStats {
    return this.#tree.stats();
  }

  /** The two engines belong to the driver, which closes them itself. */
  close(): Promise<void> {
    this.#pixels.clear();
    return Promise.resolve();
  }
}
