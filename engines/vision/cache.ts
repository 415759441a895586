/**
 * Reads keyed by their pixels: a hash of a capture's RGBA bytes and size, and a small
 * least-recently-used store of analyses under it, so a window whose pixels did not change
 * (or changed back, or only moved) is answered without OCR.
 *
 * @module
 */
import type { Capture } from "../../model/engine.ts";

/**
 * A 64-bit hash of the capture's size and pixels, as 16 hex digits: two 32-bit
 * multiply-xor lanes over the pixels as 32-bit words (about 1 ms per megapixel here).
 * Where the pixels sit on screen is not part of it.
 */
export function captureKey(capture: Capture): string {
  const { width, height, rgba } = capture;
  let a = 0x2f6b9a31 ^ width, b = 0x71c405e3 ^ height;
  const aligned = rgba.byteOffset % 4 === 0;
  const words = aligned
    ? new Uint32Array(rgba.buffer, rgba.byteOffset, rgba.length >>> 2)
    : new Uint32Array(rgba.slice(0, rgba.length & ~3).buffer);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    a = Math.imul(a ^ w, 2654435761);
    b = Math.imul(b ^ w, 1597334677) ^ (a >>> 15);
  }
  for (let i = rgba.length & ~3; i < rgba.length; i++) a = Math.imul(a ^ rgba[i]!, 2654435761);
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/** A least-recently-used map with a fixed number of entries. */
export class LruCache<V> {
  readonly #limit: number;
  readonly #entries = new Map<string, V>();

  /** @param limit Entries kept; 0 keeps nothing (every read runs OCR). */
  constructor(limit: number) {
    this.#limit = Math.max(0, Math.floor(limit));
  }

  /** The value under `key`, now the most recently used; `undefined` when absent. */
  get(key: string): V | undefined {
    const v = this.#entries.get(key);
    if (v === undefined) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, v);
    return v;
  }

  /** Stores `value`, dropping the least recently used entry when full. */
  set(key: string, value: V): void {
    if (this.#limit === 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.#limit) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }

  /** Entries held. */
  get size(): number {
    return this.#entries.size;
  }
}
