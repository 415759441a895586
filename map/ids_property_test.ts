/**
 * Property test of the id rule (`ids.ts`): on random window trees, random edits of the
 * kinds apps make between two reads leave the id of every element that is still the same
 * element unchanged, and ids stay unique. Seeded (mulberry32), so a failure names the seed
 * that reproduces it.
 *
 * Edits: a value-named element's value typed (its name with it, as toolkits that name a
 * field by its text do), a combo's shown option changing, a cell's contents edited,
 * siblings inserted or removed before a node, a twin added after the last sibling, a
 * document body and the window retitled, bounds moved, states toggled, and named
 * elements renamed elsewhere. A renamed element is another element: it and its subtree
 * are left out of the check, and so is an unnamed row whose contents (the names that
 * name it) a child inserted, removed or renamed in it may have changed. Inserted siblings
 * have a key no sibling has and removed ones a role no sibling shares: a twin inserted
 * before a twin shifts the later one (the documented limit of telling twins apart by
 * order).
 *
 * @module
 */
import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import { computeIds, ITEM_ROLES, VALUE_NAMED, visitIds } from "./ids.ts";
import { prng } from "./_fixtures.ts";

const SEEDS = 500;
const EDITS_PER_SEED = 6;

type Rand = () => number;

let handles = 0;

