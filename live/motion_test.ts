import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import {
  boundsOf,
  MOTION_MAX_MS,
  MOTION_READ_MS,
  MOTION_STILL_MS,
  motionDue,
  moved,
  nextMotion,
  startMotion,
  startsMoving,
} from "./motion.ts";

function n(handle: string, h: number, y = 0, children: RawNode[] = []): RawNode {
  return {
    handle,
    role: "AXGroup",
    name: handle,
    bounds: { x: 0, y, w: 100, h },
    enabled: true,
    focused: false,
    actions: [],
    children,
  };
}

/** An accordion: a header, an optional panel of `panel` points holding a line of text. */
const accordion = (panel: number | undefined, next = 20) =>
  n("area", 100, 0, [
    n("header1", 18),
    ...(panel !== undefined ? [n("panel", panel, 18, [n("text", 11, 18)])] : []),
    n("header2", 18, next),
  ]);

Deno.test("moved(): an element that was there with other bounds, not one added or gone", () => {
  assert.equal(moved(accordion(undefined), accordion(undefined, 40)), true);
  assert.equal(moved(accordion(undefined), accordion(80)), false, "added, nothing moved");
  assert.equal(moved(accordion(80), accordion(undefined)), false, "removed");
  assert.equal(moved(accordion(1, 21), accordion(80, 21)), true, "the panel grew");
});

Deno.test("startsMoving(): a panel opening at a sliver over its text starts motion", () => {
  const before = boundsOf(accordion(undefined));
  assert.equal(startsMoving(before, accordion(1)), true);
  // Opened at full height at once, nothing else moved: no animation to follow.
  assert.equal(startsMoving(before, accordion(40)), false);
  assert.equal(startsMoving(before, accordion(undefined, 40)), true, "the next header moved");
  assert.equal(startsMoving(before, accordion(undefined)), false);
});

Deno.test("startsMoving(): a sliver that was already there is not a new opening", () => {
  const still = accordion(1);
  assert.equal(startsMoving(boundsOf(still), accordion(1)), false);
});

Deno.test("boundsOf() keeps the bounds as they were when a patch changes the tree in place", () => {
  const tree = accordion(1);
  const before = boundsOf(tree);
  tree.children[1]!.bounds = { x: 0, y: 18, w: 100, h: 40 };
  assert.equal(startsMoving(before, tree), true);
});

Deno.test("nextMotion(): motion ends a still span after the last move, or at its limit", () => {
  const m = startMotion(1_000);
  assert.deepEqual(nextMotion(m, true, 1_150), { ...m, lastMove: 1_150 });
  assert.equal(nextMotion(m, false, 1_000 + MOTION_STILL_MS - 1), m, "too soon to call still");
  assert.equal(nextMotion(m, false, 1_000 + MOTION_STILL_MS), undefined);
  assert.equal(nextMotion(m, true, 1_000 + MOTION_MAX_MS), undefined, "followed long enough");
});

Deno.test("motionDue(): a map in motion is read again once it is a read interval old", () => {
  const m = startMotion(1_000);
  assert.equal(motionDue(undefined, 0, 5_000), false);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_READ_MS - 1), false);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_READ_MS), true);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_MAX_MS), false);
});
