import assert from "node:assert/strict";
import { AtspiClient, type Ref } from "./client.ts";
import { MAX_CHILD_LIST, skeletonByWalk } from "./walk.ts";
import { STATE, StateSet } from "./states.ts";
import { Known } from "./known.ts";
import { DriverError } from "../../protocol/errors.ts";

const BUS = ":1.9";
const LIMITS = { timeoutMs: 1_000 };
const bits = (...states: number[]) => {
  const words = [0, 0];
  for (const s of states) words[s >> 5]! |= 1 << (s & 31);
  return words.map((w) => w >>> 0);
};

/** A node of the fake app. */
interface FakeNode {
  states: number[];
  ifaces?: string[];
  /** Children paths; a table's cells come from `cell` instead. */
  children?: string[];
  /** Reported child count (defaults to `children.length`). */
  count?: number;
  /** Has `Collection`: answering `GetMatches`, or failing it as if unknown. */
  collection?: "answers" | "broken";
}

const STATES = Object.values(STATE);
const gone = (ref: Ref) =>
  new DriverError("element_not_found", `Element "${ref.path}" is gone`, {});

/**
 * An app with `nodes` by path; a table at `/sheet` of 1,000,000 × 100 cells whose cells
 * at (r, c) are `/cell/r/c`, 20 px square from (0, 0), 10 × 5 of them visible. Records
 * every call as `member path`.
 */
function fakeApp(nodes: Record<string, FakeNode>) {
  const calls: string[] = [];
  const cell = (path: string): FakeNode | undefined =>
    path.startsWith("/cell/") || path.includes("/item")
      ? { states: [STATE.SHOWING, STATE.VISIBLE] }
      : undefined;
  const node = (path: string) => nodes[path] ?? cell(path)!;
  const client = {
    call(ref: Ref, _iface: string, member: string, _l: unknown, _sig?: string, body?: number[]) {
      calls.push(`${member} ${ref.path}`);
      const n = node(ref.path);
      switch (member) {
        case "GetMatches": {
          if (n.collection === "broken") return Promise.reject(gone(ref));
          // The rule's state bits, as `matchState` writes them: the children in all of them.
          const [[words], , max] = body as unknown as [[number[]], number, number];
          const wanted = new StateSet(words!);
          const kids = (n.children ?? []).filter((k) => {
            const set = new StateSet(bits(...node(k).states));
            return STATES.every((st) => !wanted.has(st) || set.has(st));
          });
          return Promise.resolve([kids.slice(0, max).map((path) => [BUS, path])]);
        }
        case "GetRole":
          return Promise.resolve([ref.path.startsWith("/cell/") ? 38 : 39]);
        case "GetState":
          return Promise.resolve([bits(...n.states)]);
        case "GetInterfaces": {
          const ifaces = [...(n.ifaces ?? []), ...(n.collection ? ["Collection"] : [])];
          return Promise.resolve([ifaces.map((i) => `org.a11y.atspi.${i}`)]);
        }
        case "GetAccessibleAtPoint":
          return Promise.resolve([[
            BUS,
            `/cell/${Math.floor(body![1]! / 20)}/${Math.floor(body![0]! / 20)}`,
          ]]);
        case "GetIndexInParent": {
          const [, , r, c] = ref.path.split("/");
          return Promise.resolve([Number(r) * 100 + Number(c)]);
        }
        case "GetRowAtIndex":
          return Promise.resolve([Math.floor(body![0]! / 100)]);
        case "GetColumnAtIndex":
          return Promise.resolve([body![0]! % 100]);
        case "GetAccessibleAt":
          return Promise.resolve([[BUS, `/cell/${body![0]}/${body![1]}`]]);
        case "GetChildAtIndex":
          return Promise.resolve([[BUS, `${ref.path}/item${body![0]}`]]);
      }
      return Promise.reject(new Error(`unexpected ${member}`));
    },
    prop(ref: Ref, iface: string, name: string) {
      calls.push(`${name} ${ref.path}`);
      const n = node(ref.path);
      if (name === "Name") return Promise.resolve(ref.path);
      // Every node is a window's child: the clip by ancestors ends at once.
      if (name === "Parent") return Promise.resolve([BUS, "/org/a11y/atspi/null"]);
      if (name === "ChildCount") return Promise.resolve(n.count ?? n.children?.length ?? 0);
      if (iface === "Table" && name === "NRows") return Promise.resolve(1_000_000);
      if (iface === "Table" && name === "NColumns") return Promise.resolve(100);
      return Promise.reject(new Error(`unexpected ${iface}.${name}`));
    },
    // The real one: it asks `call` for GetMatches with the rule it builds.
    childrenIn: AtspiClient.prototype.childrenIn,
    children(ref: Ref) {
      calls.push(`GetChildren ${ref.path}`);
      return Promise.resolve((node(ref.path).children ?? []).map((path) => ({ bus: BUS, path })));
    },
    extents(ref: Ref) {
      calls.push(`GetExtents ${ref.path}`);
      if (ref.path === "/sheet") return Promise.resolve([0, 0, 100, 200]);
      // A long list showing 1,000 to 1,200 of its rows, each 20 high.
      if (ref.path === "/long") return Promise.resolve([0, 1_000, 100, 200]);
      const row = /\/long\/item(\d+)$/.exec(ref.path);
      if (row) return Promise.resolve([0, Number(row[1]) * 20, 100, 20]);
      return Promise.resolve([0, 0, 10, 10]);
    },
  };
  return { client: client as unknown as AtspiClient, calls };
}