function mk(
  role: string,
  name: string,
  children: RawNode[] = [],
  extra: Partial<RawNode> = {},
): RawNode {
  return {
    handle: `n${++handles}`,
    role,
    name,
    bounds: { x: 0, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: [],
    children,
    ...extra,
  };
}

const pick = <T>(rand: Rand, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

/** A leaf or small widget of the kinds that carry the rule's cases. */
function widget(rand: Rand, serial: () => number): RawNode {
  const k = rand();
  const n = serial();
  if (k < 0.15) {
    const text = rand() < 0.5 ? "" : `typed ${n}`;
    const field = mk(pick(rand, ["AXTextField", "AXTextArea", "AXIncrementor"]), text, [], {
      value: text,
    });
    if (rand() < 0.4) field.label = `Label ${n % 4}`;
    return field;
  }
  if (k < 0.25) {
    const options = ["Small", "Medium", "Large"];
    const shown = pick(rand, options);
    return mk(pick(rand, ["AXPopUpButton", "AXComboBox"]), shown, [
      mk("AXMenu", "", options.map((o) => mk("AXMenuItem", o))),
    ]);
  }
  if (k < 0.4) {
    // A tree view's row: an unnamed item named by its first cell (Thunar's file rows).
    return mk(pick(rand, ["AXRow", "AXCell"]), "", [
      mk("AXImage", ""),
      mk("AXCell", `file ${n}.txt`),
      mk("AXCell", pick(rand, ["1 KiB", "2 KiB"])),
    ]);
  }
  if (k < 0.5) return mk("AXGroup", "", [], { value: `Paragraph ${n % 3}` });
  if (k < 0.6) return mk("AXSlider", "", [], { value: String(n % 10) });
  if (k < 0.7) return mk("AXImage", "");
  return mk(
    pick(rand, ["AXButton", "AXStaticText", "AXCheckBox"]),
    pick(rand, [
      `Item ${n}`,
      "OK",
      "Delete",
    ]),
  );
}

/** A random window: nested groups, a spreadsheet, a document, widgets. */
function randomWindow(rand: Rand): RawNode {
  let serial = 0;
  const next = () => ++serial;
  const container = (depth: number): RawNode => {
    const kids: RawNode[] = [];
    const fan = 1 + Math.floor(rand() * 6);
    for (let i = 0; i < fan; i++) {
      kids.push(depth < 3 && rand() < 0.35 ? container(depth + 1) : widget(rand, next));
    }
    const name = rand() < 0.6 ? "" : `Pane ${next()}`;
    return mk(pick(rand, ["AXGroup", "AXScrollArea", "AXList", "AXToolbar"]), name, kids);
  };
  const cells: RawNode[] = [];
  for (let r = 0; r < 3; r++) {
    for (let c = 0; c < 3; c++) {
      const text = rand() < 0.3 ? "" : String(Math.floor(rand() * 3));
      cells.push(mk("AXCell", text, [], { value: text, cell: { row: r, column: c } }));
    }
  }
  const paragraphs = Array.from(
    { length: 1 + Math.floor(rand() * 4) },
    () => mk("AXGroup", "", [], { value: pick(rand, ["Alpha", "Beta"]) }),
  );
  return mk("AXWindow", "Untitled", [
    container(0),
    mk("AXTable", "Sheet 1", cells),
    mk("AXTextArea", "Untitled - Document", paragraphs),
    container(0),
  ]);
}

function copy(n: RawNode): RawNode {
  return {
    ...n,
    bounds: { ...n.bounds },
    actions: [...n.actions],
    ...(n.cell ? { cell: { ...n.cell } } : {}),
    children: n.children.map(copy),
  };
}

interface Place {
  node: RawNode;
  parent: RawNode | undefined;
  depth: number;
}

function places(root: RawNode): Place[] {
  const out: Place[] = [];
  const walk = (node: RawNode, parent: RawNode | undefined, depth: number) => {
    out.push({ node, parent, depth });
    for (const c of node.children) walk(c, node, depth + 1);
  };
  walk(root, undefined, 0);
  return out;
}

/** What one round of edits did: elements that became other elements (by handle). */
interface Edited {
  tree: RawNode;
  renamed: Set<string>;
}

/**
 * Adds to `renamed` the unnamed rows and items above `node` (up to 3 levels) whose name
 * comes from their contents: a child named, renamed, inserted or removed there may be
 * what names them now. Such a row is another row to the rule, like a renamed element.
 */
function namingRows(
  node: RawNode,
  parentOf: ReadonlyMap<RawNode, RawNode>,
  renamed: Set<string>,
): void {
  let up = parentOf.get(node);
  for (let d = 0; up && d < 3; d++, up = parentOf.get(up)) {
    if (up.name === "" && ITEM_ROLES.has(up.role)) renamed.add(up.handle);
  }
}

/** Applies `count` random edits to a copy of `root`. */
function edit(root: RawNode, rand: Rand, count: number): Edited {
  const tree = copy(root);
  const renamed = new Set<string>();
  const parentOf = new Map<RawNode, RawNode>();
  for (let i = 0; i < count; i++) {
    const all = places(tree);
    for (const p of all) if (p.parent) parentOf.set(p.node, p.parent);
    const { node, parent } = pick(rand, all.slice(1));
    const kind = Math.floor(rand() * 10);
    if (kind === 0 && VALUE_NAMED.has(node.role)) {
      // Typing: the value changes, and with it the name of a field named by its text.
      node.value = `${node.value ?? ""}x`;
      if (node.name !== "" || rand() < 0.5) node.name = node.value;
    } else if (kind === 1 && (node.role === "AXPopUpButton" || node.role === "AXComboBox")) {
      node.name = pick(rand, ["Small", "Medium", "Large"]);
      node.value = node.name;
    } else if (kind === 2 && node.cell) {
      node.name = node.value = `${node.value ?? ""}7`;
    } else if (kind === 3) {
      // A sibling inserted before `node`, with a key no sibling has.
      const at = parent!.children.indexOf(node);
      const fresh = rand() < 0.5
        ? mk(pick(rand, ["AXButton", "AXStaticText", "AXGroup"]), `new ${handles}`)
        : mk("AXRow", "", [mk("AXCell", `new ${handles}.txt`)]);
      parent!.children.splice(at, 0, fresh);
      namingRows(fresh, parentOf.set(fresh, parent!), renamed);
    } else if (kind === 4) {
      // A sibling before `node` removed: one whose role no other sibling has.
      const at = parent!.children.indexOf(node);
      const lone = parent!.children.slice(0, at).filter((c) =>
        parent!.children.filter((d) => d.role === c.role).length === 1
      );
      if (lone.length > 0) {
        const gone = pick(rand, lone);
        parent!.children = parent!.children.filter((c) => c !== gone);
        namingRows(gone, parentOf, renamed);
      }
    } else if (kind === 5) {
      node.bounds = { x: node.bounds.x + 13, y: node.bounds.y + 29, w: 40, h: 17 };
      node.focused = !node.focused;
      node.enabled = !node.enabled;
    } else if (kind === 6) {
      // The window and the document body retitled (their names are titles).
      tree.name = `Edited ${i}`;
      for (const p of all) if (p.node.role === "AXTextArea") p.node.name = `doc ${i}`;
    } else if (kind === 7 && node.name !== "" && !VALUE_NAMED.has(node.role) && !node.cell) {
      // A renamed element is another element, and so is an unnamed row it names.
      node.name = `${node.name} renamed`;
      renamed.add(node.handle);
      namingRows(node, parentOf, renamed);
    } else if (kind === 8 && node.value !== undefined && !node.cell) {
      node.value = `${node.value} more`;
    } else if (kind === 9 && !node.cell) {
      // A twin of `node` added after its last sibling (LibreOffice's edit overlay group).
      parent!.children.push({ ...copy(node), handle: `n${++handles}`, children: [] });
    }
  }
  return { tree, renamed };
}

/** Ids by handle, leaving out the renamed elements and everything below them. */
function kept(root: RawNode, renamed: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string>();
  const skipped = new Set<string>();
  visitIds(root, (node, id, parent) => {
    if (renamed.has(node.handle) || (parent !== undefined && skipped.has(parent))) {
      skipped.add(id);
      return;
    }
    out.set(node.handle, id);
  });
  return out;
}

Deno.test("computeIds() keeps the id of every element an edit leaves the same", () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const rand = prng(seed);
    const before = randomWindow(rand);
    const beforeIds = computeIds(before);
    assert.equal(new Set(beforeIds).size, beforeIds.length, `seed ${seed}: ids not unique`);
    const { tree: after, renamed } = edit(before, rand, EDITS_PER_SEED);
    const afterIds = computeIds(after);
    assert.equal(new Set(afterIds).size, afterIds.length, `seed ${seed}: ids not unique after`);
    const was = kept(before, renamed);
    const now = kept(after, renamed);
    for (const [handle, id] of now) {
      const old = was.get(handle);
      if (old !== undefined) assert.equal(id, old, `seed ${seed}: ${handle} changed id`);
    }
  }
});

Deno.test("computeIds() keeps ids unique on wide trees of identical twins", () => {
  const rand = prng(7);
  for (let round = 0; round < 20; round++) {
    const kids = Array.from(
      { length: 1 + Math.floor(rand() * 60) },
      () => mk(pick(rand, ["AXGroup", "AXTextField"]), pick(rand, ["", "same"])),
    );
    const ids = computeIds(mk("AXWindow", "W", [mk("AXList", "", kids), mk("AXList", "", kids)]));
    assert.equal(new Set(ids).size, ids.length);
  }
});
