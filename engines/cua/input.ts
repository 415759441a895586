/**
 * Screen-wide pointer and keyboard input as Cua tool calls. Every call names the desktop
 * target (`{kind: "desktop", display_id: "primary"}`, the documented per-call target for
 * move_cursor, click, drag, scroll, type_text, press_key and hotkey), so coordinates are
 * screen points as `get_desktop_state` gives them. Pure.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { TOOL } from "./tools.ts";

/** One tool call. */
export interface ToolCall {
  /** Tool name. */
  tool: string;
  /** Its arguments. */
  args: Record<string, unknown>;
}

/** The documented portable desktop target. */
export const DESKTOP = { kind: "desktop", display_id: "primary" } as const;

/** Cua's `scroll.amount` range. */
const MAX_SCROLL = 50;

const MODIFIERS = new Set(["ctrl", "control", "shift", "alt", "option", "super", "meta", "cmd"]);

/** A key name as Cua's examples spell them: named keys lower case, characters as they are. */
function keyName(k: string): string {
  return k.length > 1 ? k.toLowerCase() : k;
}

/** `ctrl+shift+z` → a `hotkey`; a lone key (`Return`, `a`) → a `press_key`. */
export function keyCall(keys: string): ToolCall {
  // A chord splits on "+", but "+" alone (or as the last key, "ctrl++") is the plus key.
  const parts = keys === "+" ? ["+"] : keys.replace(/\+\+$/, "+plus").split("+");
  const names = parts.map((p) => (p === "plus" ? "+" : keyName(p.trim()))).filter((p) => p);
  if (names.length === 0) {
    throw new DriverError("invalid_params", `No key in "${keys}"`, {
      issues: [{ path: "keys", message: "empty" }],
    });
  }
  if (names.length === 1) return { tool: TOOL.pressKey, args: { key: names[0], target: DESKTOP } };
  const last = names[names.length - 1]!;
  if (names.slice(0, -1).every((m) => MODIFIERS.has(m)) && !MODIFIERS.has(last)) {
    return { tool: TOOL.hotkey, args: { keys: names, target: DESKTOP } };
  }
  throw new DriverError(
    "action_not_supported",
    `Cua Driver cannot press "${keys}": hotkey takes modifiers and one other key`,
    { actions: [] },
  );
}

function scrollCalls(dx: number, dy: number, x?: number, y?: number): ToolCall[] {
  const at = x !== undefined && y !== undefined ? { x, y } : {};
  const out: ToolCall[] = [];
  const add = (delta: number, neg: string, pos: string) => {
    if (delta === 0) return;
    const amount = Math.min(MAX_SCROLL, Math.max(1, Math.round(Math.abs(delta))));
    out.push({
      tool: TOOL.scroll,
      args: { direction: delta < 0 ? neg : pos, amount, by: "line", target: DESKTOP, ...at },
    });
  };
  add(dy, "up", "down");
  add(dx, "left", "right");
  return out;
}

/** The tool calls for one input, in order. */
export function inputCalls(input: PixelInput): ToolCall[] {
  switch (input.kind) {
    case "click":
      return [{
        tool: TOOL.click,
        args: {
          x: input.x,
          y: input.y,
          button: input.button,
          count: input.count,
          target: DESKTOP,
        },
      }];
    case "move":
      return [{ tool: TOOL.moveCursor, args: { x: input.x, y: input.y, target: DESKTOP } }];
    case "drag":
      return [{
        tool: TOOL.drag,
        args: {
          from_x: input.from.x,
          from_y: input.from.y,
          to_x: input.to.x,
          to_y: input.to.y,
          target: DESKTOP,
        },
      }];
    case "scroll":
      return scrollCalls(input.dx, input.dy, input.x, input.y);
    case "type":
      return [{ tool: TOOL.typeText, args: { text: input.text, target: DESKTOP } }];
    case "key":
      return [keyCall(input.keys)];
    case "hold":
      throw new DriverError(
        "action_not_supported",
        `Cua Driver has no tool to hold "${input.key}" down`,
        { actions: [] },
      );
  }
}
