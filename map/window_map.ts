/**
 * A window's map and its recent versions (design document, "Element ids and map
 * versions").
 *
 * A version changes only when something a model can see changed (see `diff.ts` for the
 * fields). Versions share every unchanged element object with the version before, so
 * keeping eight versions of a large window costs little more than one.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import { DriverError } from "../protocol/errors.ts";
import { setBounded } from "../util/bounded.ts";
import { type Delta, diff, sameVisible } from "./diff.ts";
import { ID_LENGTH } from "./ids.ts";
import type { Snapshot } from "./snapshot.ts";

/** Versions a window keeps unless told otherwise (design document: 8). */
export const DEFAULT_KEEP = 8;

/**
 * Fewest characters of an id that name its element (`resolveId`): 30 of its 60 bits, so
 * two of a 1,000-element window's ids share them about once in 2,000 windows.
 */
export const MIN_ID_PREFIX = 6;

/** Nodes found beyond the map that a window remembers for `act`; older ones are forgotten. */
export const MAX_BEYOND = 1_000;

/** The map as callers see it, e.g. in a `stale_version` error's data. */
export interface MapPayload {
  /** Window id. */
  window: string;
  /** Current version. */
  version: number;
  /** Current elements, in document order. Shared with the map: do not mutate. */
  elements: readonly Element[];
}

/** Answer to {@link WindowMap.since}. */
export type SinceResult =
  | ({ reset: false; version: number } & Delta)
  | { reset: true; version: number; elements: readonly Element[] };

/** What {@link WindowMap.update} did. */
export interface UpdateResult {
  /** The current version after the update. */
  version: number;
  /** True when a new version was made. */
  changed: boolean;
}

/** Options of a {@link WindowMap}. */
export interface WindowMapOptions {
  /** Versions to keep, the current one included (default {@link DEFAULT_KEEP}). */
  keep?: number;
}

interface StoredVersion {
  readonly version: number;
  elements: readonly Element[];
  /** Crops of its elements, by id, from answers that carried them (`crops: true`). */
  crops?: Map<string, string>;
}

function sameActions(x: readonly string[], y: readonly string[]): boolean {
  if (x === y) return true;
  if (x.length !== y.length) return false;
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  return true;
}

/** `el` without its value, named `name` (its name before a secret went in). */
function hidden(el: Element, name: string): Element {
  const { value: _, ...rest } = el;
  return { ...rest, name };
}

/**
 * One window's map: the current elements, the engine nodes behind them, and the last
 * few versions for `since` answers. Element objects it hands out are shared between
 * versions; copy before changing one.
 */
export class WindowMap {
  /** Window id the map belongs to. */
  readonly window: string;
  /** Versions kept, the current one included. */
  readonly keep: number;
  #engine: string;
  /** Oldest first; consecutive version numbers. */
  #versions: StoredVersion[];
  #byId: Map<string, Element>;
  #handles: Map<string, RawNode>;
  /** Nodes `find` found beyond the map, by id, oldest first. */
  #beyond = new Map<string, RawNode>();
  /** Elements whose value a secret went into (see `hideValue`). */
  readonly #hidden = new Map<string, string>();
  /** Current ids by engine handle, made when first asked after a read. */
  #idByHandle: Map<string, string> | undefined;

  /**
   * Starts a map at version 1 from a window's first read.
   *
   * @param window Window id.
   * @param engine Name of the engine that read `first`.
   * @param first The first snapshot.
   * @param options How many versions to keep.
   */
  constructor(window: string, engine: string, first: Snapshot, options: WindowMapOptions = {}) {
    const keep = options.keep ?? DEFAULT_KEEP;
    if (!Number.isInteger(keep) || keep < 1) {
      throw new RangeError(`Cannot keep "${keep}" versions: expected a whole number >= 1`);
    }
    this.window = window;
    this.keep = keep;
    this.#engine = engine;
    this.#versions = [{ version: 1, elements: first.elements }];
    this.#byId = new Map(first.elements.map((el) => [el.id, el]));
    this.#handles = first.handles;
  }

  /** Name of the engine whose read the current handles come from. */
  get engine(): string {
    return this.#engine;
  }

  /** Current version number (1 after the first read). */
  get version(): number {
    return this.#current().version;
  }

  /** Oldest version still kept. */
  get oldest(): number {
    return this.#versions[0]!.version;
  }

  /** Current elements in document order. */
  get elements(): readonly Element[] {
    return this.#current().elements;
  }

  /** The current map, as sent to callers. */
  payload(): MapPayload {
    return { window: this.window, version: this.version, elements: this.elements };
  }

  /** Elements of a kept version, or `undefined` when it aged out or never existed. */
  at(version: number): readonly Element[] | undefined {
    if (!Number.isInteger(version)) return undefined;
    return this.#versions[version - this.oldest]?.elements;
  }

  /**
   * Keeps the crops of `elements` (answered with `crops: true`) with the current version,
   * so a batch planned on it can still find an element whose tree data changed.
   */
  rememberCrops(elements: readonly Element[]): void {
    const current = this.#current();
    const crops = current.crops ??= new Map();
    for (const el of elements) if (el.crop !== undefined) crops.set(el.id, el.crop);
  }

