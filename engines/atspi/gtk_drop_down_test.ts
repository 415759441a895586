import assert from "node:assert/strict";
import type { AtspiClient, Ref } from "./client.ts";
import { choiceShown, popoverShows, shownLabel, stepKey } from "./gtk_drop_down.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE, StateSet } from "./states.ts";

const BUS = ":1.7";
const LIMITS = { timeoutMs: 1_000 };
const role = (name: string) => ATSPI_ROLES.indexOf(name as (typeof ATSPI_ROLES)[number]);

Deno.test("shownLabel() is the button's one label with an area, not its empty page's", () => {
  assert.equal(
    shownLabel([{ name: "(None)", w: 0, h: 0 }, { name: "Banana", w: 49, h: 24 }]),
    "Banana",
  );
  assert.equal(shownLabel([{ name: "(None)", w: 0, h: 0 }]), undefined);
  assert.equal(shownLabel([{ name: " ", w: 10, h: 10 }, { name: "Apple", w: 37, h: 24 }]), "Apple");
});

Deno.test("stepKey() moves the list's focus towards the option's row, by the rows' order", () => {
  const row = (y: number): [number, number, number, number] => [87, y, 279, 16];
  assert.equal(stepKey(row(281), row(313)), "Down");
  assert.equal(stepKey(row(345), row(281)), "Up");
  assert.equal(stepKey(row(313), row(313)), undefined);
  // No row has the focus yet (the popover just opened): from the top.
  assert.equal(stepKey(undefined, row(313)), "Down");
});

interface FakeNode {
  role: string;
  name?: string;
  states?: number[];
  box?: [number, number, number, number];
  kids?: string[];
}

/** A fake bus holding `nodes` by path: the calls the drop-down's reads make. */
function fakeClient(nodes: Record<string, FakeNode>): AtspiClient {
  const at = (ref: Ref) => {
    const n = nodes[ref.path];
    if (!n) throw new Error(`no ${ref.path}`);
    return n;
  };
  const refs = (paths: string[]) => paths.map((path) => ({ bus: BUS, path }));
  return {
    call: (
      ref: Ref,
      _iface: string,
      member: string,
      _l: unknown,
      _s?: string,
      args?: unknown[],
    ) => {
      const n = at(ref);
      if (member === "GetRole") return Promise.resolve([role(n.role)]);
      if (member === "GetChildAtIndex") {
        const path = n.kids?.[Number(args?.[0])];
        return Promise.resolve([[BUS, path ?? "/org/a11y/atspi/null"]]);
      }
      throw new Error(`unexpected ${member}`);
    },
    prop: (ref: Ref, _iface: string, name: string) => {
      const n = at(ref);
      if (name === "Name") return Promise.resolve(n.name ?? "");
      if (name === "ChildCount") return Promise.resolve(n.kids?.length ?? 0);
      throw new Error(`unexpected ${name}`);
    },
    children: (ref: Ref) => Promise.resolve(refs(at(ref).kids ?? [])),
    states: (ref: Ref) => {
      const bits = at(ref).states ?? [];
      return Promise.resolve(new StateSet([bits.reduce((w, s) => w | (1 << s), 0) >>> 0, 0]));
    },
    extents: (ref: Ref) => Promise.resolve(at(ref).box ?? [0, 0, 0, 0]),
  } as unknown as AtspiClient;
}

/** GTK 4.8's drop-down as its bridge shows it: a toggle button, a popover while open. */
function dropDown(open: boolean): Record<string, FakeNode> {
  const visible = [STATE.VISIBLE, STATE.SENSITIVE];
  return {
    "/combo": { role: "combo_box", kids: open ? ["/button", "/popover"] : ["/button"] },
    "/button": { role: "push_button", states: visible, box: [85, 261, 277, 24], kids: ["/box"] },
    "/box": { role: "panel", kids: ["/empty", "/item"] },
    "/empty": { role: "label", name: "(None)", box: [85, 261, 0, 0] },
    "/item": { role: "filler", kids: ["/label"] },
    "/label": { role: "label", name: "Banana", box: [85, 261, 49, 24] },
    "/popover": { role: "filler", states: visible, box: [75, 262, 303, 120] },
  };
}

Deno.test("popoverShows() is the popover held as the combo's child after its button", async () => {
  const combo = { bus: BUS, path: "/combo" };
  assert.equal(await popoverShows(fakeClient(dropDown(true)), combo, LIMITS), true);
  assert.equal(await popoverShows(fakeClient(dropDown(false)), combo, LIMITS), false);
});

Deno.test("choiceShown() reads the option the drop-down's button shows", async () => {
  const combo = { bus: BUS, path: "/combo" };
  assert.equal(await choiceShown(fakeClient(dropDown(false)), combo, LIMITS), "Banana");
});
