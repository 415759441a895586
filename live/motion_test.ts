import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import {
  boundsOf,
  MOTION_CONFIRM_MS,
  MOTION_MAX_MS,
  MOTION_READ_MS,
  MOTION_STILL_MS,
  motionDue,
  motionWaitMs,
  movesSince,
  nextMotion,
  startMotion,
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

const was = (tree: RawNode) => boundsOf(tree);
const none = { reflow: false, moved: false, reshaped: false };
const slid = { reflow: false, moved: true, reshaped: false };
const starts = (before: RawNode, after: RawNode) =>
  startMotion(movesSince(was(before), after), 0) !== undefined;

Deno.test("movesSince(): moved, reshaped and reflowing told apart", () => {
  const pushed = movesSince(was(accordion(undefined)), accordion(undefined, 40));
  assert.deepEqual(pushed, { reflow: false, moved: true, reshaped: false });
  const added = movesSince(was(accordion(undefined)), accordion(80));
  assert.deepEqual(added, { reflow: false, moved: false, reshaped: true });
  const gone = movesSince(was(accordion(80)), accordion(undefined));
  assert.deepEqual(gone, { reflow: false, moved: false, reshaped: true });
  const grew = movesSince(was(accordion(1, 21)), accordion(80, 21));
  assert.deepEqual(grew, { reflow: false, moved: true, reshaped: true });
});

Deno.test("startMotion(): a panel opening at a sliver over its text starts motion", () => {
  assert.equal(starts(accordion(undefined), accordion(1)), true);
  // Opened at full height at once, nothing else moved: no animation to follow.
  assert.equal(starts(accordion(undefined), accordion(40)), false);
  assert.equal(starts(accordion(undefined), accordion(undefined)), false);
});

Deno.test("startMotion(): a panel halfway open over its text starts motion", () => {
  const half = accordion(6, 24);
  assert.equal(movesSince(was(accordion(undefined)), half).reflow, true);
  assert.equal(starts(accordion(undefined), half), true);
});

Deno.test("movesSince(): content a few points past its container's edge is no reflow", () => {
  // jQuery UI's tab: its link reaches 4 pt past the tab, at rest.
  const tab = (x: number, w: number) => ({
    ...n("tab", 25, 210, [{
      ...n("link", 23, 211),
      bounds: { x: x + 1, y: 211, w: w + 3, h: 23 },
    }]),
    bounds: { x, y: 210, w, h: 25 },
  });
  const strip = (tabs: RawNode[]) => n("strip", 30, 205, tabs);
  const moves = movesSince(was(strip([tab(60, 42)])), strip([tab(16, 42), tab(60, 42)]));
  assert.equal(moves.reflow, false, "a tab's overflow is its layout, not a frame of motion");
});

Deno.test("startMotion(): a new sliver with its content not yet shown starts motion", () => {
  const before = accordion(undefined);
  const sliver = n("area", 100, 0, [n("header1", 18), n("panel", 2, 18), n("header2", 18, 21)]);
  assert.equal(starts(before, sliver), true, "Chromium's first frame of an opening panel");
  const rule = { ...n("rule", 1, 18), role: "AXSplitter" };
  const ruled = n("area", 100, 0, [n("header1", 18), rule, n("header2", 18, 21)]);
  assert.equal(
    startMotion(movesSince(was(before), ruled), 0)?.stillMs,
    MOTION_CONFIRM_MS,
    "a separator is thin by nature: the move it made is confirmed like any jump",
  );
});

Deno.test("startMotion(): elements moved with nothing to explain it start motion", () => {
  assert.equal(starts(accordion(undefined), accordion(undefined, 40)), true, "a slide");
});

Deno.test("startMotion(): moves that new content may explain are confirmed by one read", () => {
  const form = n("area", 56, 0, [n("field", 20, 10)]);
  const grown = n("area", 91, 0, [n("query", 20, 0), n("field", 20, 30), n("submit", 30, 60)]);
  const moves = movesSince(was(form), grown);
  assert.deepEqual(moves, { reflow: false, moved: true, reshaped: true });
  const m = startMotion(moves, 1_000)!;
  assert.equal(m.stillMs, MOTION_CONFIRM_MS);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_CONFIRM_MS), true, "read again soon");
  assert.equal(nextMotion(m, none, 1_000 + MOTION_CONFIRM_MS), undefined, "a jump: at rest");
  assert.deepEqual(nextMotion(m, slid, 1_000 + MOTION_CONFIRM_MS), {
    ...m,
    lastMove: 1_000 + MOTION_CONFIRM_MS,
    stillMs: MOTION_STILL_MS,
  }, "moved again: an animation, waited out in full");
});

Deno.test("movesSince(): a container that clipped before and did not change is no reflow", () => {
  const still = accordion(1);
  assert.equal(movesSince(was(still), accordion(1)).reflow, false);
  assert.equal(starts(still, accordion(1)), false);
});

Deno.test("boundsOf() keeps the bounds as they were when a patch changes the tree in place", () => {
  const tree = accordion(1);
  const before = boundsOf(tree);
  tree.children[1]!.bounds = { x: 0, y: 18, w: 100, h: 40 };
  assert.equal(movesSince(before, tree).moved, true);
});

Deno.test("nextMotion(): motion ends a still span after the last move, or at its limit", () => {
  const m = startMotion(slid, 1_000)!;
  assert.deepEqual(m, { lastMove: 1_000, until: 1_000 + MOTION_MAX_MS, stillMs: MOTION_STILL_MS });
  const grown = { reflow: false, moved: true, reshaped: true };
  assert.deepEqual(nextMotion(m, grown, 1_150), { ...m, lastMove: 1_150 }, "any move goes on");
  assert.equal(nextMotion(m, none, 1_000 + MOTION_STILL_MS - 1), m, "too soon to call still");
  assert.equal(nextMotion(m, none, 1_000 + MOTION_STILL_MS), undefined);
  assert.equal(nextMotion(m, slid, 1_000 + MOTION_MAX_MS), undefined, "followed long enough");
});

Deno.test("motionDue(): a map in motion is read again once it is a read interval old", () => {
  const m = startMotion(slid, 1_000)!;
  assert.equal(motionDue(undefined, 0, 5_000), false);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_READ_MS - 1), false);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_READ_MS), true);
  assert.equal(motionDue(m, 1_000, 1_000 + MOTION_MAX_MS), false);
  assert.equal(motionWaitMs(m, 1_000, 1_030), MOTION_READ_MS - 30);
  assert.equal(motionWaitMs(m, 1_000, 1_000 + MOTION_READ_MS + 5), 0);
});
