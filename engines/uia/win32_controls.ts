/**
 * Standard Win32 controls (child windows of classes `Button`, `Edit`, `Static`, ...) read
 * and operated through their window messages, for a UI Automation that cannot: Wine's
 * gives such windows no children, no patterns and the control type `Pane`. Windows' own
 * UIA reaches the same controls through its MSAA proxies, and this module is never used
 * there (the live read calls it only after UIA answered a stub result).
 *
 * @module
 */
import type { User32 } from "../../ffi/windows/user32.ts";
import { wideString } from "../../ffi/windows/bstr.ts";
import type { Kernel32 } from "../../ffi/windows/kernel32.ts";

/** The user32 functions this module calls. */
export type Win32Lib =
  & Pick<
    User32,
    | "FindWindowExW"
    | "GetClassNameW"
    | "GetWindowLongPtrW"
    | "PostMessageW"
    | "SendMessageTimeoutW"
    | "GetAncestor"
    | "AttachThreadInput"
    | "SetFocus"
    | "SetForegroundWindow"
    | "GetWindowThreadProcessId"
  >
  & Pick<Kernel32, "GetCurrentThreadId">;

const WM_SETTEXT = 0x000c;
const WM_GETTEXT = 0x000d;
const WM_GETTEXTLENGTH = 0x000e;
const EM_REPLACESEL = 0x00c2;
const BM_CLICK = 0x00f5;
const GWL_STYLE = -16;
const BS_TYPEMASK = 0xf;
const ES_PASSWORD = 0x20;
const SMTO_ABORTIFHUNG = 0x2;

/** UIA control type ids this module answers. */
const CT = {
  Button: 50000,
  CheckBox: 50002,
  ComboBox: 50003,
  Edit: 50004,
  List: 50008,
  ProgressBar: 50012,
  RadioButton: 50013,
  Slider: 50015,
  StatusBar: 50017,
  Tab: 50018,
  Text: 50020,
  ToolBar: 50021,
  Tree: 50023,
  Group: 50026,
  Document: 50030,
  Pane: 50033,
} as const;

const BY_CLASS: Record<string, number> = {
  Edit: CT.Edit,
  Static: CT.Text,
  ComboBox: CT.ComboBox,
  ComboBoxEx32: CT.ComboBox,
  ListBox: CT.List,
  SysListView32: CT.List,
  SysTreeView32: CT.Tree,
  SysTabControl32: CT.Tab,
  msctls_statusbar32: CT.StatusBar,
  ToolbarWindow32: CT.ToolBar,
  msctls_trackbar32: CT.Slider,
  msctls_progress32: CT.ProgressBar,
  RichEdit20W: CT.Document,
  RICHEDIT50W: CT.Document,
};

function buttonType(style: number): number {
  switch (style & BS_TYPEMASK) {
    case 2: // BS_CHECKBOX
    case 3: // BS_AUTOCHECKBOX
    case 5: // BS_3STATE
    case 6: // BS_AUTO3STATE
      return CT.CheckBox;
    case 4: // BS_RADIOBUTTON
    case 9: // BS_AUTORADIOBUTTON
      return CT.RadioButton;
    case 7: // BS_GROUPBOX
      return CT.Group;
    default:
      return CT.Button;
  }
}

function hwndOf(hwnd: bigint): Deno.PointerValue {
  return Deno.UnsafePointer.create(hwnd);
}

/** What a window's class and style say of it. */
export interface Win32Control {
  /** Window class (`Button`). */
  className: string;
  /** The control type its class and style mean; `undefined` for classes not listed. */
  controlType: number | undefined;
  /** An `ES_PASSWORD` edit: its text is never read. */
  password: boolean;
  /** A push button, check box or radio button: BM_CLICK presses it. */
  clickable: boolean;
  /** An edit control: WM_GETTEXT / WM_SETTEXT read and set its text. */
  editable: boolean;
}

/** The class and style of `hwnd`. */
export function win32Control(lib: Win32Lib, hwnd: bigint): Win32Control {
  const buf = new Uint16Array(128);
  const n = lib.GetClassNameW(hwndOf(hwnd), buf, buf.length);
  const className = String.fromCharCode(...buf.subarray(0, Math.max(0, n)));
  const style = Number(lib.GetWindowLongPtrW(hwndOf(hwnd), GWL_STYLE));
  const controlType = className === "Button" ? buttonType(style) : BY_CLASS[className];
  const editable = className === "Edit" || className.startsWith("RichEdit") ||
    className === "RICHEDIT50W";
  return {
    className,
    controlType,
    password: editable && (style & ES_PASSWORD) !== 0,
    clickable: controlType === CT.Button || controlType === CT.CheckBox ||
      controlType === CT.RadioButton,
    editable,
  };
}

