/**
 * The macOS engine: the Accessibility API (AXUIElement through `Deno.dlopen`) for trees
 * and element actions, CoreGraphics for input and pixels, the AXHub for notifications.
 * All AX logic runs over an {@link AxSource}, so the same code reads a real app on a Mac
 * and a fixture dump in tests.
 *
 * When the process is not a trusted accessibility client, `availability()` and every
 * read say `driver_unavailable` with reason `accessibility_not_trusted`, never an empty
 * tree.
 *
 * @module
 */
import { notTrusted } from "../../ffi/macos/ax_error.ts";
import { elementOf } from "../../ffi/macos/values.ts";
import type { ActionName } from "../../protocol/element.ts";
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import {
  type ActOutcome,
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
  ungated,
  type WindowTree,
} from "../../model/engine.ts";
import { type ActOptions, refuseAimedKeys, refuseOptions } from "../../model/engine.ts";
import { performAxAction } from "./act.ts";
import type { AxWindowEntry } from "./apps.ts";
import { type AxDesktop, type AxNotifier, macParts } from "./desktop.ts";
import { attributesOf, boundsOf } from "./node_map.ts";
import { AX_OPS } from "./ops.ts";
import { readRequests } from "./patch_read.ts";
import type { AxSource } from "./source.ts";
import { Subscriptions } from "./subscriptions.ts";
import { walkWindow } from "./walk.ts";
import { WindowBook } from "./window_book.ts";

/** Engine settings; without `source` the engine loads the macOS frameworks. */
export interface AxEngineOptions {
  /** Accessibility source (tests: a `FixtureSource`). */
  source?: AxSource;
  /** Input and capture (without one, input and capture fail with `driver_unavailable`). */
  desktop?: AxDesktop;
  /** Notifications; `null` for none. */
  hub?: AxNotifier | null;
  /** Messaging timeout for apps not yet watched (design document: 6 s). */
  appTimeoutMs?: number;
  /** Timeout for listings and the staleness probe (the watched-app timeout: 1 s). */
  shortTimeoutMs?: number;
}

/** Positive trust answers are reused this long (a revocation is seen within it). */
const TRUST_REUSE_MS = 2_000;

function noDesktop(): never {
  throw new DriverError("driver_unavailable", "This AX engine has no input or capture", {
    reason: "no_desktop",
  });
}

/** AX + CoreGraphics. */
export class AxEngine implements Engine {
  readonly name = "ax";
  readonly ops: readonly string[] = AX_OPS;
  readonly #source: AxSource;
  readonly #desktop: AxDesktop;
  readonly #stopPump: () => void;
  readonly #timeoutMs: number;
  readonly #shortMs: number;
  readonly #book: WindowBook;
  readonly #subs: Subscriptions;
  #trustedAt = -Infinity;
  #walks = 0;
  #closed = false;

  /**
   * Builds the engine; without `options.source`, from the macOS frameworks.
   *
   * @throws {DriverError} `driver_unavailable` (`wrong_os`) off macOS without a source.
   */
  constructor(options: AxEngineOptions = {}) {
    const mac = options.source ? undefined : macParts();
    this.#source = options.source ?? mac!.source;
    this.#desktop = options.desktop ?? mac?.desktop ??
      { input: () => Promise.resolve(noDesktop()), capture: noDesktop };
    this.#stopPump = mac?.stopPump ?? (() => {});
    this.#timeoutMs = options.appTimeoutMs ?? 6_000;
    this.#shortMs = options.shortTimeoutMs ?? 1_000;
    this.#book = new WindowBook(this.#source, this.#shortMs, (pid) => this.#subs.appGone(pid));
    const hub = options.hub === undefined ? mac?.hub ?? null : options.hub;
    this.#subs = new Subscriptions(hub, this.#source, () => this.#book.invalidate());
  }

  availability(): Promise<Availability> {
    const trusted = this.#source.trusted();
    return Promise.resolve(
      trusted ? { available: true } : { available: false, reason: "accessibility_not_trusted" },
    );
  }

  #requireTrust(): void {
    const now = performance.now();
    if (now - this.#trustedAt < TRUST_REUSE_MS) return;
    if (!this.#source.trusted()) throw notTrusted();
    this.#trustedAt = now;
  }

  async listApps(_signal: AbortSignal): Promise<AppInfo[]> {
    this.#requireTrust();
    return await this.#book.list();
  }

  /**
   * Runs an AX operation for `window`: a timeout or a vanished element from an app that
   * quit becomes `app_not_running`; a vanished element that is the window itself
   * (`windowLevel`) becomes `window_not_found`.
   */
  async #guard<T>(
    entry: AxWindowEntry,
    window: string,
    windowLevel: boolean,
    work: () => Promise<T>,
  ): Promise<T> {
    try {
      return await work();
    } catch (err) {
      const gone = isDriverError(err, "element_not_found");
      if (!gone && !isDriverError(err, "timeout")) throw err;
      if (!this.#source.runningApps().some((a) => a.pid === entry.pid)) {
        this.#book.forgetApp(entry.pid);
        throw new DriverError("app_not_running", `App "${entry.appName}" quit`, {}, { cause: err });
      }
      if (!gone || !windowLevel) throw err;
      this.#book.forgetWindow(window);
      throw new DriverError("window_not_found", `Window "${window}" is gone`, { version: 0 }, {
        cause: err,
      });
    }
  }

