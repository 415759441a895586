import assert from "node:assert/strict";
import { DBusProtocolError } from "./errors.ts";
import { MessageFramer } from "./framer.ts";
import {
  decodeMessage,
  encodeMessage,
  encodeMessageBytes,
  MessageFlags,
  MessageType,
  type OutgoingMessage,
} from "./message.ts";
import { Variant } from "./variant.ts";
import { WireWriter } from "./wire_writer.ts";

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));

Deno.test("message: Hello call encodes to the byte vector the spec prescribes", () => {
  const bytes = encodeMessageBytes({
    type: MessageType.METHOD_CALL,
    path: "/org/freedesktop/DBus",
    interface: "org.freedesktop.DBus",
    member: "Hello",
    destination: "org.freedesktop.DBus",
  }, 1);
  // deno-fmt-ignore
  const expected = [
    0x6c, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 109, 0, 0, 0, // 'l', CALL, flags, v1, body 0, serial 1
    1, 1, 0x6f, 0, 21, 0, 0, 0, ...ascii("/org/freedesktop/DBus"), 0, 0, 0, // PATH o, pad to 48
    2, 1, 0x73, 0, 20, 0, 0, 0, ...ascii("org.freedesktop.DBus"), 0, 0, 0, 0, // INTERFACE s, pad to 80
    3, 1, 0x73, 0, 5, 0, 0, 0, ...ascii("Hello"), 0, 0, 0, // MEMBER s, pad to 96
    6, 1, 0x73, 0, 20, 0, 0, 0, ...ascii("org.freedesktop.DBus"), 0, 0, 0, 0, // DESTINATION, pad
  ];
  assert.deepEqual([...bytes], expected);
  const m = decodeMessage(bytes);
  assert.equal(m.member, "Hello");
  assert.equal(m.serial, 1);
  assert.deepEqual(m.body, []);
});

Deno.test("message: a hand-built big-endian METHOD_RETURN decodes", () => {
  // deno-fmt-ignore
  const bytes = new Uint8Array([
    0x42, 2, 0, 1, 0, 0, 0, 24, 0, 0, 0, 7, 0, 0, 0, 17, // 'B', RETURN, body 24, serial 7, fields 17
    5, 1, 0x75, 0, 0, 0, 0, 42, // REPLY_SERIAL u 42
    8, 1, 0x67, 0, 3, 0x73, 0x75, 0x78, 0, // SIGNATURE g "sux"
    0, 0, 0, 0, 0, 0, 0, // padding: body starts at 40
    0, 0, 0, 2, 0x68, 0x69, 0, 0, // s "hi", pad
    1, 2, 3, 4, 0, 0, 0, 0, // u 0x01020304, pad
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, // x -2
  ]);
  const m = decodeMessage(bytes);
  assert.equal(m.littleEndian, false);
  assert.equal(m.type, MessageType.METHOD_RETURN);
  assert.equal(m.serial, 7);
  assert.equal(m.replySerial, 42);
  assert.equal(m.signature, "sux");
  assert.deepEqual(m.body, ["hi", 0x01020304, -2n]);
});

const samples: OutgoingMessage[] = [
  {
    type: MessageType.SIGNAL,
    path: "/a",
    interface: "com.example.I",
    member: "Changed",
    signature: "sa{sv}y",
    body: ["x", new Map([["k", new Variant("u", 1)]]), 3],
  },
  { type: MessageType.METHOD_RETURN, replySerial: 3, signature: "t", body: [9n] },
  {
    type: MessageType.ERROR,
    replySerial: 4,
    errorName: "com.example.Error.Failed",
    destination: ":1.3",
    signature: "s",
    body: ["no"],
  },
  {
    type: MessageType.METHOD_CALL,
    flags: MessageFlags.NO_REPLY_EXPECTED,
    path: "/",
    member: "M",
    signature: "ay",
    body: [[1, 2, 3, 4, 5]],
  },
];

Deno.test("message: every type round-trips, with flags and optional fields", () => {
  samples.forEach((msg, i) => {
    const m = decodeMessage(encodeMessageBytes(msg, i + 1));
    assert.equal(m.type, msg.type);
    assert.equal(m.serial, i + 1);
    assert.equal(m.flags, msg.flags ?? 0);
    for (const k of ["path", "interface", "member", "errorName", "replySerial", "destination"]) {
      assert.equal(m[k as keyof typeof m], msg[k as keyof OutgoingMessage], k);
    }
    assert.deepEqual(m.body, msg.body);
  });
});

Deno.test("message: messages batched into one buffer align from their own start", () => {
  const w = new WireWriter(16);
  samples.forEach((msg, i) => encodeMessage(w, msg, i + 1));
  const framed = new MessageFramer().push(w.bytes());
  assert.equal(framed.length, samples.length);
  framed.forEach((bytes, i) => {
    assert.deepEqual([...bytes], [...encodeMessageBytes(samples[i]!, i + 1)]);
  });
});

Deno.test("message: a failed encode leaves the batch buffer untouched", () => {
  const w = new WireWriter();
  encodeMessage(w, samples[1]!, 1);
  const before = w.pos;
  const bad = { type: MessageType.METHOD_RETURN, replySerial: 1, signature: "u", body: ["x"] };
  assert.throws(() => encodeMessage(w, bad, 2), TypeError);
  assert.equal(w.pos, before);
  assert.throws(() => encodeMessage(w, { type: MessageType.SIGNAL, path: "/" }, 3), TypeError);
});

Deno.test("framer: any chunking yields the same whole messages", () => {
  const parts = samples.map((m, i) => encodeMessageBytes(m, i + 1));
  const stream = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((off, p) => (stream.set(p, off), off + p.length), 0);
  const splits = [1, 3, 7, 15, 16, 17, 50, stream.length];
  for (const size of splits) {
    const framer = new MessageFramer();
    const got: Uint8Array[] = [];
    for (let off = 0; off < stream.length; off += size) {
      got.push(...framer.push(stream.slice(off, off + size)).map((m) => m.slice()));
    }
    assert.deepEqual(got.map((m) => [...m]), parts.map((p) => [...p]), `chunk ${size}`);
    assert.equal(framer.buffered, 0);
  }
});

Deno.test("framer: refuses bad endianness and messages over 128 MiB", () => {
  assert.throws(() => new MessageFramer().push(new Uint8Array(16).fill(0x20)), DBusProtocolError);
  const huge = encodeMessageBytes(samples[1]!, 1).slice(0, 16);
  new DataView(huge.buffer).setUint32(4, 128 * 1024 * 1024, true);
  assert.throws(() => new MessageFramer().push(huge), DBusProtocolError);
});

Deno.test("message: a header missing required fields is a protocol error", () => {
  const bytes = encodeMessageBytes(samples[1]!, 1);
  bytes[1] = MessageType.SIGNAL; // A SIGNAL needs PATH, INTERFACE and MEMBER.
  assert.throws(() => decodeMessage(bytes), DBusProtocolError);
  const zeroSerial = encodeMessageBytes(samples[1]!, 1);
  zeroSerial[8] = 0;
  assert.throws(() => decodeMessage(zeroSerial), DBusProtocolError);
});
