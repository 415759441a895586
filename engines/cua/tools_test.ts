import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { ListWindowsAnswer, parseAnswer, WindowStateAnswer } from "./tools.ts";

Deno.test("parseAnswer() turns an answer outside the schema into an internal error with issues", () => {
  try {
    parseAnswer("get_window_state", WindowStateAnswer, { elements: "not a list" });
    assert.fail("no error");
  } catch (e) {
    assert.ok(e instanceof DriverError);
    assert.equal(e.code, "internal");
    assert.equal(e.data.tool, "get_window_state");
    const issues = e.data.issues as { path: string }[];
    assert.equal(issues[0]?.path, "elements");
  }
});

Deno.test("parseAnswer() keeps fields the reference documents and fields it does not", () => {
  const a = parseAnswer("list_windows", ListWindowsAnswer, {
    windows: [{ window_id: 7, pid: null, z_index: null, layer: 0 }],
    current_space_id: null,
  });
  assert.equal(a.windows[0]?.window_id, 7);
  assert.equal((a.windows[0] as Record<string, unknown>).layer, 0);
});
