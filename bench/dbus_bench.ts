/**
 * Micro benchmark of the D-Bus codec on AT-SPI-shaped replies. Prints one JSON line per figure.
 *
 * Run: `deno run -A bench/dbus_bench.ts`
 *
 * @module
 */

import {
  decodeBody,
  decodeHeader,
  encodeMessageBytes,
  MessageType,
} from "../platform/dbus/message.ts";

const ITEMS = 5000;
const SENDER = ":1.42";

function ref(i: number): [string, string] {
  return [SENDER, `/org/a11y/atspi/accessible/${i}`];
}

function getItemsReply(): Uint8Array {
  const items: unknown[] = [];
  for (let i = 0; i < ITEMS; i++) {
    items.push([
      ref(i),
      [SENDER, "/org/a11y/atspi/accessible/root"],
      ref(Math.floor(i / 8)),
      i % 8,
      i % 3 === 0 ? 8 : 0,
      ["org.a11y.atspi.Accessible", "org.a11y.atspi.Component", "org.a11y.atspi.Action"],
      i % 5 === 0 ? `Button “Save” number ${i}` : `push button ${i}`,
      i % 120,
      i % 4 === 0 ? "" : "Saves the current document to disk",
      [i & 0xffff, 0x100],
    ]);
  }
  return encodeMessageBytes({
    type: MessageType.METHOD_RETURN,
    replySerial: 7,
    destination: ":1.9",
    sender: SENDER,
    signature: "a((so)(so)(so)iiassusau)",
    body: [items],
  }, 11);
}

function getChildrenReply(n: number): Uint8Array {
  const children = Array.from({ length: n }, (_, i) => ref(i));
  return encodeMessageBytes({
    type: MessageType.METHOD_RETURN,
    replySerial: 8,
    sender: SENDER,
    signature: "a(so)",
    body: [children],
  }, 12);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Times `fn` `rounds` times after warming up, and returns the median in ms. */
function time(rounds: number, fn: () => unknown): number {
  for (let i = 0; i < 3; i++) fn();
  const laps: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    fn();
    laps.push(performance.now() - t0);
  }
  return median(laps);
}

function report(bench: string, figure: number, unit: string): void {
  const line = JSON.stringify({ bench, figure: Math.round(figure * 1000) / 1000, unit });
  Deno.stdout.writeSync(new TextEncoder().encode(line + "\n"));
}

const items = getItemsReply();
const decodeItems = (): unknown[] => decodeBody(items, decodeHeader(items));
report(`dbus decode GetItems ${ITEMS} items`, time(20, decodeItems), "ms");
report(`dbus GetItems ${ITEMS} items message size`, items.length / 1024, "KiB");

const children = getChildrenReply(20);
const batch = 1000;
const perChild = time(10, () => {
  for (let i = 0; i < batch; i++) decodeBody(children, decodeHeader(children));
});
report("dbus decode GetChildren reply (20 children)", (perChild / batch) * 1000, "us");

const encodeCalls = time(10, () => {
  for (let i = 0; i < batch; i++) {
    encodeMessageBytes({
      type: MessageType.METHOD_CALL,
      destination: SENDER,
      path: `/org/a11y/atspi/accessible/${i}`,
      interface: "org.a11y.atspi.Accessible",
      member: "GetChildren",
    }, i + 1);
  }
});
report("dbus encode method call", (encodeCalls / batch) * 1000, "us");
