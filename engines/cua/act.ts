/**
 * Element actions as Cua tool calls: `click`, `set_value` and `type_text` addressed by the
 * `element_token` Cua gave in the read the element came from (by `element_index` and
 * `snapshot_id` when a read had no token, which Cua documents it may refuse). Pure.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { ToolCall } from "./input.ts";
import { ActionAnswer, parseAnswer, TOOL, type ToolResult } from "./tools.ts";
import type { CuaAddress } from "./tree.ts";
import type { CuaWindow } from "./windows.ts";

/** The call that performs `action` on `node`, or `action_not_supported`. */
export function actionCall(
  w: CuaWindow,
  address: CuaAddress,
  node: RawNode,
  action: ActionName,
  value: string | undefined,
): ToolCall {
  const target = address.token !== undefined ? { element_token: address.token } : {
    element_index: address.index,
    ...(address.snapshot ? { snapshot_id: address.snapshot } : {}),
  };
  const base = { pid: w.pid, window_id: w.windowId, ...target };
  if (!node.actions.includes(action)) {
    throw new DriverError(
      "action_not_supported",
      `Cannot ${action} "${node.name}" through Cua Driver`,
      { actions: node.actions },
    );
  }
  switch (action) {
    case "press":
    case "click":
      return { tool: TOOL.click, args: base };
    case "set_value":
      return { tool: TOOL.setValue, args: { ...base, value: value ?? "" } };
    case "type_text":
      return { tool: TOOL.typeText, args: { ...base, text: value ?? "" } };
    default:
      throw new DriverError(
        "action_not_supported",
        `Cannot ${action} "${node.name}" through Cua Driver`,
        { actions: node.actions },
      );
  }
}

/** How Cua carried an action out, from the `path` (delivery rung) it names. */
export function outcomeOf(tool: string, result: ToolResult): ActOutcome {
  const done = parseAnswer(tool, ActionAnswer, result.structuredContent ?? {});
  // "pixel", "x11_pixel", "x11_pixel_fg": Cua clicked the element's point, not its action.
  return { via: done.path?.includes("pixel") ? "pixel" : "action" };
}