const SHOWN = [STATE.SHOWING, STATE.VISIBLE];

Deno.test("walk: a sheet that manages its descendants is read by its visible range", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/sheet"] },
    "/sheet": {
      states: [...SHOWN, STATE.MANAGES_DESCENDANTS],
      ifaces: ["Table", "Component"],
      count: 2 ** 31 - 1,
    },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 1_000 });
  assert.ok(!calls.includes("GetChildren /sheet"), "the sheet's children are never listed");
  const sheet = s.get("/sheet")!;
  assert.deepEqual(sheet.table, {
    rows: 1_000_000,
    columns: 100,
    first_row: 0,
    first_column: 0,
    last_row: 9,
    last_column: 4,
  });
  assert.equal(sheet.children.length, 50);
  assert.equal(sheet.children[7], "/cell/1/2", "row by row");
  assert.equal(s.size, 52);
});

Deno.test("walk: the budget cuts a table's range by whole rows", async () => {
  const { client } = fakeApp({
    "/sheet": {
      states: [...SHOWN, STATE.MANAGES_DESCENDANTS],
      ifaces: ["Table", "Component"],
      count: 2 ** 31 - 1,
    },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/sheet" }, LIMITS, { max: 13 });
  const sheet = s.get("/sheet")!;
  assert.equal(sheet.table!.last_row, 1, "12 cells of room: two rows of five");
  assert.equal(sheet.children.length, 10);
});

Deno.test("walk: a child list longer than the bound is read by index, not listed", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/list"] },
    "/list": { states: SHOWN, count: MAX_CHILD_LIST + 1 },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 10_000 });
  assert.ok(!calls.includes("GetChildren /list"));
  assert.equal(s.get("/list")!.children.length, 200, "the first 200 by index");
});

Deno.test("walk: a long plain list is read by the rows in view, found by bisection", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/long"] },
    "/long": { states: SHOWN, ifaces: ["Component"], count: 2_000 },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 10_000 });
  const kids = s.get("/long")!.children;
  assert.deepEqual(kids, Array.from({ length: 10 }, (_, i) => `/long/item${50 + i}`));
  const asked = calls.filter((c) => c.startsWith("GetChildAtIndex /long")).length;
  assert.ok(asked < 40, `rows asked: ${asked} (bisection and the rows in view)`);
});

