import assert from "node:assert/strict";
import { MessageFramer } from "./framer.ts";
import { decodeMessage, encodeMessageBytes, MessageType, type OutgoingMessage } from "./message.ts";
import { Variant } from "./variant.ts";

/** A `Cache.GetItems`-shaped reply: `a((so)(so)(so)iiassusau)` with `n` items. */
function getItemsReply(n: number, replySerial: number): OutgoingMessage {
  const bus = ":1.42";
  const items = Array.from({ length: n }, (_, i) => [
    [bus, `/org/a11y/atspi/accessible/${i + 1}`],
    [bus, "/org/a11y/atspi/accessible/root"],
    [bus, i === 0 ? "/org/a11y/atspi/accessible/root" : `/org/a11y/atspi/accessible/${i >> 1}`],
    i & 1,
    i % 5,
    i % 3 === 0 ? [] : ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component"],
    i % 4 === 0 ? "" : `Button ${i} ${"é".repeat(i % 7)}`,
    i % 129,
    "",
    i % 2 === 0 ? [] : [0x2000000 | i, i & 0xff],
  ]);
  return {
    type: MessageType.METHOD_RETURN,
    replySerial,
    destination: ":1.7",
    sender: bus,
    signature: "a((so)(so)(so)iiassusau)",
    body: [items],
  };
}

/** The kinds of messages an AT-SPI client sees, including empty arrays and nested variants. */
function sampleStream(): { msgs: OutgoingMessage[]; parts: Uint8Array[]; stream: Uint8Array } {
  const msgs: OutgoingMessage[] = [
    { type: MessageType.METHOD_RETURN, replySerial: 1, signature: "s", body: [":1.7"] },
    {
      type: MessageType.SIGNAL,
      path: "/org/a11y/atspi/accessible/12",
      interface: "org.a11y.atspi.Event.Object",
      member: "StateChanged",
      sender: ":1.42",
      signature: "siiva{sv}",
      body: ["showing", 1, 0, new Variant("i", 0), new Map()],
    },
    getItemsReply(150, 2),
    { type: MessageType.METHOD_RETURN, replySerial: 3, signature: "a(so)", body: [[]] },
    {
      type: MessageType.SIGNAL,
      path: "/org/a11y/atspi/accessible/3",
      interface: "org.a11y.atspi.Event.Object",
      member: "ChildrenChanged",
      sender: ":1.42",
      signature: "siiva{sv}",
      body: [
        "add",
        2,
        0,
        new Variant("(so)", [":1.42", "/org/a11y/atspi/accessible/9"]),
        new Map([["k", new Variant("aav", [[], [new Variant("ai", [])]])]]),
      ],
    },
    { type: MessageType.METHOD_RETURN, replySerial: 4, signature: "" },
    getItemsReply(3, 5),
    { type: MessageType.METHOD_RETURN, replySerial: 6, signature: "(iiii)", body: [[1, 2, 3, 4]] },
  ];
  const parts = msgs.map((m, i) => encodeMessageBytes(m, i + 100));
  const stream = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((off, p) => (stream.set(p, off), off + p.length), 0);
  return { msgs, parts, stream };
}

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Feeds `stream` cut at `cuts` through one read buffer that is overwritten between pushes,
 * as the connection's read loop does, decoding each message before the next push.
 */
function feed(stream: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const framer = new MessageFramer();
  const buf = new Uint8Array(stream.length + 1);
  const got: Uint8Array[] = [];
  let from = 0;
  for (const to of [...cuts, stream.length]) {
    buf.fill(0xee);
    buf.set(stream.subarray(from, to));
    for (const m of framer.push(buf.subarray(0, to - from))) {
      decodeMessage(m);
      got.push(m.slice());
    }
    from = to;
  }
  assert.equal(framer.buffered, 0);
  return got;
}

Deno.test("framer: random chunk sizes through a reused buffer yield the exact messages", () => {
  const { parts, stream } = sampleStream();
  const want = parts.map((p) => [...p]);
  for (let seed = 1; seed <= 200; seed++) {
    const next = rng(seed);
    const max = [3, 17, 64, 700, 9000][seed % 5]!;
    const cuts: number[] = [];
    for (let at = 0; at < stream.length;) {
      at += 1 + Math.floor(next() * max);
      if (at < stream.length) cuts.push(at);
    }
    assert.deepEqual(feed(stream, cuts).map((m) => [...m]), want, `seed ${seed}`);
  }
});

Deno.test("framer: cuts at and around every message's 16-byte fixed header", () => {
  const { parts, stream } = sampleStream();
  const want = parts.map((p) => [...p]);
  let start = 0;
  for (const p of parts) {
    for (let d = -2; d <= 18; d++) {
      const at = start + d;
      if (at <= 0 || at >= stream.length) continue;
      assert.deepEqual(feed(stream, [at]).map((m) => [...m]), want, `cut at ${at}`);
      // Two cuts inside the same header: the head is assembled from three pushes.
      if (d > 0 && d < 15) {
        assert.deepEqual(feed(stream, [at, at + 1]).map((m) => [...m]), want, `cuts ${at}+1`);
      }
    }
    start += p.length;
  }
});

Deno.test("framer: one byte at a time, and single cuts all along the stream", () => {
  const { parts, stream } = sampleStream();
  const want = parts.map((p) => [...p]);
  const all = Array.from({ length: stream.length - 1 }, (_, i) => i + 1);
  assert.deepEqual(feed(stream, all).map((m) => [...m]), want);
  for (let at = 1; at < stream.length; at += 1 + (at % 61)) {
    assert.deepEqual(feed(stream, [at]).map((m) => [...m]), want, `cut at ${at}`);
  }
});

Deno.test("decode: empty arrays at every alignment and variants of nested arrays round-trip", () => {
  const { msgs, parts } = sampleStream();
  parts.forEach((bytes, i) => assert.deepEqual(decodeMessage(bytes).body, msgs[i]!.body ?? []));
  // An empty array of 8-aligned elements still pads to 8 after its length, wherever it starts.
  for (let pad = 0; pad < 8; pad++) {
    const body = ["x".repeat(pad), [], new Variant("aa(tv)", [[], [[1n, new Variant("ay", [])]]])];
    const msg: OutgoingMessage = {
      type: MessageType.METHOD_RETURN,
      replySerial: 1,
      signature: "sa(ts)v",
      body,
    };
    assert.deepEqual(decodeMessage(encodeMessageBytes(msg, 9)).body, body, `pad ${pad}`);
  }
});
