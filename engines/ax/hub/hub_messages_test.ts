import assert from "node:assert/strict";
import { NotificationQueue, QUEUE_LIMIT } from "./hub_messages.ts";

Deno.test("NotificationQueue coalesces repeats of one notification on one element", () => {
  const q = new NotificationQueue();
  q.push(10, "AXValueChanged", "10:a", false);
  q.push(10, "AXValueChanged", "10:a", false);
  q.push(10, "AXValueChanged", "10:b", false);
  q.push(11, "AXCreated", undefined, true);
  assert.equal(q.total, 4);
  const { events, dropped, faults } = q.drain();
  assert.deepEqual(events, [
    { pid: 10, note: "AXValueChanged", handle: "10:a", web: false, count: 2 },
    { pid: 10, note: "AXValueChanged", handle: "10:b", web: false, count: 1 },
    { pid: 11, note: "AXCreated", web: true, count: 1 },
  ]);
  assert.deepEqual([dropped, faults], [[], 0]);
  assert.equal(q.size, 0);
  assert.deepEqual(q.drain().events, []);
});

Deno.test("NotificationQueue bounds a burst and counts what it dropped per app", () => {
  const q = new NotificationQueue();
  for (let i = 0; i < QUEUE_LIMIT + 5; i++) q.push(7, "AXCreated", `7:${i}`, false);
  q.push(8, "AXCreated", "8:x", false);
  q.fault();
  const { events, dropped, faults } = q.drain();
  assert.equal(events.length, QUEUE_LIMIT);
  assert.deepEqual(dropped, [[7, 5], [8, 1]]);
  assert.equal(faults, 1);
  assert.equal(q.total, QUEUE_LIMIT + 7);
});
