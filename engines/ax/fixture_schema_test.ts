import assert from "node:assert/strict";
import { axValueFromJson, parseFixture } from "./fixture_schema.ts";

Deno.test("axValueFromJson() decodes the fixture encoding of CF values", () => {
  const ref = (id: string) => `9:${id}`;
  assert.deepEqual(axValueFromJson({ x: 1, y: 2 }, ref), { kind: "point", x: 1, y: 2 });
  assert.deepEqual(axValueFromJson({ w: 3, h: 4 }, ref), { kind: "size", w: 3, h: 4 });
  assert.deepEqual(axValueFromJson({ x: 1, y: 2, w: 3, h: 4 }, ref), {
    kind: "rect",
    x: 1,
    y: 2,
    w: 3,
    h: 4,
  });
  assert.deepEqual(axValueFromJson({ location: 0, length: 2 }, ref), {
    kind: "range",
    location: 0,
    length: 2,
  });
  assert.deepEqual(axValueFromJson([{ ref: "a" }, true], ref), {
    kind: "array",
    items: [{ kind: "element", element: "9:a" }, { kind: "bool", value: true }],
  });
  assert.deepEqual(axValueFromJson({ error: "kAXErrorNoValue" }, ref), {
    kind: "none",
    status: -25212,
  });
  assert.deepEqual(axValueFromJson(null, ref), { kind: "none", status: -25212 });
});

Deno.test("parseFixture() names the first problem and where it is", () => {
  assert.throws(
    () => parseFixture(JSON.stringify({ app: { pid: 1, name: "x", active: true } }), "x.json"),
    /^Error: Cannot read x.json: provenance: /,
  );
});

Deno.test("both fixtures parse and say they are hand-written", async () => {
  for (const name of ["textedit.json", "calculator.json"]) {
    const text = await Deno.readTextFile(new URL(`./fixtures/${name}`, import.meta.url));
    const dump = parseFixture(text, name);
    assert.match(dump.provenance, /^HAND-WRITTEN, NOT RECORDED\./);
  }
});
