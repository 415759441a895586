/**
 * Assertions the key tests of every OS share.
 *
 * @module
 */
import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";

/** Asserts `fn` throws `invalid_params` for an unknown key, with the issue at `path`. */
export function assertInvalidKey(fn: () => unknown, path: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof DriverError);
    assert.equal(err.code, "invalid_params");
    assert.match(err.message, /^Unknown key "/);
    const issues = err.data.issues as { path: string[] }[];
    assert.deepEqual(issues[0]?.path, [path]);
    return true;
  });
}