  /** The element `id` of `version` with its crop, when that version's crops were kept. */
  cropAt(version: number, id: string): (Element & { crop: string }) | undefined {
    const v = this.#versions[version - this.oldest];
    const crop = v?.crops?.get(id);
    const el = crop === undefined ? undefined : v!.elements.find((e) => e.id === id);
    return el && { ...el, crop: crop! };
  }

  /**
   * The full id `id` names: itself when the map knows it, else the one current or
   * remembered id it begins (a prefix of at least {@link MIN_ID_PREFIX} characters: MCP
   * outlines show ids that short), else `id` unchanged, for the lookup to refuse.
   *
   * @throws {DriverError} `element_not_found` when the prefix begins several ids; the
   *   message and `data.candidates` name them.
   */
  resolveId(id: string): string {
    if (id.length < MIN_ID_PREFIX || id.length >= ID_LENGTH || this.handle(id)) return id;
    const found = new Set<string>();
    for (const known of [this.#handles.keys(), this.#beyond.keys()]) {
      for (const full of known) if (full.startsWith(id)) found.add(full);
    }
    if (found.size <= 1) return found.values().next().value ?? id;
    const candidates = [...found].slice(0, 8);
    const named = candidates.map((c) => {
      const e = this.#byId.get(c);
      return e ? `${c} (${e.role} "${e.name}")` : c;
    });
    throw new DriverError(
      "element_not_found",
      `Id "${id}" begins ${found.size} ids of window "${this.window}": ${
        named.join(", ")
      }; give the full id`,
      { version: this.version, candidates },
    );
  }

  /** The current element with `id`. */
  get(id: string): Element | undefined {
    return this.#byId.get(id);
  }

  /**
   * The engine node behind `id` in the latest read (refreshed even without a new
   * version), or one `find` found beyond the map and {@link remember}ed.
   */
  handle(id: string): RawNode | undefined {
    return this.#handles.get(id) ?? this.#beyond.get(id);
  }

  /** The current map id of the element the engine knows by `handle`. */
  idOf(handle: string): string | undefined {
    if (this.#idByHandle === undefined) {
      this.#idByHandle = new Map();
      for (const [id, node] of this.#handles) this.#idByHandle.set(node.handle, id);
    }
    return this.#idByHandle.get(handle);
  }

  /**
   * Keeps a node found beyond the map under `id` so an action can name it; past
   * {@link MAX_BEYOND} the one remembered longest ago is forgotten.
   */
  remember(id: string, node: RawNode): void {
    setBounded(this.#beyond, id, node, MAX_BEYOND);
  }

  /**
   * Takes a new read. A new version is made only when a visible field changed or an
   * element came or went; otherwise the version stays and only handles (and elements
   * whose actions changed) are refreshed. Unchanged elements keep their previous object.
   *
   * @param snapshot The new read.
   * @param engine Engine that made it (default: the current one).
   * @returns The current version and whether it is new.
   */
  /**
   * Keeps the value of element `id` out of every answer from now on, as long as the
   * window is watched: a secret is about to be typed into it (`secret: true`), and a plain
   * field shows what was typed. Its name stays what it is now: a field named by its value
   * would show the secret as its name.
   */
  hideValue(id: string): void {
    const el = this.#byId.get(id);
    if (el === undefined || this.#hidden.has(id)) return;
    this.#hidden.set(id, el.name);
    const hid = hidden(el, el.name);
    this.#byId.set(id, hid);
    const current = this.#current();
    current.elements = current.elements.map((e) => e.id === id ? hid : e);
  }

  update(snapshot: Snapshot, engine: string = this.#engine): UpdateResult {
    // Another engine's handles mean nothing to this one.
    if (engine !== this.#engine) this.#beyond.clear();
    this.#engine = engine;
    this.#handles = snapshot.handles;
    this.#idByHandle = undefined;
    const prev = this.#byId;
    const byId = new Map<string, Element>();
    const elements: Element[] = [];
    // Ids are unique, so equal counts with every id found means the same id set.
    let visible = snapshot.elements.length !== prev.size;
    for (const read of snapshot.elements) {
      const name = this.#hidden.get(read.id);
      const el = name === undefined ? read : hidden(read, name);
      const was = prev.get(el.id);
      let kept = el;
      if (was === undefined || !sameVisible(was, el)) {
        visible = true;
      } else if (sameActions(was.actions, el.actions) && was.crop === el.crop) {
        kept = was;
      }
      elements.push(kept);
      byId.set(kept.id, kept);
    }
    this.#byId = byId;
    if (!visible) {
      this.#current().elements = elements;
      return { version: this.version, changed: false };
    }
    this.#versions.push({ version: this.version + 1, elements });
    if (this.#versions.length > this.keep) this.#versions.shift();
    return { version: this.version, changed: true };
  }

  /**
   * What changed since `version`, from stored versions only (no re-read).
   *
   * @param version A version the caller saw.
   * @returns The delta to the current version, or every element with `reset: true` when
   *   `version` aged out, is in the future or never existed.
   */
  since(version: number): SinceResult {
    const from = this.at(version);
    if (from === undefined) {
      return { reset: true, version: this.version, elements: this.elements };
    }
    return { reset: false, version: this.version, ...diff(from, this.elements) };
  }

  #current(): StoredVersion {
    return this.#versions[this.#versions.length - 1]!;
  }
}
