import assert from "node:assert/strict";
import { ElementIndex } from "./elements.ts";
import { SECRET_MARKER } from "./format.ts";
import { redactParams } from "./redact.ts";

const B = { x: 0, y: 0, w: 10, h: 10 };

function index(): ElementIndex {
  const idx = new ElementIndex();
  idx.learn("w1", {
    elements: [
      { id: "pw0000000001", role: "AXSecureTextField", name: "Password", bounds: B },
      { id: "tx0000000001", role: "AXTextField", name: "User", bounds: B },
    ],
  });
  return idx;
}

const ok = { ok: true, version: 2 };

Deno.test("redactParams replaces clipboard_set's text whatever it is", () => {
  const p = redactParams("clipboard_set", { text: "abc" }, { ok: true }, index());
  assert.equal(p.text, SECRET_MARKER);
});

Deno.test("redactParams replaces text marked secret, or aimed at a password field", () => {
  const idx = index();
  const marked = { window: "w1", version: 1, id: "tx0000000001", action: "set_value", value: "s" };
  assert.equal(redactParams("act", { ...marked, secret: true }, ok, idx).value, SECRET_MARKER);
  const pw = { ...marked, id: "pw0000000001" };
  assert.equal(redactParams("act", pw, ok, idx).value, SECRET_MARKER);
  assert.equal(redactParams("act", { ...pw, id: "pw0000" }, ok, idx).value, SECRET_MARKER);
  assert.equal(redactParams("act", marked, { ...ok, secret: true }, idx).value, SECRET_MARKER);
  assert.equal(redactParams("act", marked, ok, idx).value, "s", "a plain field's text is kept");
});

Deno.test("redactParams treats text for an unknown element of a failed op as a secret", () => {
  const p = { window: "w9", version: 1, id: "zz0000000001", action: "type_text", value: "s" };
  assert.equal(redactParams("act", p, undefined, new ElementIndex()).value, SECRET_MARKER);
  assert.equal(redactParams("act", p, ok, new ElementIndex()).value, "s");
});

Deno.test("redactParams redacts a batch's secret steps only, pixel steps untouched", () => {
  const steps = [
    { id: "tx0000000001", action: "set_value", value: "alice" },
    { id: "pw0000000001", action: "set_value", value: "pw" },
    { op: "pixel_key", keys: "Return" },
  ];
  const answer = { ok: true, results: [{ ok: true }, { ok: true, secret: true }, { ok: true }] };
  const out = redactParams("run_batch", { window: "w1", version: 1, steps }, answer, index());
  assert.deepEqual((out.steps as { value?: string }[]).map((s) => s.value), [
    "alice",
    SECRET_MARKER,
    undefined,
  ]);
  assert.equal(steps[1]!.value, "pw", "the op's own params are not changed");
});
