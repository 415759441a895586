import assert from "node:assert/strict";
import type { PixelInput, RawNode } from "../../model/engine.ts";
import type { AtspiClient, Ref } from "./client.ts";
import { Known } from "./known.ts";
import { STATE } from "./states.ts";
import { enterText, symbolsRewritten } from "./text_entry.ts";

const REF: Ref = { bus: ":1.3", path: "/count" };
const LIMITS = { timeoutMs: 1_000 };
const ENTRY_ROLE = 79;
const NODE = { bounds: { x: 0, y: 0, w: 40, h: 20 } } as RawNode;

/**
 * A Chromium-like number field holding "4", without EditableText, typed into by keys. Its
 * first `lost` rounds of keys lose the select-all (the focus came late): "7" lands before
 * what the field held.
 */
function field(lost: number) {
  let text = "4";
  let selectAll = false;
  const keys: string[] = [];
  const client = {
    call(_ref: Ref, _iface: string, member: string, _l: unknown, _s?: string, body?: number[]) {
      if (member === "GetText") return Promise.resolve([text.slice(body![0], body![1])]);
      if (member === "GrabFocus") return Promise.resolve([true]);
      return Promise.reject(new Error(`unexpected ${member}`));
    },
    prop(_ref: Ref, _iface: string, name: string) {
      if (name === "CharacterCount") return Promise.resolve(text.length);
      return Promise.reject(new Error(`unexpected ${name}`));
    },
    states: () => ({ has: (s: number) => s === STATE.SENSITIVE }),
  } as unknown as AtspiClient;
  const input = (i: PixelInput) => {
    if (i.kind === "key" && i.keys === "ctrl+a") {
      keys.push("ctrl+a");
      selectAll = lost-- <= 0;
    } else if (i.kind === "type") {
      keys.push(i.text);
      text = selectAll ? i.text : i.text + text;
    }
    return Promise.resolve();
  };
  const known = new Known();
  known.set(REF, { role: ENTRY_ROLE, ifaces: new Set(["Text", "Component"]) });
  return { client, input, known, keys, text: () => text };
}

Deno.test("set_value by keys is typed once more when the select-all went astray", async () => {
  const f = field(1);
  const out = await enterText(
    f.client,
    f.input,
    REF,
    NODE,
    { kind: "set", value: "7" },
    LIMITS,
    f.known,
  );
  assert.deepEqual(out, { via: "keys" });
  assert.equal(f.text(), "7");
  assert.deepEqual(f.keys, ["ctrl+a", "7", "ctrl+a", "7"]);
});

Deno.test("set_value by keys that took at once is typed once", async () => {
  const f = field(0);
  await enterText(f.client, f.input, REF, NODE, { kind: "set", value: "7" }, LIMITS, f.known);
  assert.deepEqual(f.keys, ["ctrl+a", "7"]);
});

Deno.test("symbolsRewritten(): symbols shown otherwise count, letters and digits do not", () => {
  assert.equal(symbolsRewritten("(40+2)÷6", "(40+2)/6"), true);
  assert.equal(symbolsRewritten("12×7", "12*7"), true);
  assert.equal(symbolsRewritten("(40+2)/6", "(40+2)/6"), false, "the same text is no rewrite");
  assert.equal(symbolsRewritten("(40+2)/7", "(40+2)/6"), false);
  assert.equal(symbolsRewritten("74", "7"), false);
});
