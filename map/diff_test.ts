import assert from "node:assert/strict";
import fc from "fast-check";
import type { RawNode } from "../model/engine.ts";
import type { Element } from "../protocol/element.ts";
import { diff } from "./diff.ts";
import { buildSnapshot } from "./snapshot.ts";
import { node } from "./_fixtures.ts";

const WIN = { x: 0, y: 0, w: 300, h: 200 };

function el(id: string, name: string, extra: Partial<Element> = {}): Element {
  return {
    id,
    role: "AXButton",
    name,
    bounds: { x: 0, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: [],
    ...extra,
  };
}

Deno.test("diff() reports removed element", () => {
  const a = el("a", "A");
  const b = el("b", "B");
  assert.deepEqual(diff([a, b], [a]), { added: [], changed: [], removed: ["b"] });
});

Deno.test("diff() reports added element", () => {
  const a = el("a", "A");
  const b = el("b", "B");
  assert.deepEqual(diff([a], [b, a]), { added: [b], changed: [], removed: [] });
});

Deno.test("diff() reports a changed element as the full new element", () => {
  const before = [el("a", "A", { value: "1" }), el("b", "B")];
  const after = [
    el("a", "A", { value: "2" }),
    el("b", "B", { bounds: { x: 1, y: 0, w: 10, h: 10 } }),
  ];
  const d = diff(before, after);
  assert.equal(d.changed[0], after[0]);
  assert.equal(d.changed[1], after[1]);
  assert.deepEqual(d.added, []);
  assert.deepEqual(d.removed, []);
});

Deno.test("diff() sees value appearing, enabled and focus changes", () => {
  const a = el("a", "A");
  assert.equal(diff([a], [el("a", "A", { value: "" })]).changed.length, 1);
  assert.equal(diff([a], [el("a", "A", { enabled: false })]).changed.length, 1);
  assert.equal(diff([a], [el("a", "A", { focused: true })]).changed.length, 1);
});

Deno.test("diff() ignores actions and crop", () => {
  const a = el("a", "A", { actions: ["press"] });
  const b = el("a", "A", { actions: ["press", "focus"], crop: "00000000ffffffff" });
  assert.deepEqual(diff([a], [b]), { added: [], changed: [], removed: [] });
});

// Randomized trees: node i hangs under node (parent % i), so any array is a tree.
const ROLES = ["AXGroup", "AXButton", "AXRow", "AXStaticText"];
const NAMES = ["", "OK", "Delete", "Alpha", "Beta"];
const spec = fc.record({
  parent: fc.nat(),
  role: fc.constantFrom(...ROLES),
  name: fc.constantFrom(...NAMES),
  value: fc.option(fc.constantFrom("1", "2", ""), { nil: undefined }),
  x: fc.integer({ min: 0, max: 40 }),
  y: fc.integer({ min: 0, max: 40 }),
});
const mutation = fc.record({
  kind: fc.constantFrom("insert", "remove", "rename", "revalue", "move", "toggle", "actions"),
  target: fc.nat(),
  pos: fc.nat(),
  name: fc.constantFrom(...NAMES),
  value: fc.option(fc.constantFrom("1", "3"), { nil: undefined }),
  d: fc.integer({ min: -20, max: 20 }),
});
type Spec = typeof spec extends fc.Arbitrary<infer T> ? T : never;
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function fromSpec(s: Spec): RawNode {
  const extras = s.value === undefined ? {} : { value: s.value };
  return node(s.role, s.name, { x: s.x, y: s.y, w: 10, h: 10 }, [], extras);
}

function build(specs: Spec[]): RawNode {
  const nodes = [node("AXWindow", "W", WIN), ...specs.map(fromSpec)];
  specs.forEach((s, i) => nodes[s.parent % (i + 1)]!.children.push(nodes[i + 1]!));
  return nodes[0]!;
}

function clone(n: RawNode): RawNode {
  return {
    ...n,
    bounds: { ...n.bounds },
    actions: [...n.actions],
    children: n.children.map(clone),
  };
}

function mutate(root: RawNode, muts: Mutation[], fresh: Spec): RawNode {
  const out = clone(root);
  for (const m of muts) {
    const all: { n: RawNode; parent: RawNode | undefined }[] = [];
    const walk = (n: RawNode, parent: RawNode | undefined) => {
      all.push({ n, parent });
      n.children.forEach((c) => walk(c, n));
    };
    walk(out, undefined);
    const { n, parent } = all[m.target % all.length]!;
    if (m.kind === "insert") {
      n.children.splice(m.pos % (n.children.length + 1), 0, fromSpec({ ...fresh, name: m.name }));
    } else if (m.kind === "remove" && parent !== undefined) {
      parent.children.splice(parent.children.indexOf(n), 1);
    } else if (m.kind === "rename") n.name = m.name;
    else if (m.kind === "revalue") {
      if (m.value === undefined) delete n.value;
      else n.value = m.value;
    } else if (m.kind === "move") n.bounds = { ...n.bounds, x: n.bounds.x + m.d };
    else if (m.kind === "toggle") n.enabled = !n.enabled;
    else if (m.kind === "actions") n.actions = ["press"];
  }
  return out;
}

function visible(e: Element): unknown {
  const { id, role, name, value, bounds, enabled, focused, parent } = e;
  return { id, role, name, value, bounds, enabled, focused, parent };
}

Deno.test("diff() turns the old list into the new one on randomized trees", () => {
  fc.assert(
    fc.property(
      fc.array(spec, { maxLength: 40 }),
      fc.array(mutation, { minLength: 1, maxLength: 8 }),
      spec,
      (specs, muts, fresh) => {
        const tree = build(specs);
        const before = buildSnapshot(tree).elements;
        const after = buildSnapshot(mutate(tree, muts, fresh)).elements;
        const oldIds = new Set(before.map((e) => e.id));
        const newById = new Map(after.map((e) => [e.id, e]));
        assert.equal(newById.size, after.length);
        const d = diff(before, after);
        for (const e of d.added) assert.equal(oldIds.has(e.id), false);
        for (const id of d.removed) assert.equal(newById.has(id), false);
        for (const e of d.changed) {
          const was = before.find((b) => b.id === e.id);
          assert.ok(was);
          assert.notDeepEqual(visible(was), visible(e));
        }
        const applied = new Map(before.map((e) => [e.id, e]));
        for (const id of d.removed) applied.delete(id);
        for (const e of [...d.added, ...d.changed]) applied.set(e.id, e);
        assert.deepEqual(
          [...applied.values()].map(visible).sort(byId),
          after.map(visible).sort(byId),
        );
      },
    ),
    { numRuns: 300 },
  );
});

function byId(a: unknown, b: unknown): number {
  return (a as Element).id < (b as Element).id ? -1 : 1;
}
