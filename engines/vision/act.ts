/**
 * Actions on vision elements as pixel input at the element's centre: press, click and
 * focus click it; show_menu right-clicks it; set_value and type_text click it, then type
 * the value. Pixels cannot tell what a field holds, so set_value does not clear it first:
 * it types where the click put the caret, like type_text. Other actions need an
 * accessibility interface and are refused.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput, RawNode } from "../../model/engine.ts";

/**
 * The input that carries out `action` on `node`.
 *
 * @param node The element as last read.
 * @param action The action asked for.
 * @param value The text for set_value and type_text.
 * @param shift How far the window moved since the read, in screen points.
 * @throws {DriverError} `action_not_supported` for actions pixels can't do or an element
 *   with no area; `invalid_params` for set_value or type_text without a value.
 */
export function pixelPlan(
  node: RawNode,
  action: ActionName,
  value: string | undefined,
  shift: { dx: number; dy: number } = { dx: 0, dy: 0 },
): PixelInput[] {
  const b = node.bounds;
  const label = node.name || node.role;
  if (!(b.w > 0 && b.h > 0)) {
    throw new DriverError("action_not_supported", `Cannot ${action} "${label}": it has no area`, {
      actions: node.actions,
    });
  }
  const x = Math.round(b.x + b.w / 2 + shift.dx);
  const y = Math.round(b.y + b.h / 2 + shift.dy);
  switch (action) {
    case "press":
    case "click":
    case "focus":
      return [{ kind: "click", x, y, button: "left", count: 1 }];
    case "show_menu":
      return [{ kind: "click", x, y, button: "right", count: 1 }];
    case "set_value":
    case "type_text":
      if (value === undefined) {
        throw new DriverError("invalid_params", `${action} needs "value"`, {
          issues: [{ path: ["value"], message: `Required for ${action}` }],
        });
      }
      return [
        { kind: "click", x, y, button: "left", count: 1 },
        { kind: "type", text: value },
      ];
    default:
      throw new DriverError(
        "action_not_supported",
        `Cannot ${action} "${label}": a vision element only takes pointer and keyboard input`,
        { actions: node.actions },
      );
  }
}
