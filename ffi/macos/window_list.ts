/**
 * The window server's list of on-screen windows (`CGWindowListCopyWindowInfo`): which
 * processes own normal windows right now. It is asked of the window server on every call,
 * so unlike NSWorkspace it never depends on a run loop having turned.
 *
 * @module
 */
import { type Cf, readStatic } from "./cf.ts";
import { CG, type CoreGraphics } from "./core_graphics.ts";
import { CG_RECT_BYTES, decodeCGRect, type Rect } from "./marshal.ts";

/** One on-screen window. */
export interface CgWindow {
  /** Owner's process id. */
  pid: number;
  /** Owner's name (the app's localized name). */
  owner: string;
  /** `CGWindowID`. */
  number: number;
  /** Title, when the process may see it (screen-recording permission), else "". */
  name: string;
  /** Window layer: 0 for normal app windows, higher for menus, the Dock, overlays. */
  layer: number;
  /** Bounds in global points (top-left origin). */
  bounds: Rect;
}

function key(cf: Cf, address: Deno.PointerValue, name: string): Deno.PointerObject {
  // The exported key constants hold their own names; fall back to an equal CFString.
  return readStatic(address) ?? cf.constant(name);
}

/**
 * On-screen windows, front to back, desktop elements excluded.
 *
 * @param cf CoreFoundation wrappers.
 * @param cg CoreGraphics symbols.
 */
export function onScreenWindows(cf: Cf, cg: CoreGraphics): CgWindow[] {
  const keys = {
    pid: key(cf, cg.kCGWindowOwnerPID, "kCGWindowOwnerPID"),
    owner: key(cf, cg.kCGWindowOwnerName, "kCGWindowOwnerName"),
    name: key(cf, cg.kCGWindowName, "kCGWindowName"),
    number: key(cf, cg.kCGWindowNumber, "kCGWindowNumber"),
    layer: key(cf, cg.kCGWindowLayer, "kCGWindowLayer"),
    bounds: key(cf, cg.kCGWindowBounds, "kCGWindowBounds"),
  };
  const list = cg.CGWindowListCopyWindowInfo(
    CG.optionOnScreenOnly | CG.excludeDesktopElements,
    CG.nullWindowId,
  );
  return cf.using(list, (arr) => {
    if (arr === null) return [];
    const out: CgWindow[] = [];
    const rect = new Uint8Array(CG_RECT_BYTES);
    for (const dict of cf.arrayItems(arr)) {
      if (dict === null) continue;
      const num = (k: Deno.PointerObject) => {
        const v = cf.dictionaryValue(dict, k);
        return v === null ? 0 : cf.number(v);
      };
      const str = (k: Deno.PointerObject) => {
        const v = cf.dictionaryValue(dict, k);
        return v === null ? "" : cf.string(v);
      };
      const b = cf.dictionaryValue(dict, keys.bounds);
      const hasBounds = b !== null && cg.CGRectMakeWithDictionaryRepresentation(b, rect);
      out.push({
        pid: num(keys.pid),
        owner: str(keys.owner),
        number: num(keys.number),
        name: str(keys.name),
        layer: num(keys.layer),
        bounds: hasBounds ? decodeCGRect(rect) : { x: 0, y: 0, w: 0, h: 0 },
      });
    }
    return out;
  });
}
