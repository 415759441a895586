/**
 * Element actions through AX actions and settable attributes: AXPress, AXShowMenu,
 * AXIncrement/AXDecrement, AXRaise, AXScrollToVisible, and setting AXValue, AXFocused,
 * AXSelected, AXSelectedText, AXExpanded/AXDisclosing. Where the element offers no AX
 * route for a press or a menu, the engine clicks its centre and says `via: "pixel"`.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import { boolOf } from "../../ffi/macos/values.ts";
import type { ActOutcome, PixelInput, RawNode } from "../../model/engine.ts";
import type { AxSource } from "./source.ts";

/** Sends pointer and keyboard input (CoreGraphics on a Mac). */
export type Input = (input: PixelInput) => Promise<void>;

/** Steps at most when a ranged element only moves by AXIncrement/AXDecrement. */
const MAX_STEPS = 200;

const PRESS = ["AXPress", "AXConfirm", "AXPick"];
const RANGED = new Set([
  "AXSlider",
  "AXIncrementor",
  "AXStepper",
  "AXScrollBar",
  "AXValueIndicator",
]);

function refused(
  node: RawNode,
  what: string,
  actions: readonly string[] = node.actions,
): DriverError {
  return new DriverError(
    "action_not_supported",
    `Cannot ${what} "${node.name || node.role}": ${
      actions.length > 0 ? `its actions are ${actions.join(", ")}` : "it offers no action"
    }`,
    { actions: [...actions] },
  );
}

function needValue(action: string, value: string | undefined): string {
  if (value !== undefined) return value;
  throw new DriverError("invalid_params", `${action} needs "value"`, {
    issues: [{ path: ["value"], message: `Required for ${action}` }],
  });
}

/** The node's centre, or `action_not_supported` when it has no on-screen area. */
export function centreOf(node: RawNode): { x: number; y: number } {
  const b = node.bounds;
  if (b.w <= 0 || b.h <= 0) {
    throw new DriverError(
      "action_not_supported",
      `Cannot click "${node.name || node.role}": it has no on-screen area`,
      { actions: [...node.actions] },
    );
  }
  return { x: Math.round(b.x + b.w / 2), y: Math.round(b.y + b.h / 2) };
}

/** Performs `action` on `node` through `source`, or with `input` where AX has no route. */
export async function performAxAction(
  source: AxSource,
  input: Input,
  node: RawNode,
  action: ActionName,
  value: string | undefined,
  timeoutMs: number,
): Promise<ActOutcome> {
  const h = node.handle;
  const names = () => source.actionNames(h, timeoutMs);
  switch (action) {
    case "press":
    case "click": {
      const offered = await names();
      const ax = PRESS.find((a) => offered.includes(a));
      if (ax) {
        await source.perform(h, ax, timeoutMs);
        return { via: "action" };
      }
      await input({ kind: "click", ...centreOf(node), button: "left", count: 1 });
      return { via: "pixel" };
    }
    case "show_menu": {
      if ((await names()).includes("AXShowMenu")) {
        await source.perform(h, "AXShowMenu", timeoutMs);
        return { via: "action" };
      }
      await input({ kind: "click", ...centreOf(node), button: "right", count: 1 });
      return { via: "pixel" };
    }
    case "focus":
      if (node.role === "AXWindow" || node.role === "AXSheet") {
        // A window comes forward with AXRaise; AXMain makes it the app's main window.
        await source.perform(h, "AXRaise", timeoutMs);
        await source.setAttribute(h, "AXMain", { kind: "bool", value: true }, timeoutMs)
          .catch(() => {});
        return { via: "action" };
      }
      await source.setAttribute(h, "AXFocused", { kind: "bool", value: true }, timeoutMs);
      return { via: "action" };
    case "scroll_into_view":
      if (!(await names()).includes("AXScrollToVisible")) throw refused(node, "scroll to");
      await source.perform(h, "AXScrollToVisible", timeoutMs);
      return { via: "action" };
    case "set_value":
      return await setValue(source, node, needValue(action, value), timeoutMs);
    case "type_text": {
      const text = needValue(action, value);
      if (!node.actions.includes("type_text")) throw refused(node, "type into");
      // Replacing the (empty) selection inserts at the caret, like typing, without
      // depending on which app has keyboard focus.
      await source.setAttribute(h, "AXSelectedText", { kind: "string", value: text }, timeoutMs);
      return { via: "action" };
    }
    case "select":
      try {
        await source.setAttribute(h, "AXSelected", { kind: "bool", value: true }, timeoutMs);
        return { via: "action" };
      } catch (err) {
        if (!isDriverError(err, "action_not_supported")) throw err;
        return await performAxAction(source, input, node, "press", value, timeoutMs);
      }
    case "expand":
    case "collapse":
      return await disclose(source, input, node, action === "expand", timeoutMs);
    case "check":
    case "uncheck":
      return await checkTo(source, input, node, action === "check", timeoutMs);
  }
}

