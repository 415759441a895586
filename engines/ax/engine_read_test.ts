import assert from "node:assert/strict";
import { buildSnapshot, WindowMap } from "../../map/mod.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { budget, CALCULATOR_PID, fixtureEngine, TEXTEDIT_PID } from "./_testing.ts";
import { AxEngine } from "./engine.ts";

const signal = new AbortController().signal;

async function windowOf(engine: AxEngine, app: string): Promise<string> {
  const apps = await engine.listApps(signal);
  const found = apps.find((a) => a.name === app);
  assert.ok(found, `no app "${app}"`);
  return found.windows[0]!.window;
}

Deno.test("AxEngine.listApps() lists the fixture apps, frontmost first, windows focused", async () => {
  const { engine } = await fixtureEngine();
  const apps = await engine.listApps(signal);
  assert.deepEqual(apps.map((a) => [a.name, a.pid, a.app]), [
    ["TextEdit", TEXTEDIT_PID, `pid:${TEXTEDIT_PID}`],
    ["Calculator", CALCULATOR_PID, `pid:${CALCULATOR_PID}`],
  ]);
  const [textEdit, calculator] = apps;
  assert.deepEqual(textEdit!.windows.map((w) => [w.title, w.focused, w.bounds]), [
    ["Untitled", true, { x: 240, y: 160, w: 700, h: 520 }],
  ]);
  // Calculator's window is its main window, but Calculator is not the active app.
  assert.equal(calculator!.windows[0]!.focused, false);
  assert.match(textEdit!.windows[0]!.window, /^w[0-9a-f]{8}$/);
  await engine.close();
});

Deno.test("AxEngine.readWindow() reads TextEdit's window (not the app's menu bar)", async () => {
  const { engine } = await fixtureEngine();
  const tree = await engine.readWindow(await windowOf(engine, "TextEdit"), budget());
  const { elements } = buildSnapshot(tree.root);
  assert.equal(tree.nodes, 21);
  assert.equal(tree.truncated, false);
  assert.equal(elements.length, 21);
  assert.equal(elements[0]!.role, "AXWindow");
  assert.equal(elements[0]!.name, "Untitled");
  assert.equal(elements[0]!.focused, true);
  assert.ok(!elements.some((e) => e.role === "AXMenuBar" || e.role === "AXMenuBarItem"));
  const text = elements.find((e) => e.role === "AXTextArea")!;
  assert.deepEqual(
    { value: text.value, focused: text.focused, actions: text.actions, bounds: text.bounds },
    {
      value: "",
      focused: true,
      actions: ["focus", "set_value", "type_text"],
      bounds: { x: 240, y: 222, w: 685, h: 458 },
    },
  );
  const title = elements.find((e) => e.role === "AXStaticText")!;
  assert.equal(title.name, "Untitled");
  assert.equal(title.value, undefined);
  const bold = elements.find((e) => e.name === "Bold")!;
  assert.deepEqual([bold.role, bold.value, bold.actions], ["AXCheckBox", "0", [
    "press",
    "click",
    "check",
    "uncheck",
  ]]);
  const family = elements.find((e) => e.name === "Font family")!;
  assert.deepEqual([family.value, family.actions], ["Helvetica", ["press", "click", "show_menu"]]);
  const size = elements.find((e) => e.role === "AXComboBox")!;
  assert.ok(size.actions.includes("expand"));
  // The three title-bar buttons have no name: twins, told apart by where they sit.
  const buttons = elements.filter((e) => e.role === "AXButton" && e.name === "");
  assert.equal(buttons.length, 3);
  assert.equal(new Set(buttons.map((b) => b.id)).size, 3);
  await engine.close();
});

