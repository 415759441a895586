/**
 * Element actions on standard Win32 controls through their own messages, for windows read
 * live (a UI Automation with no control patterns, as Wine's): BM_CLICK presses a button,
 * WM_SETTEXT sets an edit's text, EM_REPLACESEL types at its caret, and focus goes through
 * user32 (Wine's `IUIAutomationElement::SetFocus` is a stub). Anything else goes
 * to the pattern actions, and from there to the checked pixel path.
 *
 * @module
 */
import type { ComPtr } from "../../ffi/windows/com.ts";
import type { ActionName } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { ActReply } from "./actions.ts";
import { type LiveSetup, nativeWindow } from "./live_read.ts";
import {
  clickButton,
  focusWindow,
  insertText,
  setWindowText,
  win32Control,
} from "./win32_controls.ts";

function noAnswer(what: string): DriverError {
  return new DriverError("timeout", `The control did not answer ${what} in time`, {});
}

/**
 * Performs `action` on `el` through its window's messages; `undefined` when `el` is not a
 * Win32 control that has a message for it.
 */
export function win32Action(
  setup: LiveSetup,
  el: ComPtr,
  action: ActionName,
  value: string | undefined,
): ActReply | undefined {
  const hwnd = nativeWindow(setup, el);
  if (hwnd === undefined) return undefined;
  const control = win32Control(setup.user32, hwnd);
  switch (action) {
    case "press":
    case "click":
      if (!control.clickable) return undefined;
      if (!clickButton(setup.user32, hwnd)) throw noAnswer("BM_CLICK");
      return { via: "action" };
    case "set_value":
      if (!control.editable || value === undefined) return undefined;
      if (!setWindowText(setup.user32, hwnd, value, setup.timeoutMs)) throw noAnswer("WM_SETTEXT");
      return { via: "action" };
    case "type_text":
      if (!control.editable || value === undefined) return undefined;
      if (!insertText(setup.user32, hwnd, value, setup.timeoutMs)) throw noAnswer("EM_REPLACESEL");
      return { via: "action" };
    case "focus":
      if (!focusWindow(setup.user32, hwnd)) {
        throw new DriverError("action_not_supported", "The window did not take the focus", {
          actions: [],
        });
      }
      return { via: "action" };
    default:
      return undefined;
  }
}
