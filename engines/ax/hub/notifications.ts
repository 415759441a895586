/**
 * The notifications the AXHub registers (design document, "Live element map") and how each
 * maps to the coarse {@link EngineEvent} kinds the live map compares across engines. Pure.
 *
 * @module
 */
import type { EngineEvent } from "../../../model/engine.ts";

/**
 * Registered on each watched app's element (AXNotificationConstants.h): value, title,
 * created, destroyed, focused element, focused/main window, window created/moved/resized/
 * minimized, layout, row count, rows expanded/collapsed, selected children/rows/text/cells,
 * menu opened/closed, sheet/drawer created, app hidden/shown. macOS has no public "scroll
 * position changed" notification: scrolling reaches the map as the scroll bars'
 * AXValueChanged, and AXSelectedChildrenMoved covers reordered selections.
 */
export const APP_NOTIFICATIONS = [
  "AXValueChanged",
  "AXTitleChanged",
  "AXCreated",
  "AXUIElementDestroyed",
  "AXFocusedUIElementChanged",
  "AXFocusedWindowChanged",
  "AXMainWindowChanged",
  "AXWindowCreated",
  "AXWindowMoved",
  "AXWindowResized",
  "AXWindowMiniaturized",
  "AXWindowDeminiaturized",
  "AXLayoutChanged",
  "AXRowCountChanged",
  "AXRowExpanded",
  "AXRowCollapsed",
  "AXSelectedChildrenChanged",
  "AXSelectedChildrenMoved",
  "AXSelectedRowsChanged",
  "AXSelectedTextChanged",
  "AXSelectedCellsChanged",
  "AXMenuOpened",
  "AXMenuClosed",
  "AXSheetCreated",
  "AXDrawerCreated",
  "AXApplicationHidden",
  "AXApplicationShown",
] as const;

/**
 * Registered on each web area found by a read, since a page posts on its web area rather
 * than on the app. The `AXLoadComplete`, `AXLayoutComplete`, `AXLiveRegion*` and
 * `AXExpandedChanged` names are posted by WebKit and Chromium but are not in Apple's
 * public header; an app that does not post one simply never calls back for it.
 */
export const WEB_AREA_NOTIFICATIONS = [
  "AXValueChanged",
  "AXTitleChanged",
  "AXCreated",
  "AXUIElementDestroyed",
  "AXFocusedUIElementChanged",
  "AXLayoutChanged",
  "AXSelectedTextChanged",
  "AXSelectedChildrenChanged",
  "AXLoadComplete",
  "AXLayoutComplete",
  "AXLiveRegionChanged",
  "AXLiveRegionCreated",
  "AXExpandedChanged",
] as const;

const KINDS: Readonly<Record<string, EngineEvent["kind"]>> = {
  AXValueChanged: "property",
  AXTitleChanged: "property",
  AXLiveRegionChanged: "property",
  AXCreated: "structure",
  AXUIElementDestroyed: "structure",
  AXLayoutChanged: "structure",
  AXLayoutComplete: "structure",
  AXLoadComplete: "structure",
  AXLiveRegionCreated: "structure",
  AXRowCountChanged: "structure",
  AXRowExpanded: "structure",
  AXRowCollapsed: "structure",
  AXSelectedChildrenMoved: "structure",
  AXSelectedChildrenChanged: "state",
  AXSelectedRowsChanged: "state",
  AXSelectedCellsChanged: "state",
  AXExpandedChanged: "state",
  AXSelectedTextChanged: "text",
  AXFocusedUIElementChanged: "focus",
  AXWindowMoved: "bounds",
  AXWindowResized: "bounds",
};

/**
 * The event kind of a notification. Window-level changes (a window, sheet, drawer or menu
 * came or went, focus moved to another window, the app hid or showed) are `window`, which
 * makes the live map walk again rather than patch; unknown names count as `property`.
 */
export function kindOf(notification: string): EngineEvent["kind"] {
  const kind = KINDS[notification];
  if (kind) return kind;
  return /^AX(Window|MainWindow|FocusedWindow|Menu|Sheet|Drawer|Application)/.test(notification)
    ? "window"
    : "property";
}

/**
 * Notifications whose element is the one to read again. For the others the element named
 * says little about what to re-read, so the event goes out without a handle and the live
 * map walks the window: `AXCreated` names the new element, which no map holds yet (and AX
 * parents post nothing of their own); `AXLayoutChanged` and the web areas' load and layout
 * notifications name a container or the app; a window that moved or resized moved every
 * element in it (AX bounds are absolute).
 */
const HANDLE_NOTIFICATIONS = new Set([
  "AXValueChanged",
  "AXTitleChanged",
  "AXUIElementDestroyed",
  "AXFocusedUIElementChanged",
  "AXRowCountChanged",
  "AXRowExpanded",
  "AXRowCollapsed",
  "AXSelectedChildrenChanged",
  "AXSelectedRowsChanged",
  "AXSelectedCellsChanged",
  "AXSelectedTextChanged",
  "AXExpandedChanged",
  "AXLiveRegionChanged",
]);

/** Does the element a notification names tell the live map what to read again? */
export function keepsHandle(notification: string): boolean {
  return HANDLE_NOTIFICATIONS.has(notification);
}

/** Bit set in an observer's `refcon` for web-area subscriptions. */
const WEB_BIT = 1n << 40n;

/**
 * The `refcon` passed to `AXObserverAddNotification`: the app's pid, plus a bit for
 * web-area subscriptions. Never zero (pids are positive), and never dereferenced.
 */
export function encodeTag(pid: number, web: boolean): bigint {
  return BigInt(pid) | (web ? WEB_BIT : 0n);
}

/** The pid and web flag of a `refcon` from {@link encodeTag}. */
export function decodeTag(tag: bigint): { pid: number; web: boolean } {
  return { pid: Number(tag & 0xffff_ffffn), web: (tag & WEB_BIT) !== 0n };
}
