import assert from "node:assert/strict";
import { OPS } from "../protocol/ops.ts";
import { selectTools, TOOL_NAMES, TOOLS } from "./catalogue.ts";
import { fieldList, toolJsonSchema } from "./schema.ts";

Deno.test("every tool's input is an object JSON Schema without $schema or safe-integer noise", () => {
  for (const t of TOOLS) {
    const json = JSON.stringify(toolJsonSchema(t.input));
    assert.ok(json.startsWith('{"type":"object"'), t.name);
    assert.ok(!json.includes("$schema") && !json.includes("9007199254740991"), t.name);
  }
});

Deno.test("tool inputs follow the protocol's schemas", () => {
  const act = toolJsonSchema(TOOLS.find((t) => t.name === "act")!.input);
  assert.deepEqual(act.required, ["window", "version", "id", "action"]);
  const read = toolJsonSchema(TOOLS.find((t) => t.name === "read_ui")!.input);
  assert.deepEqual(
    Object.keys(read.properties as object),
    [
      ...Object.keys(OPS.read_ui.params.shape).filter((k) => k !== "crops" && k !== "timeout_ms"),
      "scope",
      "bounds",
      "max_bytes",
      "cursor",
    ],
  );
  // Only the tool that waits on its deadline offers it.
  const verify = TOOLS.find((t) => t.name === "verify")!;
  assert.ok("timeout_ms" in (toolJsonSchema(verify.input, verify.waits).properties as object));
});

Deno.test("run_batch takes one step shape: an element action, or a pixel op by op", () => {
  const tool = TOOLS.find((t) => t.name === "run_batch")!;
  const props = toolJsonSchema(tool.input).properties as Record<string, { items: object }>;
  const step = props.steps!.items as { properties: Record<string, { description?: string }> };
  // A pixel op's fields are pixel_input's: named in op's description, not listed again.
  assert.deepEqual(Object.keys(step.properties), [
    "id",
    "action",
    "value",
    "extend",
    "commit",
    "secret",
    "op",
  ]);
  assert.match(step.properties.op!.description!, /pixel_input fields/);
  assert.ok(
    tool.input.safeParse({
      window: "w1",
      version: 1,
      steps: [{ id: "a", action: "press" }, { op: "pixel_key", keys: "Return" }],
    }).success,
  );
});

Deno.test("the main parameters carry descriptions a model reads", () => {
  const act = toolJsonSchema(TOOLS.find((t) => t.name === "act")!.input);
  const props = act.properties as Record<string, { description?: string }>;
  for (const key of ["version", "action", "value", "extend", "commit", "guard"]) {
    assert.ok(props[key]?.description, `act.${key}`);
  }
  const find = toolJsonSchema(TOOLS.find((t) => t.name === "find")!.input);
  const query = (find.properties as Record<string, { properties: Record<string, object> }>).query;
  assert.match(JSON.stringify(query!.properties.role), /AXButton.*AXRadioButton \(web tabs\)/);
});

Deno.test("every parameter of every tool, and of a batch step, is described", () => {
  for (const t of TOOLS) {
    const props = toolJsonSchema(t.input, t.waits).properties as Record<string, {
      description?: string;
      items?: { properties?: Record<string, { description?: string }> };
    }>;
    for (const [key, p] of Object.entries(props)) {
      assert.ok(p.description, `${t.name}.${key}`);
      for (const [inner, q] of Object.entries(p.items?.properties ?? {})) {
        assert.ok(q.description, `${t.name}.${key}[].${inner}`);
      }
    }
  }
});

Deno.test("pixel_input takes a kind and the union of the pixel ops' fields", () => {
  const tool = TOOLS.find((t) => t.name === "pixel_input")!;
  const json = toolJsonSchema(tool.input);
  assert.deepEqual(json.required, ["kind"]);
  assert.ok(tool.input.safeParse({ kind: "click", x: 1, y: 2, button: "right" }).success);
  assert.ok(!tool.input.safeParse({ kind: "wave" }).success);
  assert.ok(!tool.input.safeParse({ kind: "key", keys: "a", extra: 1 }).success);
  assert.equal(fieldList("pixel_click"), "x, y, button?, count?");
  assert.ok(tool.description.includes("Prefer act on ids"), tool.description);
});

Deno.test("tool descriptions start with the op table's summary", () => {
  for (const t of TOOLS) {
    if (t.name in OPS) {
      assert.ok(t.description.startsWith(OPS[t.name as keyof typeof OPS].summary), t.name);
    }
  }
});

Deno.test("selectTools() narrows in catalogue order and refuses unknown names", () => {
  assert.deepEqual(selectTools().map((t) => t.name), TOOL_NAMES);
  assert.deepEqual(selectTools("act, read_ui").map((t) => t.name), ["read_ui", "act"]);
  assert.throws(
    () => selectTools("read_ui,hold_key"),
    /Unknown tool "hold_key" in --ops: choose from read_ui/,
  );
  assert.throws(() => selectTools(" , "), /No tools named/);
});