/** The control type to report: the class's where UIA said only `Pane`. */
export function controlTypeFor(uiaType: number, control: Win32Control): number {
  return uiaType === CT.Pane && control.controlType !== undefined ? control.controlType : uiaType;
}

/** Direct child windows of `hwnd`, at most `max`, in z-order. */
export function childWindows(lib: Win32Lib, hwnd: bigint, max: number): bigint[] {
  const out: bigint[] = [];
  let after: Deno.PointerValue = null;
  while (out.length < max) {
    after = lib.FindWindowExW(hwndOf(hwnd), after, null, null);
    if (!after) break;
    out.push(BigInt(Deno.UnsafePointer.value(after)));
  }
  return out;
}

function send(
  lib: Win32Lib,
  hwnd: bigint,
  msg: number,
  wParam: bigint,
  lParam: Uint8Array<ArrayBuffer>,
  timeoutMs: number,
): bigint | undefined {
  const result = new BigUint64Array(1);
  const ok = lib.SendMessageTimeoutW(
    hwndOf(hwnd),
    msg,
    wParam,
    lParam,
    SMTO_ABORTIFHUNG,
    Math.max(1, Math.round(timeoutMs)),
    new Uint8Array(result.buffer),
  );
  return Number(ok) === 0 ? undefined : result[0]!;
}

/**
 * The window's text, at most `max` characters; `undefined` when the window did not answer
 * within `timeoutMs` (a hung app is never waited on longer).
 */
export function windowText(
  lib: Win32Lib,
  hwnd: bigint,
  max: number,
  timeoutMs: number,
): string | undefined {
  const length = send(lib, hwnd, WM_GETTEXTLENGTH, 0n, new Uint8Array(0), timeoutMs);
  if (length === undefined) return undefined;
  const chars = Math.min(Number(length), max);
  const buf = new Uint16Array(chars + 1);
  const got = send(
    lib,
    hwnd,
    WM_GETTEXT,
    BigInt(chars + 1),
    new Uint8Array(buf.buffer),
    timeoutMs,
  );
  if (got === undefined) return undefined;
  return new TextDecoder("utf-16le").decode(buf.subarray(0, Math.min(Number(got), chars)));
}

/** Replaces the window's text; false when it did not answer within `timeoutMs`. */
export function setWindowText(
  lib: Win32Lib,
  hwnd: bigint,
  text: string,
  timeoutMs: number,
): boolean {
  const wide = wideString(text);
  return send(lib, hwnd, WM_SETTEXT, 0n, new Uint8Array(wide.buffer), timeoutMs) !== undefined;
}

/** Inserts `text` at the edit control's caret, as typing would; false when it did not answer. */
export function insertText(lib: Win32Lib, hwnd: bigint, text: string, timeoutMs: number): boolean {
  const wide = wideString(text);
  // wParam TRUE: the insertion can be undone, like typed text.
  return send(lib, hwnd, EM_REPLACESEL, 1n, new Uint8Array(wide.buffer), timeoutMs) !== undefined;
}

const GA_ROOT = 2;

/**
 * Gives `hwnd` the keyboard focus: its top-level window to the foreground, then the focus
 * within it, with this thread's input attached to the window's thread for the call
 * (`SetFocus` acts only on windows of the caller's input queue).
 */
export function focusWindow(lib: Win32Lib, hwnd: bigint): boolean {
  const handle = hwndOf(hwnd);
  const root = lib.GetAncestor(handle, GA_ROOT) ?? handle;
  lib.SetForegroundWindow(root);
  const theirs = lib.GetWindowThreadProcessId(handle, new Uint8Array(4));
  const ours = lib.GetCurrentThreadId();
  const attached = theirs !== ours && lib.AttachThreadInput(ours, theirs, 1) !== 0;
  try {
    return lib.SetFocus(handle) !== null || lib.GetAncestor(handle, GA_ROOT) === handle;
  } finally {
    if (attached) lib.AttachThreadInput(ours, theirs, 0);
  }
}

/**
 * Presses a button the way its own keyboard handling does. Posted, not sent: a button
 * that closes a modal dialog returns only once the dialog is gone.
 */
export function clickButton(lib: Win32Lib, hwnd: bigint): boolean {
  return lib.PostMessageW(hwndOf(hwnd), BM_CLICK, 0n, 0n) !== 0;
}
