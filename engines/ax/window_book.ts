/**
 * The AX engine's book of windows: window id -> element, the last listing (reused briefly
 * so a burst of reads lists apps once), and which element handles are still needed (a
 * window's last read, the listing) so the rest can be released.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { AppInfo } from "../../model/engine.ts";
import { type AxWindowEntry, listAxApps } from "./apps.ts";
import { HandleLedger } from "./ledger.ts";
import type { AxSource } from "./source.ts";

/** A listing is reused this long unless {@link WindowBook.invalidate} was called. */
export const LIST_REUSE_MS = 500;

/** Windows, listing and handle bookkeeping of one engine. */
export class WindowBook {
  readonly #source: AxSource;
  readonly #timeoutMs: number;
  readonly #onAppGone: (pid: number) => void;
  readonly #ledger = new HandleLedger();
  #windows = new Map<string, AxWindowEntry>();
  #listing: { at: number; apps: AppInfo[] } | undefined;

  /**
   * @param source Accessibility source.
   * @param timeoutMs Messaging timeout for listings.
   * @param onAppGone Told when a listing no longer shows an app whose windows were known.
   */
  constructor(source: AxSource, timeoutMs: number, onAppGone: (pid: number) => void) {
    this.#source = source;
    this.#timeoutMs = timeoutMs;
    this.#onAppGone = onAppGone;
  }

  /** Apps and windows, from a listing at most {@link LIST_REUSE_MS} old. */
  async list(): Promise<AppInfo[]> {
    if (this.#listing && performance.now() - this.#listing.at < LIST_REUSE_MS) {
      return this.#listing.apps;
    }
    const listing = await listAxApps(this.#source, this.#timeoutMs);
    const running = new Set(listing.apps.map((a) => a.pid));
    const gone = new Set<number>();
    for (const [id, entry] of this.#windows) {
      if (listing.windows.has(id)) continue;
      this.#release(this.#ledger.drop(`read:${id}`));
      if (!running.has(entry.pid)) gone.add(entry.pid);
    }
    this.#windows = listing.windows;
    const kept = [...listing.windows.values()].map((w) => w.handle);
    this.#release(this.#ledger.hold("listing", kept));
    this.#release(this.#ledger.unheld(listing.transient));
    this.#listing = { at: performance.now(), apps: listing.apps };
    for (const pid of gone) this.forgetApp(pid);
    return listing.apps;
  }

  /** Makes the next {@link list} ask the apps again (a window came or went). */
  invalidate(): void {
    this.#listing = undefined;
  }

  /** The entry of `window`, listing again once when it is not known. */
  async entry(window: string): Promise<AxWindowEntry> {
    let entry = this.#windows.get(window);
    if (!entry) {
      this.invalidate();
      await this.list();
      entry = this.#windows.get(window);
    }
    if (!entry) throw new DriverError("window_not_found", `No window "${window}"`, { version: 0 });
    return entry;
  }

  /** Known windows. */
  entries(): IterableIterator<AxWindowEntry> {
    return this.#windows.values();
  }

  /** Replaces the handles a full read of `window` holds; releases what nobody needs. */
  holdRead(window: string, handles: Iterable<string>): void {
    this.#release(this.#ledger.hold(`read:${window}`, handles));
  }

  /** Adds handles a patch of `window` met. */
  addRead(window: string, handles: Iterable<string>): void {
    this.#ledger.add(`read:${window}`, handles);
  }

  /** Releases `handles` unless something holds them (one-off answers). */
  releaseUnheld(handles: Iterable<string>): void {
    this.#release(this.#ledger.unheld(handles));
  }

  /** Forgets a window that closed. */
  forgetWindow(window: string): void {
    this.#windows.delete(window);
    this.#release(this.#ledger.drop(`read:${window}`));
  }

  /** Forgets every window of an app that quit, and all its handles. */
  forgetApp(pid: number): void {
    this.invalidate();
    for (const [id, entry] of this.#windows) if (entry.pid === pid) this.forgetWindow(id);
    this.#source.releaseApp(pid);
    this.#onAppGone(pid);
  }

  #release(handles: string[]): void {
    if (handles.length > 0) this.#source.release(handles);
  }
}