Deno.test("AxEngine.readWindow() reads Calculator's display and keypad", async () => {
  const { engine } = await fixtureEngine();
  const tree = await engine.readWindow(await windowOf(engine, "Calculator"), budget());
  const { elements } = buildSnapshot(tree.root);
  assert.equal(elements.length, 26);
  const display = elements.find((e) => e.name === "main display")!;
  assert.deepEqual([display.role, display.value], ["AXStaticText", "0"]);
  const keys = elements.filter((e) => e.role === "AXButton" && e.name !== "").map((e) => e.name);
  assert.deepEqual(keys, [
    ..."AC,+/-,%,÷,7,8,9,×,4,5,6,-,1,2,3,+,0,.,=".split(","),
  ]);
  await engine.close();
});

Deno.test("element ids are the same from two engines reading the same fixture", async () => {
  const ids = async () => {
    const { engine } = await fixtureEngine();
    const tree = await engine.readWindow(await windowOf(engine, "Calculator"), budget());
    await engine.close();
    return buildSnapshot(tree.root).elements.map((e) => e.id);
  };
  const first = await ids();
  assert.deepEqual(await ids(), first);
  assert.equal(new Set(first).size, first.length);
});

Deno.test("Calculator after 7 + 8 = diffs as one change: the display's value", async () => {
  const { engine, source } = await fixtureEngine();
  const window = await windowOf(engine, "Calculator");
  const map = new WindowMap(
    window,
    "ax",
    buildSnapshot((await engine.readWindow(window, budget())).root),
  );
  source.applyVariant(CALCULATOR_PID, "after_7_plus_8_equals");
  const update = map.update(buildSnapshot((await engine.readWindow(window, budget())).root));
  assert.deepEqual(update, { version: 2, changed: true });
  const delta = map.since(1);
  assert.equal(delta.reset, false);
  if (delta.reset) return;
  assert.deepEqual(delta.added, []);
  assert.deepEqual(delta.removed, []);
  assert.deepEqual(delta.changed.map((e) => [e.name, e.value]), [["main display", "15"]]);
  await engine.close();
});

Deno.test("TextEdit after typing: window title and text change, the title text is replaced", async () => {
  const { engine, source } = await fixtureEngine();
  const window = await windowOf(engine, "TextEdit");
  const before = buildSnapshot((await engine.readWindow(window, budget())).root);
  const map = new WindowMap(window, "ax", before);
  source.applyVariant(TEXTEDIT_PID, "typed");
  map.update(buildSnapshot((await engine.readWindow(window, budget())).root));
  const delta = map.since(1);
  if (delta.reset) throw new Error("unexpected reset");
  assert.deepEqual(delta.changed.map((e) => [e.role, e.name, e.value]), [
    ["AXWindow", "Untitled — Edited", undefined],
    ["AXTextArea", "", "Hello from the driver"],
  ]);
  // Static text is named by its value, so new text is a new element.
  assert.deepEqual(delta.added.map((e) => [e.role, e.name]), [[
    "AXStaticText",
    "Untitled — Edited",
  ]]);
  const oldTitle = before.elements.find((e) => e.role === "AXStaticText")!;
  assert.deepEqual(delta.removed, [oldTitle.id]);
  // Every other id is untouched.
  assert.equal(map.elements.length, before.elements.length);
  await engine.close();
});

Deno.test("TextEdit as plain text loses its format bar's 13 elements", async () => {
  const { engine, source } = await fixtureEngine();
  const window = await windowOf(engine, "TextEdit");
  const map = new WindowMap(
    window,
    "ax",
    buildSnapshot((await engine.readWindow(window, budget())).root),
  );
  source.applyVariant(TEXTEDIT_PID, "plain_text");
  map.update(buildSnapshot((await engine.readWindow(window, budget())).root));
  const delta = map.since(1);
  if (delta.reset) throw new Error("unexpected reset");
  assert.equal(delta.removed.length, 13);
  assert.deepEqual([delta.added, delta.changed], [[], []]);
  await engine.close();
});

