/**
 * Assertions the protocol tests share.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { z } from "zod";
import type { Element } from "./element.ts";

/** The issues of a failed parse, as JSON, for assertion messages. */
export function issues(result: { success: boolean; error?: z.ZodError }): string {
  return JSON.stringify(result.error?.issues ?? []);
}

/** Asserts `schema` rejects `value` with an issue whose path is exactly `path`. */
export function assertIssueAt(schema: z.ZodType, value: unknown, path: (string | number)[]): void {
  const result = schema.safeParse(value);
  assert.equal(result.success, false, `accepted ${JSON.stringify(value)}`);
  const paths = result.error!.issues.map((i) => JSON.stringify(i.path));
  assert.ok(paths.includes(JSON.stringify(path)), `no issue at ${path}: ${issues(result)}`);
}

/** docs/cli-and-mcp.md's MCP outline line `~ wb0wkwpvtaqb AXTextArea "GtkSourceView" [78] @0,166,343,32 focused`. */
export const DISPLAY: Element = {
  id: "wb0wkwpvtaqb",
  role: "AXTextArea",
  name: "GtkSourceView",
  value: "78",
  bounds: { x: 0, y: 166, w: 343, h: 32 },
  enabled: true,
  focused: true,
  actions: ["focus", "set_value", "type_text"],
};