  async readWindow(window: string, budget: ReadBudget): Promise<WindowTree> {
    this.#requireTrust();
    const started = performance.now();
    this.#walks++;
    const entry = await this.#book.entry(window);
    this.#subs.watch(entry.pid);
    // Only the window element's own failure escapes the walk as element_not_found.
    const walk = await this.#guard(
      entry,
      window,
      true,
      () =>
        walkWindow(this.#source, entry.handle, {
          maxElements: budget.maxElements,
          signal: budget.signal,
          timeoutMs: budget.callTimeoutMs ?? this.#timeoutMs,
          onWebArea: (h) => this.#subs.watchWebArea(entry.pid, h),
        }),
    );
    this.#book.holdRead(window, walk.seen);
    const { root, nodes, truncated } = walk;
    return { root, nodes, truncated, ms: performance.now() - started };
  }

  async readNodes(
    window: string,
    requests: readonly NodeRequest[],
    budget: ReadBudget,
  ): Promise<Map<string, RawNode | null>> {
    this.#requireTrust();
    const entry = await this.#book.entry(window);
    const timeoutMs = budget.callTimeoutMs ?? this.#timeoutMs;
    const patch = await this.#guard(
      entry,
      window,
      false,
      () => readRequests(this.#source, requests, budget, timeoutMs),
    );
    this.#book.addRead(window, patch.seen);
    return patch.reads;
  }

  async childCount(window: string, _signal: AbortSignal): Promise<number> {
    this.#requireTrust();
    const entry = await this.#book.entry(window);
    return await this.#guard(
      entry,
      window,
      true,
      () => this.#source.count(entry.handle, "AXChildren", this.#shortMs),
    );
  }

  async focusedHandle(window: string, _signal: AbortSignal): Promise<string | null> {
    this.#requireTrust();
    const entry = await this.#book.entry(window);
    const app = this.#source.application(entry.pid);
    const [focused] = await this.#guard(
      entry,
      window,
      false,
      () => this.#source.attributes(app, ["AXFocusedUIElement"], this.#shortMs),
    );
    const handle = elementOf(focused) ?? null;
    this.#subs.sawFocus(entry.pid, handle);
    // The handle string is the answer; the element itself is not needed afterwards.
    if (handle !== null) this.#book.releaseUnheld([handle]);
    return handle;
  }

  async act(
    window: string,
    node: RawNode,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
    gate: InputGate = ungated,
    options?: ActOptions,
  ): Promise<ActOutcome> {
    refuseOptions(this.name, node, options);
    this.#requireTrust();
    const entry = await this.#book.entry(window);
    const input = (i: PixelInput) => gate(() => this.input(i, signal));
    // A window acted on was read first, so its app is watched: the short timeout applies.
    const timeoutMs = this.#shortMs;
    return await this.#guard(
      entry,
      window,
      false,
      () => performAxAction(this.#source, input, node, action, value, timeoutMs),
    );
  }

  async input(input: PixelInput, signal: AbortSignal, window?: string): Promise<void> {
    refuseAimedKeys(this.name, input, window);
    await this.#desktop.input(input, signal);
  }

  async capture(window: string | undefined, _signal: AbortSignal): Promise<Capture> {
    if (window === undefined) return this.#desktop.capture();
    this.#requireTrust();
    const entry = await this.#book.entry(window);
    const names = ["AXPosition", "AXSize"] as const;
    const values = await this.#guard(
      entry,
      window,
      true,
      () => this.#source.attributes(entry.handle, names, this.#shortMs),
    );
    const frame = boundsOf(attributesOf(names, values));
    return this.#desktop.capture(frame, this.#source.windowNumber(entry.handle));
  }

  subscribe(listener: (event: EngineEvent) => void): Promise<() => Promise<void>> {
    return this.#subs.subscribe(listener, [...this.#book.entries()].map((e) => e.pid));
  }

  stats(): EngineStats {
    return { calls: this.#source.calls, walks: this.#walks };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stopPump();
    await this.#subs.close();
    this.#source.close();
  }
}
