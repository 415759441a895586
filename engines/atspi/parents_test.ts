import assert from "node:assert/strict";
import type { AppInfo, WindowInfo } from "../../model/engine.ts";
import { addParents, hasOwnedWindows } from "./parents.ts";

const win = (window: string, title: string, role: WindowInfo["role"] = "window"): WindowInfo => ({
  window,
  title,
  bounds: { x: 0, y: 0, w: 1, h: 1 },
  focused: false,
  role,
});

Deno.test("addParents() names a dialog's owner by X's WM_TRANSIENT_FOR, matched by pid and title", () => {
  const apps: AppInfo[] = [{
    app: ":1.7",
    pid: 42,
    name: "mousepad",
    windows: [win("wmain", "Untitled 1 - Mousepad"), win("wopen", "Open File", "dialog")],
  }];
  assert.equal(hasOwnedWindows(apps), true);
  addParents(apps, [
    {
      xid: 100,
      title: "Untitled 1 - Mousepad",
      instance: "mousepad",
      className: "Mousepad",
      pid: 42,
    },
    {
      xid: 200,
      title: "Open File",
      instance: "mousepad",
      className: "Mousepad",
      pid: 42,
      transientFor: 100,
    },
    // Another process's window of the same title is not mousepad's.
    {
      xid: 300,
      title: "Open File",
      instance: "gedit",
      className: "Gedit",
      pid: 7,
      transientFor: 5,
    },
  ]);
  assert.equal(apps[0]!.windows[1]!.parent, "wmain");
  assert.equal(apps[0]!.windows[0]!.parent, undefined);
});

Deno.test("addParents() leaves a window whose title two X windows share without an owner", () => {
  const apps: AppInfo[] = [{
    app: ":1.7",
    pid: 42,
    name: "pad",
    windows: [win("wa", "Doc"), win("wb", "Doc"), win("wd", "Save", "dialog")],
  }];
  addParents(apps, [
    { xid: 1, title: "Doc", instance: "pad", className: "Pad", pid: 42 },
    { xid: 2, title: "Doc", instance: "pad", className: "Pad", pid: 42 },
    { xid: 3, title: "Save", instance: "pad", className: "Pad", pid: 42, transientFor: 2 },
  ]);
  assert.equal(apps[0]!.windows[2]!.parent, undefined, "which Doc is unknown");
  assert.equal(hasOwnedWindows([{ ...apps[0]!, windows: [win("w", "Doc")] }]), false);
});

Deno.test("addParents() marks modal the window X says is (Qt's bridge never says MODAL)", () => {
  const apps: AppInfo[] = [{
    app: ":1.9",
    pid: 42,
    name: "qt_modal.py",
    windows: [win("wmain", "Modal app"), win("wdlg", "Rename item", "dialog")],
  }];
  addParents(apps, [
    { xid: 1, title: "Modal app", instance: "qt", className: "Qt", pid: 42 },
    {
      xid: 2,
      title: "Rename item",
      instance: "qt",
      className: "Qt",
      pid: 42,
      transientFor: 1,
      modal: true,
    },
    // Another process's modal window of the same title is not this app's.
    { xid: 3, title: "Modal app", instance: "other", className: "Other", pid: 7, modal: true },
  ]);
  assert.equal(apps[0]!.windows[1]!.modal, true);
  assert.equal(apps[0]!.windows[1]!.parent, "wmain");
  assert.equal(apps[0]!.windows[0]!.modal, undefined, "the main window is not modal");
});

Deno.test("addParents() pairs an alert named by its message with the one untitled X window left", () => {
  const apps: AppInfo[] = [{
    app: ":1.9",
    pid: 7,
    name: "zoo",
    windows: [win("wmain", "Zoo"), win("walert", "Could not save the file", "alert")],
  }];
  addParents(apps, [
    { xid: 10, title: "Zoo", instance: "zoo", className: "Zoo", pid: 7 },
    { xid: 20, title: "", instance: "zoo", className: "Zoo", pid: 7, transientFor: 10 },
  ]);
  assert.equal(apps[0]!.windows[1]!.parent, "wmain");
  assert.equal(apps[0]!.windows[0]!.parent, undefined);
});
