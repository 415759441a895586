import assert from "node:assert/strict";
import { movedFrom } from "./combo_option.ts";

Deno.test("movedFrom() takes a key's move only to another option, never to none", () => {
  assert.equal(movedFrom(2)(1), true);
  assert.equal(movedFrom(2)(2), false, "a key that moved nothing");
  // Gecko between two options: none selected for a moment is no place to steer from.
  assert.equal(movedFrom(2)(-1), false);
  // A list with none selected at first: the first key's option counts.
  assert.equal(movedFrom(-1)(0), true);
});
