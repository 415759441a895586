/**
 * Element ids: short, stable names for the nodes of a window's tree (design document,
 * "Element ids and map versions").
 *
 * An id hashes the node's role, its name and its tree path. The path is folded in by
 * starting each child's hash from its parent's hash, so two "Delete" buttons in two rows
 * get different ids even though their own segments are alike.
 *
 * Segment rule, per parent:
 * - A child whose (role, name) no sibling shares is keyed by role and name alone. Its
 *   `role:n` count is always 0, so inserting or removing a sibling with another name or
 *   role shifts nobody.
 * - Every child whose (role, name) is shared with at least one sibling (a "twin", all of
 *   them, the first included) also mixes in its bounds relative to the window's corner
 *   (the root's `bounds.x`/`y`), each of x, y, w and h divided by 8 pt and rounded. Its
 *   `n` counts only earlier twins with the same rounded bounds, so it is 0 unless twins
 *   overlap on the 8-pt grid. Twins are thus told apart by where they sit, not by their
 *   order: inserting a twin keeps the others' ids, and so does moving the whole window.
 *   An element's id does change when it gains or loses a twin, or moves within the
 *   window while it has one.
 *
 * The root (the window) is hashed from its role only: its name is the window title, which
 * changes as a document is edited, and every other id is derived from the root's hash.
 * Ids are therefore only meaningful together with their window.
 *
 * Collisions. Twins with the same role, name and rounded bounds get `n` = 1, 2, ... in
 * document order; such ids are not stable (they follow order, which may change between
 * reads). A true hash collision (two different paths, same 60 bits; odds about 1 in
 * 10^11 for a 5,000-element window) is resolved by rehashing the later node, in document
 * order, with a counter: unique within the read, but not stable either.
 *
 * Hash: cyrb53's two 32-bit lanes kept whole (64 bits), over UTF-16 code units, with
 * lengths before strings so field boundaries can't be confused. Integer-only arithmetic,
 * so the same tree gives the same ids in every process and from every engine.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";

/** Characters in an id. */
export const ID_LENGTH = 12;

/** The twin tie-breaker's grid, in points. */
export const TWIN_GRID = 8;

/** Called once per node, in document order (pre-order), the root first. */
export type IdVisitor = (node: RawNode, id: string, parent: string | undefined) => void;

// Crockford's base32, lowercase: no i, l, o, u to misread.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CODES: number[] = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const SEED_A = 0x2f6b_9a31;
const SEED_B = 0x71c4_05e3;
const TAG_ROOT = 0x726f_6f74;
const TAG_UNIQUE = 0;
const TAG_TWIN = 1;
const TAG_SALT = 2;
const TAG_BEYOND = 0x6279_6e64;

// Scratch lanes: hashing is synchronous, so one pair serves every call and no state
// object is allocated per node.
let a = 0;
let b = 0;

function mixInt(v: number): void {
  a = Math.imul(a ^ v, 2654435761);
  b = Math.imul(b ^ v, 1597334677);
}

function mixString(s: string): void {
  mixInt(s.length);
  for (let i = 0; i < s.length; i++) mixInt(s.charCodeAt(i));
}

function finish(): void {
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  a >>>= 0;
  b >>>= 0;
}

// 30 bits of each lane: 60 bits in 12 characters. One fromCharCode call makes a flat
// string; concatenating pieces would leave a chain of cons strings per id in the heap.
function encode(): string {
  const c = CODES;
  return String.fromCharCode(
    c[a >>> 27]!,
    c[(a >>> 22) & 31]!,
    c[(a >>> 17) & 31]!,
    c[(a >>> 12) & 31]!,
    c[(a >>> 7) & 31]!,
    c[(a >>> 2) & 31]!,
    c[b >>> 27]!,
    c[(b >>> 22) & 31]!,
    c[(b >>> 17) & 31]!,
    c[(b >>> 12) & 31]!,
    c[(b >>> 7) & 31]!,
    c[(b >>> 2) & 31]!,
  );
}

// 52 of the id's 60 bits (all 30 of lane a's, the top 22 of lane b's) as an exact double:
// a Set of numbers is faster than one of strings. Equal ids always have equal keys. Ids
// equal only in these bits get rehashed needlessly: harmless, as deterministic as a real
// collision, and still rare (about 3 in 10^9 for a 5,000-element window).
function key52(): number {
  return (a >>> 2) * 4194304 + (b >>> 10);
}

