/**
 * Which handles the engine still needs. Each owner (a window's last read, the window
 * listing) holds a set of handles; a handle is released once no owner holds it. Pure
 * bookkeeping: the engine passes what it returns to `AxSource.release`.
 *
 * @module
 */

/** Reference counts of handles by owner. */
export class HandleLedger {
  readonly #owners = new Map<string, Set<string>>();
  readonly #counts = new Map<string, number>();

  /**
   * Replaces what `owner` holds.
   *
   * @returns Handles no owner holds any more (to release).
   */
  hold(owner: string, handles: Iterable<string>): string[] {
    const next = new Set(handles);
    const before = this.#owners.get(owner) ?? new Set<string>();
    for (const h of next) if (!before.has(h)) this.#counts.set(h, (this.#counts.get(h) ?? 0) + 1);
    this.#owners.set(owner, next);
    return this.#unref([...before].filter((h) => !next.has(h)));
  }

  /** Adds `handles` to what `owner` holds (a patch read more of a window). */
  add(owner: string, handles: Iterable<string>): void {
    const set = this.#owners.get(owner) ?? new Set<string>();
    this.#owners.set(owner, set);
    for (const h of handles) {
      if (set.has(h)) continue;
      set.add(h);
      this.#counts.set(h, (this.#counts.get(h) ?? 0) + 1);
    }
  }

  /** Forgets `owner`; returns handles no owner holds any more. */
  drop(owner: string): string[] {
    const before = this.#owners.get(owner);
    if (!before) return [];
    this.#owners.delete(owner);
    return this.#unref([...before]);
  }

  /** Owners other than these are dropped; returns handles no owner holds any more. */
  keepOnly(owners: (owner: string) => boolean): string[] {
    const out: string[] = [];
    for (const owner of [...this.#owners.keys()]) if (!owners(owner)) out.push(...this.drop(owner));
    return out;
  }

  /** Of `handles`, those no owner holds (handles used once, e.g. a probe's answer). */
  unheld(handles: Iterable<string>): string[] {
    return [...new Set(handles)].filter((h) => !this.#counts.has(h));
  }

  /** Is `handle` held by someone? */
  held(handle: string): boolean {
    return this.#counts.has(handle);
  }

  #unref(handles: string[]): string[] {
    const out: string[] = [];
    for (const h of handles) {
      const n = (this.#counts.get(h) ?? 1) - 1;
      if (n > 0) {
        this.#counts.set(h, n);
      } else {
        this.#counts.delete(h);
        out.push(h);
      }
    }
    return out;
  }
}
