import assert from "node:assert/strict";
import { buildSnapshot } from "../../map/mod.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { RawNode } from "../../model/engine.ts";
import { budget, CALCULATOR_PID, fixtureEngine, TEXTEDIT_PID } from "./_testing.ts";

const signal = new AbortController().signal;

async function setup(app: "TextEdit" | "Calculator") {
  const parts = await fixtureEngine();
  const apps = await parts.engine.listApps(signal);
  const window = apps.find((a) => a.name === app)!.windows[0]!.window;
  const tree = await parts.engine.readWindow(window, budget());
  const { elements, handles } = buildSnapshot(tree.root);
  const node = (pred: (role: string, name: string) => boolean): RawNode => {
    const el = elements.find((e) => pred(e.role, e.name));
    assert.ok(el, "no such element");
    return handles.get(el.id)!;
  };
  return { ...parts, window, node };
}

Deno.test("press goes through AXPress: the Calculator batch 7 + 8 =", async () => {
  const { engine, source, window, node } = await setup("Calculator");
  for (const key of ["7", "+", "8", "="]) {
    const out = await engine.act(
      window,
      node((r, n) => r === "AXButton" && n === key),
      "press",
      undefined,
      signal,
    );
    assert.deepEqual(out, { via: "action" });
  }
  assert.deepEqual(source.performed.map((p) => [p.handle, p.what]), [
    [`${CALCULATOR_PID}:key-7`, "AXPress"],
    [`${CALCULATOR_PID}:key-add`, "AXPress"],
    [`${CALCULATOR_PID}:key-8`, "AXPress"],
    [`${CALCULATOR_PID}:key-equals`, "AXPress"],
  ]);
  await engine.close();
});

Deno.test("press on an element with no AX press clicks its centre and says pixel", async () => {
  const { engine, desktop, window, node } = await setup("Calculator");
  const display = node((_r, n) => n === "main display");
  assert.deepEqual(await engine.act(window, display, "press", undefined, signal), { via: "pixel" });
  assert.deepEqual(desktop.inputs, [{ kind: "click", x: 1016, y: 258, button: "left", count: 1 }]);
  await engine.close();
});

Deno.test("set_value and type_text write AXValue and AXSelectedText; a read sees them", async () => {
  const { engine, source, window, node } = await setup("TextEdit");
  const text = node((r) => r === "AXTextArea");
  await engine.act(window, text, "set_value", "Dear team,", signal);
  await engine.act(window, text, "type_text", " hello", signal);
  assert.deepEqual(source.performed.map((p) => [p.what, p.value?.value]), [
    ["set AXValue", "Dear team,"],
    ["set AXSelectedText", " hello"],
  ]);
  const again = buildSnapshot((await engine.readWindow(window, budget())).root);
  assert.equal(again.elements.find((e) => e.role === "AXTextArea")!.value, "Dear team, hello");
  await engine.close();
});

Deno.test("focus raises a window and sets AXFocused on an element", async () => {
  const { engine, source, window, node } = await setup("TextEdit");
  await engine.act(window, node((r) => r === "AXWindow"), "focus", undefined, signal);
  await engine.act(window, node((r) => r === "AXTextArea"), "focus", undefined, signal);
  assert.deepEqual(source.performed.map((p) => [p.handle, p.what]), [
    [`${TEXTEDIT_PID}:win`, "AXRaise"],
    [`${TEXTEDIT_PID}:win`, "set AXMain"],
    [`${TEXTEDIT_PID}:text`, "set AXFocused"],
  ]);
  await engine.close();
});

Deno.test("show_menu uses AXShowMenu, and expand sets AXExpanded", async () => {
  const { engine, source, window, node } = await setup("TextEdit");
  await engine.act(window, node((_r, n) => n === "Font family"), "show_menu", undefined, signal);
  await engine.act(window, node((r) => r === "AXComboBox"), "expand", undefined, signal);
  // Already expanded: nothing more to do.
  await engine.act(window, node((r) => r === "AXComboBox"), "expand", undefined, signal);
  assert.deepEqual(source.performed.map((p) => [p.what, p.value?.value]), [
    ["AXShowMenu", undefined],
    ["set AXExpanded", true],
  ]);
  await engine.close();
});

Deno.test("actions an element does not offer are refused with its actions", async () => {
  const { engine, window, node } = await setup("Calculator");
  const key = node((r, n) => r === "AXButton" && n === "7");
  await assert.rejects(() => engine.act(window, key, "set_value", "3", signal), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "action_not_supported");
    assert.deepEqual(err.data.actions, ["press", "click"]);
    return true;
  });
  await assert.rejects(
    () => engine.act(window, key, "set_value", undefined, signal),
    (err: unknown) => err instanceof DriverError && err.code === "invalid_params",
  );
  await engine.close();
});

Deno.test("capture of a window asks for its frame and its window number", async () => {
  const { engine, desktop, window } = await setup("Calculator");
  const shot = await engine.capture(window, signal);
  assert.deepEqual([shot.width, shot.height, shot.origin], [232, 323, { x: 900, y: 200 }]);
  assert.deepEqual(desktop.captures, [{
    area: { x: 900, y: 200, w: 232, h: 323 },
    windowNumber: 5151,
  }]);
  await engine.close();
});