/** Rehashes until the id is new in this read (see "Collisions" above). */
function claim(used: Set<number>): string {
  for (let salt = 1; used.has(key52()); salt++) {
    mixInt(TAG_SALT);
    mixInt(salt);
    finish();
  }
  used.add(key52());
  return encode();
}

/** Per-read state shared by every level of the walk. */
interface Walk {
  readonly visit: IdVisitor;
  readonly used: Set<number>;
  readonly originX: number;
  readonly originY: number;
}

// Below this many siblings, pairwise comparison beats building a Map of string keys.
const PAIRWISE_MAX = 24;

/** Marks (1) every child whose (role, name) another child shares; `undefined` if none. */
function findTwins(kids: readonly RawNode[]): Uint8Array | undefined {
  let twins: Uint8Array | undefined;
  if (kids.length <= PAIRWISE_MAX) {
    for (let i = 0; i < kids.length; i++) {
      const x = kids[i]!;
      for (let j = i + 1; j < kids.length; j++) {
        const y = kids[j]!;
        if (x.name === y.name && x.role === y.role) {
          twins ??= new Uint8Array(kids.length);
          twins[i] = 1;
          twins[j] = 1;
        }
      }
    }
    return twins;
  }
  const first = new Map<string, number>();
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    const key = kid.role + "\u0000" + kid.name;
    const j = first.get(key);
    if (j === undefined) {
      first.set(key, i);
      continue;
    }
    twins ??= new Uint8Array(kids.length);
    twins[i] = 1;
    twins[j] = 1;
  }
  return twins;
}

function walk(w: Walk, node: RawNode, id: string, parent: string | undefined): void {
  // The lanes hold this node's hash now. Keep it before the visitor runs (it may hash
  // another tree) and before each child overwrites it.
  const pa = a;
  const pb = b;
  w.visit(node, id, parent);
  const kids = node.children;
  if (kids.length === 0) return;
  const twins = kids.length > 1 ? findTwins(kids) : undefined;
  let twinsSeen: Map<string, number> | undefined;
  for (let i = 0; i < kids.length; i++) {
    const kid = kids[i]!;
    a = pa;
    b = pb;
    mixString(kid.role);
    mixString(kid.name);
    if (twins !== undefined && twins[i] === 1) {
      const bx = kid.bounds;
      const rx = Math.round((bx.x - w.originX) / TWIN_GRID);
      const ry = Math.round((bx.y - w.originY) / TWIN_GRID);
      const rw = Math.round(bx.w / TWIN_GRID);
      const rh = Math.round(bx.h / TWIN_GRID);
      const twinKey = `${kid.role}\u0000${kid.name}\u0000${rx},${ry},${rw},${rh}`;
      twinsSeen ??= new Map();
      const n = twinsSeen.get(twinKey) ?? 0;
      twinsSeen.set(twinKey, n + 1);
      mixInt(TAG_TWIN);
      mixInt(rx);
      mixInt(ry);
      mixInt(rw);
      mixInt(rh);
      mixInt(n);
    } else {
      mixInt(TAG_UNIQUE);
    }
    finish();
    walk(w, kid, claim(w.used), id);
  }
}

/**
 * Walks `root` in document order and hands each node its id and its parent's id.
 *
 * @param root The window node, as an engine read it.
 * @param visit Called once per node, the root first (its parent is `undefined`).
 */
export function visitIds(root: RawNode, visit: IdVisitor): void {
  a = SEED_A;
  b = SEED_B;
  mixInt(TAG_ROOT);
  mixString(root.role);
  finish();
  const used = new Set<number>();
  const w: Walk = { visit, used, originX: root.bounds.x, originY: root.bounds.y };
  walk(w, root, claim(used), undefined);
}

/**
 * The ids of every node of `root`, in document order (the root's first).
 *
 * @param root The window node, as an engine read it.
 * @returns One 12-character lowercase base32 id per node, all distinct.
 */
export function computeIds(root: RawNode): string[] {
  const ids: string[] = [];
  visitIds(root, (_node, id) => {
    ids.push(id);
  });
  return ids;
}

/**
 * The id of a node `find` found beyond the map (scrolled out, hidden, a row not shown).
 * Such a node has no place in the map's tree to hash, so its id comes from the engine's
 * handle: the same object found again gets the same id, and it never equals a map id
 * (a different tag starts the hash).
 *
 * @param handle The engine's handle of the node.
 */
export function beyondId(handle: string): string {
  a = SEED_A;
  b = SEED_B;
  mixInt(TAG_BEYOND);
  mixString(handle);
  finish();
  return encode();
}