/**
 * Presses a check box or radio button until its `AXValue` (0 off, 1 on, 2 mixed) says
 * `on`: left alone when already there, `found` when pressing did not get it there.
 */
async function checkTo(
  source: AxSource,
  input: Input,
  node: RawNode,
  on: boolean,
  timeoutMs: number,
): Promise<ActOutcome> {
  const isOn = async () =>
    boolOf((await source.attributes(node.handle, ["AXValue"], timeoutMs))[0]);
  if ((await isOn()) === on) return { via: "action", already: true };
  const { via } = await performAxAction(source, input, node, "press", undefined, timeoutMs);
  return (await isOn()) === on ? { via } : { via, found: on ? "unchecked" : "checked" };
}

async function setValue(
  source: AxSource,
  node: RawNode,
  value: string,
  timeoutMs: number,
): Promise<ActOutcome> {
  if (!node.actions.includes("set_value")) throw refused(node, "set the value of");
  const h = node.handle;
  if (!RANGED.has(node.role)) {
    await source.setAttribute(h, "AXValue", { kind: "string", value }, timeoutMs);
    return { via: "action" };
  }
  const target = Number(value);
  if (!Number.isFinite(target)) {
    throw new DriverError("invalid_params", `"${value}" is not a number for a ranged element`, {
      issues: [{ path: ["value"], message: "Expected a number" }],
    });
  }
  try {
    await source.setAttribute(h, "AXValue", { kind: "number", value: target }, timeoutMs);
    return { via: "action" };
  } catch (err) {
    if (!isDriverError(err, "action_not_supported")) throw err;
  }
  // Steppers and some sliders only move one step at a time.
  for (let i = 0; i < MAX_STEPS; i++) {
    const [current] = await source.attributes(h, ["AXValue"], timeoutMs);
    if (current?.kind !== "number") throw refused(node, "set the value of");
    if (current.value === target) return { via: "action" };
    const step = current.value < target ? "AXIncrement" : "AXDecrement";
    await source.perform(h, step, timeoutMs);
    const [after] = await source.attributes(h, ["AXValue"], timeoutMs);
    // Overshooting or not moving: the nearest reachable value is as close as it gets.
    if (after?.kind !== "number" || after.value === current.value) return { via: "action" };
    if ((current.value < target) !== (after.value < target)) return { via: "action" };
  }
  return { via: "action" };
}

async function disclose(
  source: AxSource,
  input: Input,
  node: RawNode,
  open: boolean,
  timeoutMs: number,
): Promise<ActOutcome> {
  const h = node.handle;
  const [expanded, disclosing] = await source.attributes(
    h,
    ["AXExpanded", "AXDisclosing"],
    timeoutMs,
  );
  const attribute = boolOf(disclosing) !== undefined ? "AXDisclosing" : "AXExpanded";
  const now = boolOf(disclosing) ?? boolOf(expanded);
  if (now === open) return { via: "action" };
  try {
    await source.setAttribute(h, attribute, { kind: "bool", value: open }, timeoutMs);
    return { via: "action" };
  } catch (err) {
    if (!isDriverError(err, "action_not_supported")) throw err;
  }
  // A disclosure triangle or combo box toggles when pressed.
  return await performAxAction(source, input, node, "press", undefined, timeoutMs);
}
