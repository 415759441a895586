/**
 * The elements behind the handles of the last reads, per window. A handle is the
 * element's runtime id, so the same element keeps its handle across reads; the table
 * keeps one live `IUIAutomationElement` per handle so an action on it needs no search.
 * At most `limit` windows are kept: the least recently read one's elements are released.
 *
 * @module
 */
import type { ComPtr } from "../../ffi/windows/com.ts";

interface Entry {
  el: ComPtr;
  children: string[];
}

/** One window's handles. */
export class WindowHandles {
  readonly #entries = new Map<string, Entry>();
  /** Handle of the window element (the first one a full read stored). */
  root: string | undefined;

  /** A handle for `base` not yet used in this window (twins with one runtime id get `~n`). */
  unique(base: string): string {
    if (!this.#entries.has(base)) return base;
    for (let n = 2;; n++) if (!this.#entries.has(`${base}~${n}`)) return `${base}~${n}`;
  }

  /** Stores `el` under `handle` (taking ownership), releasing what was there. */
  set(handle: string, el: ComPtr): void {
    const old = this.#entries.get(handle);
    if (old && old.el !== el) old.el.release();
    this.#entries.set(handle, { el, children: old?.children ?? [] });
    this.root ??= handle;
  }

  /** Records `handle`'s children (for {@link replaceSubtree}). */
  setChildren(handle: string, children: string[]): void {
    const e = this.#entries.get(handle);
    if (e) e.children = children;
  }

  /** The element behind `handle`. */
  get(handle: string): ComPtr | undefined {
    return this.#entries.get(handle)?.el;
  }

  /** Handles held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Releases `handle`'s descendants (a subtree patch replaces them with what it read). */
  dropDescendants(handle: string): void {
    const stack = [...(this.#entries.get(handle)?.children ?? [])];
    while (stack.length) {
      const h = stack.pop()!;
      const e = this.#entries.get(h);
      if (!e) continue;
      stack.push(...e.children);
      e.el.release();
      this.#entries.delete(h);
    }
  }

  /** Releases every element; idempotent. */
  release(): void {
    for (const e of this.#entries.values()) e.el.release();
    this.#entries.clear();
    this.root = undefined;
  }
}

/** Every window's handles, least recently read first. */
export class HandleTable {
  readonly #windows = new Map<string, WindowHandles>();
  readonly #limit: number;

  /** Keeps the elements of at most `limit` windows. */
  constructor(limit = 16) {
    this.#limit = limit;
  }

  /** Installs a fresh read of `window`, releasing its previous one; returns evicted windows. */
  replace(window: string, handles: WindowHandles): string[] {
    this.#windows.get(window)?.release();
    this.#windows.delete(window);
    this.#windows.set(window, handles);
    const evicted: string[] = [];
    for (const [w, h] of this.#windows) {
      if (this.#windows.size <= this.#limit) break;
      h.release();
      this.#windows.delete(w);
      evicted.push(w);
    }
    return evicted;
  }

  /** The handles of `window`, if it was read. */
  window(window: string): WindowHandles | undefined {
    return this.#windows.get(window);
  }

  /** Forgets a window (closed, unwatched). */
  drop(window: string): void {
    this.#windows.get(window)?.release();
    this.#windows.delete(window);
  }

  /** Releases everything. */
  clear(): void {
    for (const h of this.#windows.values()) h.release();
    this.#windows.clear();
  }
}
