import assert from "node:assert/strict";
import type { RawNode } from "../../model/engine.ts";
import type { AtspiClient, Ref } from "./client.ts";
import { dropDownCandidate, markDropDowns } from "./drop_down.ts";
import { Known } from "./known.ts";
import { ATSPI_ROLES } from "./roles.ts";
import type { Skeleton, SkeletonNode } from "./skeleton.ts";
import { STATE, StateSet } from "./states.ts";

const BUS = ":1.4";
const LIMITS = { timeoutMs: 1_000 };
const role = (name: string) => ATSPI_ROLES.indexOf(name as (typeof ATSPI_ROLES)[number]);

function node(path: string, roleName: string | 0, showing: boolean, kids: string[] = []) {
  return {
    ref: { bus: BUS, path },
    role: roleName === 0 ? 0 : role(roleName),
    name: "",
    states: new StateSet(showing ? [1 << STATE.SHOWING] : [0]),
    ifaces: new Set<string>(),
    children: kids,
    childCount: kids.length,
  } satisfies SkeletonNode;
}

/**
 * LibreOffice's Paragraph Style box as a walk reads it: an entry, a combo box that never
 * shows (its role not asked: 0) and a toggle; the combo's role answers `hiddenRole`.
 */
function styleBox(hiddenRole: string) {
  const skeleton: Skeleton = new Map([
    ["/box", node("/box", "filler", true, ["/entry", "/combo", "/toggle"])],
    ["/entry", node("/entry", "text", true)],
    ["/combo", node("/combo", 0, false)],
    ["/toggle", node("/toggle", "toggle_button", true)],
  ]);
  const asked: string[] = [];
  const client = {
    call: (ref: Ref, _iface: string, member: string) => {
      asked.push(`${ref.path} ${member}`);
      return Promise.resolve([role(hiddenRole)]);
    },
  } as unknown as AtspiClient;
  const toggle = { actions: ["press", "click", "check", "uncheck"] } as RawNode;
  return { skeleton, client, asked, toggle, rawOf: new Map([["/toggle", toggle]]) };
}

Deno.test("drop-down: a toggle beside a combo box that never shows offers show_menu, remembered", async () => {
  const { skeleton, client, asked, toggle, rawOf } = styleBox("combo_box");
  const known = new Known();
  const shown = STATE.SHOWING;
  const found = dropDownCandidate(skeleton, skeleton.get("/box")!, shown, known);
  assert.ok(found);
  await markDropDowns(client, [found], rawOf, known, LIMITS);
  assert.deepEqual(asked, ["/combo GetRole"], "only the hidden sibling's role is asked");
  assert.ok(toggle.actions.includes("show_menu"));
  assert.equal(known.get({ bus: BUS, path: "/toggle" })?.dropDown, true);
  // The next read knows it: nothing is asked again.
  assert.equal(dropDownCandidate(skeleton, skeleton.get("/box")!, shown, known), undefined);
});

Deno.test("drop-down: a toggle beside some other hidden node stays a toggle", async () => {
  const { skeleton, client, toggle, rawOf } = styleBox("panel");
  const known = new Known();
  const found = dropDownCandidate(skeleton, skeleton.get("/box")!, STATE.SHOWING, known);
  await markDropDowns(client, [found!], rawOf, known, LIMITS);
  assert.ok(!toggle.actions.includes("show_menu"));
  assert.equal(known.get({ bus: BUS, path: "/toggle" })?.dropDown, undefined);
});

Deno.test("drop-down: a box with no hidden sibling, or many children, is no candidate", () => {
  const known = new Known();
  const shown = STATE.SHOWING;
  const plain: Skeleton = new Map([
    ["/box", node("/box", "filler", true, ["/entry", "/toggle"])],
    ["/entry", node("/entry", "text", true)],
    ["/toggle", node("/toggle", "toggle_button", true)],
  ]);
  assert.equal(dropDownCandidate(plain, plain.get("/box")!, shown, known), undefined);
  const kids = ["/toggle", "/a", "/b", "/c", "/d"];
  const toolbar: Skeleton = new Map([
    ["/box", node("/box", "tool_bar", true, kids)],
    ["/toggle", node("/toggle", "toggle_button", true)],
    ...["/a", "/b", "/c", "/d"].map((p) => [p, node(p, 0, false)] as const),
  ]);
  assert.equal(dropDownCandidate(toolbar, toolbar.get("/box")!, shown, known), undefined);
});

Deno.test("drop-down: a box whose walk listed only its showing children is listed once", async () => {
  // As a walk over Collection reads it: the hidden combo is counted, not listed.
  const box: SkeletonNode = {
    ...node("/box", "filler", true, ["/entry", "/toggle"]),
    childCount: 3,
    shownOnly: true,
  };
  const skeleton: Skeleton = new Map<string, SkeletonNode>([
    ["/box", box],
    ["/entry", node("/entry", "text", true)],
    ["/toggle", node("/toggle", "toggle_button", true)],
  ]);
  const asked: string[] = [];
  const client = {
    call: (ref: Ref, _iface: string, member: string) => {
      asked.push(`${ref.path} ${member}`);
      return Promise.resolve([role("combo_box")]);
    },
    children: (ref: Ref) => {
      asked.push(`${ref.path} GetChildren`);
      return Promise.resolve(["/entry", "/combo", "/toggle"].map((path) => ({ bus: BUS, path })));
    },
  } as unknown as AtspiClient;
  const toggle = { actions: ["press", "click", "check", "uncheck"] } as RawNode;
  const known = new Known();
  const found = dropDownCandidate(skeleton, skeleton.get("/box")!, STATE.SHOWING, known);
  assert.ok(found);
  await markDropDowns(client, [found], new Map([["/toggle", toggle]]), known, LIMITS);
  assert.deepEqual(asked, ["/box GetChildren", "/combo GetRole"]);
  assert.ok(toggle.actions.includes("show_menu"));
  // All its children showing: nothing hidden beside the toggle, no candidate.
  const whole = { ...box, childCount: 2 };
  assert.equal(dropDownCandidate(skeleton, whole, STATE.SHOWING, new Known()), undefined);
});
