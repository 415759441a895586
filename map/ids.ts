/**
 * Element ids: short, stable names for the nodes of a window's tree (design document,
 * "Element ids and map versions").
 *
 * An id hashes the node's role, its key and its place among its siblings, starting from
 * its parent's hash, so the tree path is folded in: two "Delete" buttons in two rows get
 * different ids even though their own segments are alike. An id is meant to survive
 * whatever does not change what the element is: an edit of its value, siblings inserted
 * or removed before it, a combo's shown option changing, the window's title or anything
 * elsewhere in the window changing, the window moving.
 *
 * The key, per node (the window's children and everything below):
 * - A table cell whose engine says where it sits ({@link RawNode.cell}) is keyed by its
 *   row and column alone: its name and value are its contents, which an edit changes.
 * - An element whose accessible name IS its value or contents (text fields and areas,
 *   combos and pop-up buttons, spin boxes, sliders, date fields, document bodies: see
 *   {@link VALUE_NAMED}) leaves its name out: it is keyed by its label
 *   ({@link RawNode.label}, from a label relation) when the engine gives one, else by
 *   nothing but its role and place. Typing into a field, a combo showing another option
 *   or a document getting another title keeps its id, and its descendants' ids.
 * - Any other element is keyed by its name. A cell without coordinates is one of them:
 *   LibreOffice names a sheet's cell by its address ("A3"), a GTK list's cell by the text
 *   it shows, which is what the row is. An unnamed row or item (a list row, a table cell,
 *   a menu item, a tab, a button, a link: see {@link ITEM_ROLES}) is named by its label
 *   when the engine gives one, else by its contents: the first label or name among its
 *   first descendants (three levels, twelve nodes, value-named ones skipped since their
 *   names are values), such as the file name in a tree view's row. Its id then follows
 *   what it shows, not where it sits: a row inserted above keeps it (Thunar's list), and
 *   a row whose first name changes (a file renamed) is another row.
 * - Paragraphs are unnamed groups whose words are their value: keyed by role and place.
 *
 * Place: a child whose (role, key) no earlier sibling shares hashes no place at all, so
 * inserting or removing a sibling with another role or key shifts nobody, and neither
 * does a later sibling that shares it (an element keeps its id when it gains a twin).
 * A child whose (role, key) `n` earlier siblings share (a twin: two unlabelled fields,
 * paragraphs, unnamed groups) mixes in `n`. Twins are thus told apart by their order
 * among themselves, not by their bounds (which shift with every row inserted above,
 * every resize and every status text that reflows a pane). The limit: a twin inserted or
 * removed before a twin shifts the later twins' ids, so those ids name "the n-th such
 * element of that parent" (a paragraph typed above others shifts the ones below, and an
 * id planned before then names its neighbour).
 *
 * The root (the window) is hashed from its role only: its name is the window title, which
 * changes as a document is edited, and every other id is derived from the root's hash.
 * Ids are therefore only meaningful together with their window.
 *
 * Collisions. A true hash collision (two different paths, same 60 bits; odds about 1 in
 * 10^11 for a 5,000-element window) is resolved by rehashing the later node, in document
 * order, with a counter: unique within the read, but not stable.
 *
 * Hash: cyrb53's two 32-bit lanes kept whole (64 bits), over UTF-16 code units, with
 * lengths before strings so field boundaries can't be confused, and a tag before each
 * kind of key so a cell's coordinates, a field's label and a name never hash alike. Integer-only
 * arithmetic, so the same tree gives the same ids in every process and from every engine.
 *
 * @module
 */
import type { RawNode } from "../model/engine.ts";

/** Characters in an id. */
export const ID_LENGTH = 12;

/**
 * Roles whose accessible name is (or may be) their value or contents, so an edit would
 * change it: their name is left out of their id (see the module doc).
 */
export const VALUE_NAMED: ReadonlySet<string> = new Set([
  "AXTextField",
  "AXTextArea",
  "AXSecureTextField",
  "AXSearchField",
  "AXComboBox",
  "AXPopUpButton",
  "AXIncrementor",
  "AXSlider",
  "AXDateField",
  "AXTimeField",
  "AXDocument",
  "AXWebArea",
]);

/** Rows and items: when unnamed, they are keyed by their contents (see the module doc). */
export const ITEM_ROLES: ReadonlySet<string> = new Set([
  "AXRow",
  "AXCell",
  "AXOutlineRow",
  "AXListItem",
  "AXMenuItem",
  "AXRadioButton",
  "AXCheckBox",
  "AXButton",
  "AXLink",
]);