Deno.test("walk: hidden nodes and leaves are never asked for children", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/hidden", "/leaf"] },
    "/hidden": { states: [], children: ["/deep"] },
    "/leaf": { states: SHOWN },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 100 });
  assert.deepEqual([...s.keys()].sort(), ["/hidden", "/leaf", "/w"]);
  assert.ok(!calls.some((c) => c === "GetChildren /hidden" || c === "GetChildren /leaf"));
});

Deno.test("walk: stops asking the app once the budget is spent", async () => {
  const kids = Array.from({ length: 50 }, (_, i) => `/k${i}`);
  const nodes: Record<string, FakeNode> = { "/w": { states: SHOWN, children: kids } };
  for (const k of kids) nodes[k] = { states: SHOWN };
  const { client, calls } = fakeApp(nodes);
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 10 });
  assert.equal(s.size, 10);
  assert.ok(!calls.some((c) => c.endsWith(" /k9")), "no call about a node past the budget");
});

Deno.test("walk: where the app answers which children show, hidden ones are never asked", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/menu"], collection: "answers" },
    "/menu": { states: SHOWN, children: ["/a", "/b", "/c"], collection: "answers" },
    "/a": { states: [] },
    "/b": { states: SHOWN },
    "/c": { states: [] },
  });
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 100 });
  assert.deepEqual([...s.keys()].sort(), ["/b", "/menu", "/w"]);
  assert.deepEqual(s.get("/menu")!.children, ["/b"]);
  assert.equal(s.get("/menu")!.shownOnly, true);
  assert.equal(s.get("/menu")!.childCount, 3, "the count still counts the hidden children");
  assert.ok(!calls.some((c) => c.endsWith(" /a") || c.endsWith(" /c")), calls.join(", "));
  assert.ok(!calls.some((c) => c.startsWith("GetChildren")), "no child list asked");
  assert.ok(calls.includes("GetState /b"), "a shown child's state is asked with its facts");
});

Deno.test("walk: an app whose Collection fails is listed, and not asked again", async () => {
  const { client, calls } = fakeApp({
    "/w": { states: SHOWN, children: ["/p"], collection: "broken" },
    "/p": { states: SHOWN, children: ["/x", "/y"], collection: "broken" },
    "/x": { states: SHOWN },
    "/y": { states: [] },
  });
  const known = new Known();
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 100, known });
  assert.deepEqual([...s.keys()].sort(), ["/p", "/w", "/x", "/y"]);
  assert.equal(s.get("/p")!.shownOnly, undefined);
  assert.ok(known.noCollection.has(BUS));
  assert.deepEqual(calls.filter((c) => c.startsWith("GetMatches")), ["GetMatches /w"]);
});

Deno.test("walk: a node gone under Collection fails the walk as gone", async () => {
  const { client } = fakeApp({ "/w": { states: SHOWN, children: ["/k"], collection: "broken" } });
  (client as unknown as { children: (r: Ref) => Promise<Ref[]> }).children = (ref) =>
    Promise.reject(gone(ref));
  const known = new Known();
  await assert.rejects(
    skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 100, known }),
    (err: DriverError) => err.code === "element_not_found",
  );
  assert.ok(!known.noCollection.has(BUS), "a gone node says nothing of the app's Collection");
});

Deno.test("walk: Collection's answer is bounded by the budget", async () => {
  const kids = Array.from({ length: 50 }, (_, i) => `/k${i}`);
  const nodes: Record<string, FakeNode> = {
    "/w": { states: SHOWN, children: kids, collection: "answers" },
  };
  for (const k of kids) nodes[k] = { states: SHOWN };
  const { client, calls } = fakeApp(nodes);
  const s = await skeletonByWalk(client, { bus: BUS, path: "/w" }, LIMITS, { max: 10 });
  assert.equal(s.size, 10);
  assert.ok(!calls.some((c) => c.endsWith(" /k9")), "no call about a node past the budget");
});
