import assert from "node:assert/strict";
import { type InputEvent, KEYEVENTF, MOUSEEVENTF } from "../../ffi/windows/structs.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { chordEvents, moveTo, planInput, type Step, textEvents, unreleased } from "./input_plan.ts";
import { VK } from "./keys.ts";

const desk = { x: 0, y: 0, w: 1921, h: 1081 };
const noLayout = () => -1;
const events = (steps: Step[]) => steps.flatMap((s) => ("events" in s ? s.events : []));
const key = (vk: number, flags = 0): InputEvent => ({ kind: "key", vk, scan: 0, flags });

Deno.test("moveTo() normalizes to 0-65535 across the virtual desktop", () => {
  assert.deepEqual(moveTo(desk, 0, 0), {
    kind: "mouse",
    dx: 0,
    dy: 0,
    mouseData: 0,
    flags: MOUSEEVENTF.MOVE | MOUSEEVENTF.ABSOLUTE | MOUSEEVENTF.VIRTUALDESK,
  });
  const far = moveTo(desk, 1920, 1080);
  assert.equal(far.kind === "mouse" && far.dx, 65535);
  assert.equal(far.kind === "mouse" && far.dy, 65535);
  const left = moveTo({ x: -1920, y: 0, w: 3841, h: 1081 }, 0, 540);
  assert.equal(
    left.kind === "mouse" && left.dx,
    32768,
    "the primary monitor's corner is mid-desktop",
  );
});

Deno.test("a double click is move, down/up, pause, down/up", () => {
  const plan = planInput({ kind: "click", x: 10, y: 10, button: "left", count: 2 }, desk, noLayout);
  assert.deepEqual(plan.map((s) => ("pause" in s ? `pause ${s.pause}` : s.events.length)), [
    1,
    2,
    "pause 40",
    2,
  ]);
  const flags = events(plan).map((e) => e.kind === "mouse" && e.flags);
  assert.deepEqual(flags.slice(1), [2, 4, 2, 4]);
  const right = events(
    planInput({ kind: "click", x: 1, y: 1, button: "right", count: 1 }, desk, noLayout),
  );
  assert.deepEqual(right.slice(1).map((e) => e.kind === "mouse" && e.flags), [8, 16]);
});

Deno.test("scroll: dy > 0 scrolls down (negative wheel data), dx > 0 right", () => {
  const [step] = planInput({ kind: "scroll", dx: 2, dy: 3 }, desk, noLayout);
  assert.ok(step && "events" in step);
  assert.deepEqual(step.events.map((e) => e.kind === "mouse" && [e.flags, e.mouseData]), [
    [MOUSEEVENTF.WHEEL, -360],
    [MOUSEEVENTF.HWHEEL, 240],
  ]);
});

Deno.test("a drag presses, moves in steps with pauses, and releases", () => {
  const plan = planInput(
    { kind: "drag", from: { x: 0, y: 0 }, to: { x: 80, y: 0 } },
    desk,
    noLayout,
  );
  const ev = events(plan);
  assert.equal(ev.filter((e) => e.kind === "mouse" && e.flags === MOUSEEVENTF.LEFTDOWN).length, 1);
  assert.equal(ev.at(-1)!.kind === "mouse" && ev.at(-1)!.flags, MOUSEEVENTF.LEFTUP);
  assert.ok(plan.some((s) => "pause" in s));
  assert.deepEqual(unreleased(ev), []);
});

Deno.test("chords press in order and release in reverse; layouts add their modifiers", () => {
  const plan = planInput({ kind: "key", keys: "ctrl+a" }, desk, noLayout);
  assert.deepEqual(events(plan), [
    key(VK.CONTROL),
    key(0x41),
    key(0x41, KEYEVENTF.KEYUP),
    key(VK.CONTROL, KEYEVENTF.KEYUP),
  ]);
  const shifted = chordEvents([{ vk: 0xbb, extended: false, shift: true }]);
  assert.deepEqual(shifted.down, [key(VK.SHIFT), key(0xbb)]);
  assert.deepEqual(shifted.up, [key(0xbb, KEYEVENTF.KEYUP), key(VK.SHIFT, KEYEVENTF.KEYUP)]);
  const ext = events(planInput({ kind: "key", keys: "left" }, desk, noLayout));
  assert.deepEqual(ext.map((e) => e.kind === "key" && e.flags), [1, 3]);
});

Deno.test("hold presses, pauses for its ms, releases", () => {
  const plan = planInput({ kind: "hold", key: "shift", ms: 250 }, desk, noLayout);
  assert.deepEqual(plan, [
    { events: [key(VK.SHIFT)] },
    { pause: 250 },
    { events: [key(VK.SHIFT, KEYEVENTF.KEYUP)] },
  ]);
  assert.throws(
    () => planInput({ kind: "hold", key: "a b", ms: 1 }, desk, noLayout),
    (e: unknown) => isDriverError(e, "invalid_params"),
  );
});

Deno.test("textEvents() types Unicode units, keys for newline and tab, refuses controls", () => {
  const ev = textEvents("a😀\r\n\t");
  const units = ev.filter((e) =>
    e.kind === "key" && e.flags & KEYEVENTF.UNICODE && !(e.flags & KEYEVENTF.KEYUP)
  )
    .map((e) => e.kind === "key" && e.scan);
  assert.deepEqual(units, [0x61, 0xd83d, 0xde00], "astral characters as two surrogates");
  const vks = ev.filter((e) => e.kind === "key" && e.vk !== 0).map((e) => e.kind === "key" && e.vk);
  assert.deepEqual(vks, [VK.RETURN, VK.RETURN, VK.TAB, VK.TAB], "\\r\\n is one Return");
  assert.throws(() => textEvents("\x07"), /Cannot type U\+0007/);
  const long = planInput({ kind: "type", text: "x".repeat(100) }, desk, noLayout);
  assert.equal(long.length, 4, "200 events go in batches of 64");
});

Deno.test("unreleased() releases what a failed plan left pressed, last first", () => {
  assert.deepEqual(unreleased([key(VK.CONTROL), key(0x41), key(0x41, KEYEVENTF.KEYUP)]), [
    key(VK.CONTROL, KEYEVENTF.KEYUP),
  ]);
  const down: InputEvent = {
    kind: "mouse",
    dx: 0,
    dy: 0,
    mouseData: 0,
    flags: MOUSEEVENTF.RIGHTDOWN,
  };
  assert.deepEqual(unreleased([down]), [{ ...down, flags: MOUSEEVENTF.RIGHTUP }]);
  assert.deepEqual(unreleased(textEvents("hi")), []);
});
