import assert from "node:assert/strict";
import type { AtspiClient, Ref } from "./client.ts";
import { Known } from "./known.ts";
import {
  BLANK_COLUMNS,
  BLANK_RUN,
  cellHandle,
  liveRef,
  MAX_SHEET_CELLS,
  scanSheet,
} from "./sheet.ts";
import type { SkeletonNode } from "./skeleton.ts";
import { StateSet } from "./states.ts";

const BUS = ":1.7";
const LIMITS = { timeoutMs: 1_000 };
const SHEET: Ref = { bus: BUS, path: "/sheet" };

/**
 * A sheet of 1,048,576 × 1,024 cells whose text is `text(r, c)`, answering a new object
 * for each ask (as LibreOffice does): `/obj/<n>`. Records the cells asked for.
 */
function fakeSheet(text: (r: number, c: number) => string) {
  const asked: [number, number][] = [];
  const objects: [number, number][] = [];
  const at = (path: string) => objects[Number(path.slice("/obj/".length))]!;
  const client = {
    call(_ref: Ref, _iface: string, member: string, _l: unknown, _sig?: string, body?: number[]) {
      switch (member) {
        case "GetAccessibleAt": {
          asked.push([body![0]!, body![1]!]);
          objects.push([body![0]!, body![1]!]);
          return Promise.resolve([[BUS, `/obj/${objects.length - 1}`]]);
        }
        case "GetRole":
          return Promise.resolve([29]);
        case "GetState":
          return Promise.resolve([[0, 0]]);
        case "GetInterfaces":
          return Promise.resolve([["org.a11y.atspi.Text", "org.a11y.atspi.Component"]]);
      }
      throw new Error(`unexpected ${member}`);
    },
    prop(ref: Ref, _iface: string, name: string) {
      switch (name) {
        case "NRows":
          return Promise.resolve(1_048_576);
        case "NColumns":
          return Promise.resolve(1_024);
        case "Name": {
          const [r, c] = at(ref.path);
          return Promise.resolve(`${String.fromCharCode(65 + c)}${r + 1}`);
        }
        case "ChildCount":
          return Promise.resolve(0);
        case "CharacterCount":
          return Promise.resolve(text(...at(ref.path)).length);
      }
      throw new Error(`unexpected ${name}`);
    },
  } as unknown as AtspiClient;
  return { client, asked };
}

const sheetNode: SkeletonNode = {
  ref: SHEET,
  role: 0,
  name: "Sheet",
  states: new StateSet([0, 0]),
  ifaces: new Set(["Table"]),
  children: [],
  childCount: 1_073_741_824,
};

Deno.test("a sheet is scanned over its filled part only: each column to a blank run, columns to a blank run", async () => {
  // Columns A and B hold 100 rows, with a gap of 10 in A; C is empty, D holds one value.
  const text = (r: number, c: number) =>
    (c < 2 && r < 100 && !(c === 0 && r >= 40 && r < 50)) || (c === 3 && r === 5) ? "x" : "";
  const { client, asked } = fakeSheet(text);
  const seen: string[] = [];
  await scanSheet(client, sheetNode, LIMITS, new Known(), 10_000, () => false, (c) => {
    seen.push(c.node.name);
    return Promise.resolve();
  });
  assert.ok(seen.includes("A100") && seen.includes("B100") && seen.includes("D6"), "all found");
  const deepest = (c: number) => Math.max(...asked.filter(([, k]) => k === c).map(([r]) => r));
  // Each column is asked down to a blank run past its last value, in whole batches.
  assert.ok(deepest(0) >= 99 + BLANK_RUN && deepest(0) < 99 + BLANK_RUN + 16, `A: ${deepest(0)}`);
  assert.ok(deepest(2) < BLANK_RUN + 16, "an empty column costs one blank run");
  const columns = new Set(asked.map(([, c]) => c));
  assert.equal(Math.max(...columns), 3 + BLANK_COLUMNS, "stops after the blank columns past D");
  // Cells visited past a column's blank run are not handed on.
  assert.ok(!seen.includes(`A${100 + BLANK_RUN + 2}`));
});

Deno.test("a sheet scan stops at its room, and never asks more than its own cap", async () => {
  const { client, asked } = fakeSheet(() => "x");
  const n = await scanSheet(client, sheetNode, LIMITS, new Known(), 100, () => false, () => {
    return Promise.resolve();
  });
  assert.equal(n, 100);
  assert.equal(asked.length, 100);
  const big = fakeSheet(() => "x");
  const all = await scanSheet(
    big.client,
    sheetNode,
    LIMITS,
    new Known(),
    30_000,
    () => false,
    () => {
      return Promise.resolve();
    },
  );
  assert.equal(all, MAX_SHEET_CELLS);
});

Deno.test("a cell's handle names its address: the sheet is asked for the cell again each time", async () => {
  const { client, asked } = fakeSheet(() => "");
  const handle = cellHandle(SHEET, 299, 0);
  const first = await liveRef(client, handle, LIMITS);
  const second = await liveRef(client, handle, LIMITS);
  assert.notEqual(first.path, second.path, "a new object per ask");
  assert.deepEqual(asked, [[299, 0], [299, 0]]);
  // Any other handle is its object.
  assert.deepEqual(await liveRef(client, `${BUS}|/obj/0`, LIMITS), { bus: BUS, path: "/obj/0" });
});
