import assert from "node:assert/strict";
import { MessageFramer } from "./framer.ts";
import { decodeMessage, MessageType, type OutgoingMessage } from "./message.ts";
import { OutgoingQueue } from "./outgoing.ts";

const signal = (i: number): OutgoingMessage => ({
  type: MessageType.SIGNAL,
  path: "/q",
  interface: "com.example.Q",
  member: "S",
  signature: "us",
  body: [i, "x".repeat(i % 13)],
});

/** A sink that takes at most `max` bytes per write and finishes each write a few microtasks later. */
function fakeSink(max = Infinity): { writes: Uint8Array[]; write(p: Uint8Array): Promise<number> } {
  const writes: Uint8Array[] = [];
  return {
    writes,
    write(p: Uint8Array): Promise<number> {
      const n = Math.min(max, p.length);
      writes.push(p.slice(0, n));
      return Promise.resolve().then(() => Promise.resolve()).then(() => n);
    },
  };
}

function serialsOf(writes: Uint8Array[]): number[] {
  const framer = new MessageFramer();
  return writes.flatMap((w) => framer.push(w)).map((m) => decodeMessage(m).serial);
}

Deno.test("outgoing: messages queued in one tick share one write", async () => {
  const sink = fakeSink();
  const queue = new OutgoingQueue(sink, (e) => assert.fail(String(e)));
  for (let i = 1; i <= 50; i++) queue.enqueue(signal(i), i);
  await queue.flush();
  assert.equal(sink.writes.length, 1);
  assert.deepEqual(serialsOf(sink.writes), Array.from({ length: 50 }, (_, i) => i + 1));
});

Deno.test("outgoing: short writes and messages queued mid-write keep order", async () => {
  const sink = fakeSink(7);
  const queue = new OutgoingQueue(sink, (e) => assert.fail(String(e)));
  let serial = 0;
  queue.enqueue(signal(++serial), serial);
  // Queue more from later microtasks and timers, i.e. while writes are in flight.
  for (let round = 0; round < 20; round++) {
    await Promise.resolve();
    queue.enqueue(signal(++serial), serial);
    if (round % 5 === 0) await new Promise((resolve) => setTimeout(resolve, 0));
  }
  // Poll rather than flush(): flush would rescue a message the queue forgot to schedule.
  const deadline = performance.now() + 2000;
  while (serialsOf(sink.writes).length < serial && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.deepEqual(serialsOf(sink.writes), Array.from({ length: serial }, (_, i) => i + 1));
});

Deno.test("outgoing: a message queued as the last write completes is still sent", async () => {
  const writes: Uint8Array[] = [];
  const sink = {
    write(p: Uint8Array): Promise<number> {
      writes.push(p.slice());
      const done = Promise.resolve(p.length);
      // Lands after the queue's own continuation of `done` but before its cleanup runs.
      if (writes.length === 1) {
        queueMicrotask(() => void done.then(() => queue.enqueue(signal(2), 2)));
      }
      return done;
    },
  };
  const queue = new OutgoingQueue(sink, (e) => assert.fail(String(e)));
  queue.enqueue(signal(1), 1);
  const deadline = performance.now() + 2000;
  while (serialsOf(writes).length < 2 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.deepEqual(serialsOf(writes), [1, 2]);
});

Deno.test("outgoing: a failed write is reported once and flush still resolves", async () => {
  const errors: unknown[] = [];
  const queue = new OutgoingQueue({ write: () => Promise.reject(new Error("EPIPE")) }, (e) => {
    errors.push(e);
  });
  queue.enqueue(signal(1), 1);
  await queue.flush();
  queue.enqueue(signal(2), 2);
  await queue.flush();
  assert.equal(errors.length, 1);
});
