import assert from "node:assert/strict";
import type { PixelInput } from "../../model/engine.ts";
import type { AtspiClient, Ref } from "./client.ts";
import { arrowKey, discloseByKeys, hidesSelection, rowSelectionUnseen } from "./page_rows.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE, StateSet } from "./states.ts";

const BUS = ":1.9";
const LIMITS = { timeoutMs: 1_000 };
const role = (name: string) => ATSPI_ROLES.indexOf(name as (typeof ATSPI_ROLES)[number]);
const states = (...bits: number[]) => new StateSet([bits.reduce((w, s) => w | (1 << s), 0) >>> 0]);

interface FakeNode {
  role: string;
  states?: number[];
  parent?: string;
  /** What `GrabFocus` answers. */
  grabs?: boolean;
}

/** A fake bus holding `nodes` by path, recording the focus requests it is asked. */
function fakeClient(nodes: Record<string, FakeNode>) {
  const grabbed: string[] = [];
  const at = (ref: Ref) => nodes[ref.path] ?? assert.fail(`no ${ref.path}`);
  const client = {
    call: (ref: Ref, _iface: string, member: string) => {
      const n = at(ref);
      if (member === "GetRole") return Promise.resolve([role(n.role)]);
      if (member === "GrabFocus") {
        grabbed.push(ref.path);
        return Promise.resolve([n.grabs ?? true]);
      }
      throw new Error(`unexpected ${member}`);
    },
    prop: (ref: Ref, _iface: string, name: string) => {
      if (name === "Parent") {
        return Promise.resolve([BUS, at(ref).parent ?? "/org/a11y/atspi/null"]);
      }
      throw new Error(`unexpected ${name}`);
    },
    states: (ref: Ref) => Promise.resolve(states(...(at(ref).states ?? []))),
  } as unknown as AtspiClient;
  return { client, grabbed };
}

const ref = (path: string): Ref => ({ bus: BUS, path });

Deno.test("arrowKey() opens a tree row by Right and closes it by Left", () => {
  assert.equal(arrowKey(true), "Right");
  assert.equal(arrowKey(false), "Left");
});

Deno.test("discloseByKeys() focuses the row, then presses the arrow", async () => {
  const { client, grabbed } = fakeClient({
    "/europe": { role: "tree_item", states: [STATE.FOCUSABLE, STATE.EXPANDABLE] },
  });
  const sent: PixelInput[] = [];
  const input = (i: PixelInput) => Promise.resolve(void sent.push(i));
  assert.equal(await discloseByKeys(client, input, ref("/europe"), false, LIMITS), true);
  assert.deepEqual(grabbed, ["/europe"]);
  assert.deepEqual(sent, [{ kind: "key", keys: "Left" }]);
});

Deno.test("discloseByKeys() sends nothing for a row that takes no focus", async () => {
  const { client, grabbed } = fakeClient({
    "/plain": { role: "tree_item", states: [STATE.EXPANDABLE] },
    "/refuses": { role: "tree_item", states: [STATE.FOCUSABLE], grabs: false },
  });
  const sent: PixelInput[] = [];
  const input = (i: PixelInput) => Promise.resolve(void sent.push(i));
  // Unfocusable: the key would reach whichever row has the focus.
  assert.equal(await discloseByKeys(client, input, ref("/plain"), true, LIMITS), false);
  assert.deepEqual(grabbed, [], "an unfocusable row is not asked");
  assert.equal(await discloseByKeys(client, input, ref("/refuses"), true, LIMITS), false);
  assert.deepEqual(sent, []);
});

Deno.test("hidesSelection() is a table row that says nothing of selection", () => {
  assert.equal(hidesSelection("table_row", states(STATE.FOCUSABLE)), true);
  // A row whose role the page wrote out: Gecko shows its aria-selected.
  assert.equal(hidesSelection("table_row", states(STATE.SELECTABLE)), false);
  assert.equal(hidesSelection("list_box", states()), false);
});

Deno.test("rowSelectionUnseen() reads the cell's row: Gecko's <tr> hides, role=row shows", async () => {
  const { client } = fakeClient({
    "/tr": { role: "table_row", states: [STATE.FOCUSABLE] },
    "/td": { role: "table_cell", states: [STATE.SELECTABLE], parent: "/tr" },
    "/row": { role: "table_row", states: [STATE.FOCUSABLE, STATE.SELECTABLE] },
    "/cell": { role: "table_cell", states: [STATE.SELECTABLE], parent: "/row" },
    "/orphan": { role: "table_cell" },
  });
  assert.equal(await rowSelectionUnseen(client, ref("/td"), LIMITS), true);
  assert.equal(await rowSelectionUnseen(client, ref("/cell"), LIMITS), false);
  assert.equal(await rowSelectionUnseen(client, ref("/orphan"), LIMITS), false);
});