/** Called once per node, in document order (pre-order), the root first. */
export type IdVisitor = (node: RawNode, id: string, parent: string | undefined) => void;

// Crockford's base32, lowercase: no i, l, o, u to misread.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const CODES: number[] = Array.from(ALPHABET, (c) => c.charCodeAt(0));
const SEED_A = 0x2f6b_9a31;
const SEED_B = 0x71c4_05e3;
const TAG_ROOT = 0x726f_6f74;
const TAG_NAME = 0;
const TAG_TWIN = 1;
const TAG_SALT = 2;
const TAG_FIELD = 3;
const TAG_CELL = 4;
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

// How far an unnamed item's contents are searched for a name: its first descendants
// only, so the cost per item is bounded and a change deep inside does not rename it.
const CONTENT_DEPTH = 3;
const CONTENT_NODES = 12;

/** The first name among `item`'s first descendants, pre-order; "" when none. */
function contentName(item: RawNode): string {
  const stack: RawNode[] = [];
  const depth: number[] = [];
  for (let i = item.children.length - 1; i >= 0; i--) {
    stack.push(item.children[i]!);
    depth.push(1);
  }
  for (let seen = 0; stack.length > 0 && seen < CONTENT_NODES; seen++) {
    const n = stack.pop()!;
    const d = depth.pop()!;
    if (n.label) return n.label;
    if (n.name !== "" && !VALUE_NAMED.has(n.role)) return n.name;
    if (d >= CONTENT_DEPTH) continue;
    for (let i = n.children.length - 1; i >= 0; i--) {
      stack.push(n.children[i]!);
      depth.push(d + 1);
    }
  }
  return "";
}

// The text part of the last key keyOf() made: the walk is synchronous, so a module
// variable saves allocating a pair per child.
let keyText = "";

/** The tag of child `kid`'s key (see the module doc's key rule); its text in keyText. */
function keyOf(kid: RawNode): number {
  const cell = kid.cell;
  if (cell !== undefined) {
    keyText = `${cell.row},${cell.column}`;
    return TAG_CELL;
  }
  if (VALUE_NAMED.has(kid.role)) {
    keyText = kid.label ?? "";
    return TAG_FIELD;
  }
  keyText = kid.name !== "" || !ITEM_ROLES.has(kid.role) ? kid.name : kid.label ?? contentName(kid);
  return TAG_NAME;
}

/** Per-read state shared by every level of the walk. */
interface Walk {
  readonly visit: IdVisitor;
  readonly used: Set<number>;
  /**
   * Key tags and texts of the children of every node on the current path, one level
   * after the other (a level's start is its parent's `top`): no arrays per node.
   */
  readonly tags: number[];
  readonly texts: string[];
  /** Entries of `tags` and `texts` in use (they never shrink, so they stay packed). */
  top: number;
}

// Below this many siblings, counting earlier twins pairwise beats a Map of string keys.
const PAIRWISE_MAX = 24;

function walk(w: Walk, node: RawNode, id: string, parent: string | undefined): void {
  // The lanes hold this node's hash now. Keep it before the visitor runs (it may hash
  // another tree) and before each child overwrites it.
  const pa = a;
  const pb = b;
  w.visit(node, id, parent);
  const kids = node.children;
  const count = kids.length;
  if (count === 0) return;
  const { tags, texts } = w;
  const base = w.top;
  w.top = base + count;
  const seen = count > PAIRWISE_MAX ? new Map<string, number>() : undefined;
  for (let i = 0; i < count; i++) {
    const kid = kids[i]!;
    const role = kid.role;
    const tag = keyOf(kid);
    const text = keyText;
    // Earlier siblings with the same role and key: the twin count (module doc, "Place").
    let n = 0;
    if (seen === undefined) {
      for (let j = 0; j < i; j++) {
        if (texts[base + j] === text && tags[base + j] === tag && kids[j]!.role === role) n++;
      }
    } else {
      const key = `${role}\u0000${tag}\u0000${text}`;
      n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
    }
    tags[base + i] = tag;
    texts[base + i] = text;
    a = pa;
    b = pb;
    mixString(role);
    mixInt(tag);
    mixString(text);
    if (n > 0) {
      mixInt(TAG_TWIN);
      mixInt(n);
    }
    finish();
    walk(w, kid, claim(w.used), id);
  }
  w.top = base;
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
  const w: Walk = { visit, used, tags: [], texts: [], top: 0 };
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