Deno.test("AxEngine.readWindow() stops at the element budget and says truncated", async () => {
  const { engine } = await fixtureEngine();
  const tree = await engine.readWindow(await windowOf(engine, "Calculator"), budget(5));
  assert.equal(tree.truncated, true);
  assert.equal(tree.nodes, 5);
  assert.equal(buildSnapshot(tree.root).elements.length, 5);
  await engine.close();
});

Deno.test("the staleness probe: window child count and the app's focused element", async () => {
  const { engine } = await fixtureEngine();
  const window = await windowOf(engine, "TextEdit");
  assert.equal(await engine.childCount(window, signal), 6);
  assert.equal(await engine.focusedHandle(window, signal), `${TEXTEDIT_PID}:text`);
  await engine.close();
});

Deno.test("readNodes() answers each scope and null for a node that is gone", async () => {
  const { engine, source } = await fixtureEngine();
  const window = await windowOf(engine, "TextEdit");
  await engine.readWindow(window, budget());
  source.applyVariant(TEXTEDIT_PID, "typed");
  const reads = await engine.readNodes(window, [
    { handle: `${TEXTEDIT_PID}:text`, scope: "node" },
    { handle: `${TEXTEDIT_PID}:close`, scope: "bounds" },
    { handle: `${TEXTEDIT_PID}:alignment`, scope: "subtree" },
    { handle: `${TEXTEDIT_PID}:nothing`, scope: "node" },
  ], budget());
  assert.equal(reads.get(`${TEXTEDIT_PID}:text`)?.value, "Hello from the driver");
  assert.deepEqual(reads.get(`${TEXTEDIT_PID}:close`)?.bounds, { x: 247, y: 166, w: 14, h: 16 });
  assert.equal(reads.get(`${TEXTEDIT_PID}:alignment`)?.children.length, 4);
  assert.equal(reads.get(`${TEXTEDIT_PID}:nothing`), null);
  await engine.close();
});

Deno.test("untrusted: availability and every read say accessibility_not_trusted", async () => {
  const { engine, source } = await fixtureEngine();
  const window = await windowOf(engine, "TextEdit");
  const fresh = new AxEngine({ source, hub: null });
  source.setTrusted(false);
  assert.deepEqual(await fresh.availability(), {
    available: false,
    reason: "accessibility_not_trusted",
  });
  const notTrusted = (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "driver_unavailable");
    assert.equal(err.data.reason, "accessibility_not_trusted");
    return true;
  };
  await assert.rejects(() => fresh.listApps(signal), notTrusted);
  await assert.rejects(() => fresh.readWindow(window, budget()), notTrusted);
  // An engine that saw trust a moment ago still gets the refusal from the first AX call.
  await assert.rejects(() => engine.readWindow(window, budget()), notTrusted);
  await engine.close();
  await fresh.close();
});

Deno.test("an app that quit answers app_not_running and is announced gone", async () => {
  const { engine, source, hub } = await fixtureEngine();
  const events: EngineEvent[] = [];
  const off = await engine.subscribe((e) => events.push(e));
  const window = await windowOf(engine, "Calculator");
  await engine.readWindow(window, budget());
  assert.ok(hub.watched.has(CALCULATOR_PID));
  source.quit(CALCULATOR_PID);
  await assert.rejects(() => engine.readWindow(window, budget()), (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "app_not_running");
    return true;
  });
  assert.deepEqual(events, [{ app: `pid:${CALCULATOR_PID}`, kind: "gone" }]);
  assert.equal(hub.watched.has(CALCULATOR_PID), false);
  await assert.rejects(() => engine.readWindow(window, budget()), /No window/);
  await off();
  await engine.close();
});

Deno.test({
  name: "new AxEngine() refuses to load off macOS with a clear message",
  ignore: Deno.build.os === "darwin",
  fn() {
    assert.throws(() => new AxEngine(), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "driver_unavailable");
      assert.equal(err.data.reason, "wrong_os");
      assert.equal(err.message, `The AX engine runs only on macOS: this is "${Deno.build.os}"`);
      return true;
    });
  },
});
