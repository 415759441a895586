/**
 * The AX engine's side of notifications: one AXHub subscription fanned out to every
 * listener, which apps and web areas the hub observes, and the `gone` event for an app
 * that quit.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { appIdOf } from "./apps.ts";
import type { AxNotifier } from "./desktop.ts";
import { EventConverter } from "./events.ts";
import type { AxSource } from "./source.ts";

/** Listeners of one engine. */
export class Subscriptions {
  readonly #hub: AxNotifier | null;
  readonly #source: AxSource;
  readonly #onWindowChange: () => void;
  readonly #converter = new EventConverter();
  readonly #listeners = new Set<(event: EngineEvent) => void>();
  readonly #webSent = new Set<string>();
  #offHub: (() => void) | undefined;

  /**
   * @param hub The AXHub, or `null` for an engine without notifications.
   * @param source The engine's source (web areas are handed to the hub from it).
   * @param onWindowChange Called on window-level notifications (a listing is stale).
   */
  constructor(hub: AxNotifier | null, source: AxSource, onWindowChange: () => void) {
    this.#hub = hub;
    this.#source = source;
    this.#onWindowChange = onWindowChange;
  }

  /** Someone listens. */
  get active(): boolean {
    return this.#listeners.size > 0;
  }

  /** Adds a listener; starts the hub on first use and observes `pids`. */
  async subscribe(
    listener: (event: EngineEvent) => void,
    pids: Iterable<number>,
  ): Promise<() => Promise<void>> {
    const hub = this.#hub;
    if (!hub) {
      throw new DriverError("driver_unavailable", "This AX engine has no notification hub", {
        reason: "no_notifications",
      });
    }
    await hub.start();
    // One hub subscription for all listeners, so focus tracking sees each post once.
    this.#offHub ??= hub.onEvent((e) => {
      if (e.kind === "window") this.#onWindowChange();
      for (const event of this.#converter.convert(e)) this.#emit(event);
    });
    this.#listeners.add(listener);
    for (const pid of pids) hub.watch(pid);
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) {
        this.#offHub?.();
        this.#offHub = undefined;
      }
      return Promise.resolve();
    };
  }

  /** Observes `pid` while someone listens. */
  watch(pid: number): void {
    if (this.active) this.#hub?.watch(pid);
  }

  /** Subscribes a web area found by a read, once. */
  watchWebArea(pid: number, handle: string): void {
    if (!this.active || !this.#hub || this.#webSent.has(handle)) return;
    const address = this.#source.transfer?.(handle);
    if (address === undefined) return;
    this.#webSent.add(handle);
    this.#hub.watchWebArea(pid, address);
  }

  /** What the probe saw as focused (so the next focus move also clears it). */
  sawFocus(pid: number, handle: string | null): void {
    this.#converter.sawFocus(pid, handle);
  }

  /** An app quit: stop observing it and tell listeners (`gone`). */
  appGone(pid: number): void {
    this.#hub?.unwatch(pid);
    this.#converter.forget(pid);
    for (const h of this.#webSent) if (h.startsWith(`${pid}:`)) this.#webSent.delete(h);
    this.#emit({ app: appIdOf(pid), kind: "gone" });
  }

  /** Stops the hub; idempotent. */
  async close(): Promise<void> {
    this.#offHub?.();
    this.#offHub = undefined;
    this.#listeners.clear();
    await this.#hub?.close();
  }

  #emit(event: EngineEvent): void {
    for (const listener of this.#listeners) listener(event);
  }
}
