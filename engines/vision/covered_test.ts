import assert from "node:assert/strict";
import type { Proposal } from "./regions.ts";
import { backgroundOf, dropCovered, maskCovered, toPixels } from "./covered.ts";
import { canvas, fill } from "./_testing.ts";

const leaf = (name: string, x: number, y: number, w = 10, h = 10): Proposal => ({
  role: "AXButton",
  name,
  rect: { x, y, w, h },
  actions: ["press"],
  children: [],
});

Deno.test("covered: screen parts become capture pixels, rounded out and clipped", () => {
  const capture = { origin: { x: 100, y: 50 }, scale: 2, width: 200, height: 100 };
  assert.deepEqual(
    toPixels([{ x: 150.25, y: 40, w: 100, h: 20 }], capture),
    [{ x: 100, y: 0, w: 100, h: 20 }],
  );
  // Beside the capture: nothing.
  assert.deepEqual(toPixels([{ x: 0, y: 0, w: 100, h: 50 }], capture), []);
});

Deno.test("covered: the background is the commonest colour outside the covered parts", () => {
  const c = canvas(20, 10, 200);
  fill(c, { x: 0, y: 0, w: 15, h: 10 }, 30); // the cover's colour, most of the capture
  const rects = [{ x: 0, y: 0, w: 15, h: 10 }];
  const bg = backgroundOf(c, rects);
  assert.deepEqual([...new Uint8Array(new Uint32Array([bg]).buffer)], [200, 200, 200, 255]);
});

Deno.test("covered: the covered part is painted in the background, the rest untouched", () => {
  const c = canvas(20, 10, 200);
  fill(c, { x: 10, y: 0, w: 10, h: 10 }, 30);
  fill(c, { x: 2, y: 2, w: 3, h: 3 }, 0); // the window's own ink
  const masked = maskCovered(c, [{ x: 10, y: 0, w: 10, h: 10 }]);
  for (let x = 10; x < 20; x++) assert.equal(masked.rgba[(5 * 20 + x) * 4], 200);
  assert.equal(masked.rgba[(3 * 20 + 3) * 4], 0);
  assert.equal(c.rgba[(5 * 20 + 15) * 4], 30, "the capture itself is not changed");
  assert.equal(maskCovered(c, []), c);
});

Deno.test("covered: leaves reaching into a cover go, containers keep what shows", () => {
  const panel: Proposal = {
    role: "AXGroup",
    name: "",
    rect: { x: 0, y: 0, w: 100, h: 40 },
    actions: [],
    children: [leaf("1", 5, 5), leaf("2", 45, 5), leaf("3", 85, 5)],
  };
  const hidden = dropCovered([panel, leaf("far", 5, 60)], [{ x: 50, y: 0, w: 50, h: 50 }]);
  assert.deepEqual(hidden.map((p) => p.children.map((c) => c.name)), [["1"], []]);
  assert.deepEqual(hidden.map((p) => p.name), ["", "far"]);
  // A container whose every child is covered goes with them.
  assert.deepEqual(dropCovered([panel], [{ x: 0, y: 0, w: 100, h: 20 }]), []);
  assert.deepEqual(dropCovered([panel], []), [panel]);
});
