import assert from "node:assert/strict";
import type { RawNode } from "../model/engine.ts";
import { asName, guessLabels } from "./label_guess.ts";

const node = (
  role: string,
  name: string,
  [x, y, w, h]: number[],
  more: Partial<RawNode> = {},
): RawNode => ({
  handle: `${role}:${name}:${x},${y}`,
  role,
  name,
  bounds: { x: x!, y: y!, w: w!, h: h! },
  enabled: true,
  focused: false,
  actions: [],
  children: [],
  ...more,
});

Deno.test("guessLabels() names a form's fields by the words left of them on their row", () => {
  // zenity --forms: a grid of labels and entries, no label relations.
  const fields = [
    node("AXTextField", "", [120, 10, 200, 30]),
    node("AXSecureTextField", "", [120, 50, 200, 30]),
    node("AXComboBox", "", [120, 90, 200, 30]),
  ];
  const root = node("AXWindow", "Form", [0, 0, 400, 200], {
    children: [
      node("AXStaticText", "Name", [10, 15, 60, 20]),
      node("AXStaticText", "PIN:", [10, 55, 60, 20]),
      node("AXStaticText", "Team", [10, 95, 60, 20]),
      ...fields,
    ],
  });
  guessLabels(root);
  assert.deepEqual(fields.map((f) => f.name), ["Name", "PIN", "Team"]);
});

Deno.test("guessLabels() skips a label with another field between, and takes one above", () => {
  const first = node("AXTextField", "", [80, 10, 100, 30]);
  const second = node("AXTextField", "", [200, 10, 100, 30]);
  const below = node("AXTextField", "", [10, 80, 200, 30]);
  const root = node("AXWindow", "W", [0, 0, 400, 200], {
    children: [
      node("AXStaticText", "From", [10, 15, 60, 20]),
      first,
      second,
      node("AXStaticText", "Notes", [10, 55, 60, 20]),
      below,
    ],
  });
  guessLabels(root);
  assert.equal(first.name, "From");
  assert.equal(second.name, "", "From is not its label: a field stands between");
  assert.equal(below.name, "Notes");
});

Deno.test("guessLabels() keeps own names and labels; a combo's entry takes the combo's label", () => {
  const named = node("AXTextField", "Search", [80, 10, 100, 30]);
  const labelled = node("AXTextField", "", [80, 50, 100, 30], { label: "Replace with" });
  const entry = node("AXTextField", "", [80, 90, 100, 30]);
  const combo = node("AXComboBox", "milk", [80, 90, 120, 30], {
    label: "Search for:",
    children: [entry],
  });
  const root = node("AXWindow", "W", [0, 0, 400, 200], {
    children: [node("AXStaticText", "Other", [10, 15, 60, 20]), named, labelled, combo],
  });
  guessLabels(root);
  assert.equal(named.name, "Search");
  assert.equal(labelled.name, "");
  assert.equal(entry.name, "Search for");
});

Deno.test("asName() trims a label and drops its closing colon", () => {
  assert.equal(asName(" Tab width: "), "Tab width");
  assert.equal(asName("Ratio 1:2"), "Ratio 1:2");
});

Deno.test("guessLabels(): a tick cell takes its row's words; a check box ending in ':' labels", () => {
  const tick = node("AXCell", "", [0, 30, 20, 20], { checked: false });
  const plain = node("AXCell", "", [0, 60, 20, 20]);
  const spin = node("AXIncrementor", "", [220, 100, 60, 30]);
  const root = node("AXWindow", "W", [0, 0, 400, 200], {
    children: [
      node("AXTable", "", [0, 0, 200, 90], {
        children: [
          tick,
          node("AXCell", "git", [20, 30, 80, 20]),
          plain,
          node("AXCell", "vim", [20, 60, 80, 20]),
        ],
      }),
      node("AXCheckBox", "Long line margin at column:", [10, 100, 200, 30]),
      spin,
    ],
  });
  guessLabels(root);
  assert.equal(tick.name, "git");
  assert.equal(plain.name, "", "a cell that is no tick box keeps no borrowed name");
  assert.equal(spin.name, "Long line margin at column");
});

Deno.test("guessLabels(): a combo named by the option it shows takes its label", () => {
  const mode = node("AXPopUpButton", "Insert Tabs", [120, 10, 150, 30], { value: "Insert Tabs" });
  const root = node("AXWindow", "W", [0, 0, 400, 100], {
    children: [node("AXStaticText", "Tab mode:", [10, 15, 100, 20]), mode],
  });
  guessLabels(root);
  assert.equal(mode.name, "Tab mode");
  assert.equal(mode.value, "Insert Tabs");
});
