/**
 * Reading one X window: its place in the window tree and its properties. The copies the
 * server hands out are freed here, so callers only see JavaScript values.
 *
 * @module
 */
import type { X11Handle } from "./display.ts";

const ANY_TYPE = 0n;
/** Longest property read, in 32-bit units (titles longer than 4 KiB are cut). */
const MAX_PROPERTY = 1024n;

/** A window's parent and children (bottom of the stack first). */
export interface TreeLinks {
  /** The parent window; 0 for a root window. */
  parent: bigint;
  /** Child windows in stacking order. */
  children: bigint[];
}

/** {@link TreeLinks} of `win`; `undefined` when the window is gone. */
export function queryTree({ x11, dpy }: X11Handle, win: bigint): TreeLinks | undefined {
  const ids = new BigUint64Array(2);
  const list = new BigUint64Array(1);
  const count = new Uint32Array(1);
  const ok = x11.XQueryTree(dpy, win, ids.subarray(0, 1), ids.subarray(1, 2), list, count);
  const ptr = Deno.UnsafePointer.create(list[0]!);
  try {
    if (!ok) return undefined;
    const children = new BigUint64Array(ptr === null ? 0 : count[0]!);
    if (ptr !== null) Deno.UnsafePointerView.copyInto(ptr, children);
    return { parent: ids[1]!, children: [...children] };
  } finally {
    if (ptr !== null) x11.XFree(ptr);
  }
}

/** A property as read: its type, format and raw items. */
export interface PropertyValue {
  type: bigint;
  format: number;
  /** Format-32 items as C longs (8 bytes each on x86_64), format-8 items as bytes. */
  bytes: Uint8Array;
  /** The property holds more than was read. */
  more: boolean;
}

/**
 * The first `units` 32-bit units of property `atom` of `win` (`XGetWindowProperty`),
 * deleting it when `remove` and it was read to its end (Xlib deletes only then).
 * `undefined` when the window lacks it.
 */
export function readProperty(
  { x11, dpy }: X11Handle,
  win: bigint,
  atom: bigint,
  units: bigint,
  remove = false,
): PropertyValue | undefined {
  const type = new BigUint64Array(1);
  const format = new Int32Array(1);
  const counts = new BigUint64Array(2);
  const prop = new BigUint64Array(1);
  const status = x11.XGetWindowProperty(
    dpy,
    win,
    atom,
    0n,
    units,
    remove ? 1 : 0,
    ANY_TYPE,
    type,
    format,
    counts.subarray(0, 1),
    counts.subarray(1, 2),
    prop,
  );
  const ptr = Deno.UnsafePointer.create(prop[0]!);
  try {
    if (status !== 0 || type[0] === 0n) return undefined;
    const unit = format[0] === 32 ? 8 : format[0] === 16 ? 2 : 1;
    const bytes = new Uint8Array(Number(counts[0]!) * unit);
    if (ptr !== null && bytes.length > 0) Deno.UnsafePointerView.copyInto(ptr, bytes);
    return { type: type[0]!, format: format[0]!, bytes, more: counts[1]! > 0n };
  } finally {
    if (ptr !== null) x11.XFree(ptr);
  }
}

/**
 * A property's raw items (at most {@link MAX_PROPERTY} units). Format-32 items arrive as
 * C longs (8 bytes each on x86_64); format-8 items as bytes. `undefined` when the window
 * lacks it.
 */
export function property(
  h: X11Handle,
  win: bigint,
  atom: bigint,
): { format: number; bytes: Uint8Array } | undefined {
  const value = readProperty(h, win, atom, MAX_PROPERTY);
  return value && { format: value.format, bytes: value.bytes };
}

/** The items of a format-32 property as numbers (atoms, window ids, cardinals). */
export function longs(value: { format: number; bytes: Uint8Array }): bigint[] {
  if (value.format !== 32) return [];
  const view = new DataView(value.bytes.buffer, value.bytes.byteOffset);
  return Array.from({ length: value.bytes.length / 8 }, (_, i) => view.getBigUint64(i * 8, true));
}

/** `XWindowAttributes` on x86_64: `class` after 6 ints, Visual* and root; `map_state` later. */
const CLASS_OFFSET = 40;
const MAP_STATE_OFFSET = 92;
/** sizeof(XWindowAttributes) is 136 on x86_64; room to spare. */
const ATTRIBUTES_SIZE = 160;
const IS_VIEWABLE = 2;
const INPUT_ONLY = 2;

/** What a window's attributes say of its showing; `undefined` when it is gone. */
export function attributes(
  { x11, dpy }: X11Handle,
  win: bigint,
): { viewable: boolean; inputOnly: boolean } | undefined {
  const attrs = new Uint8Array(ATTRIBUTES_SIZE);
  if (!x11.XGetWindowAttributes(dpy, win, attrs)) return undefined;
  const view = new DataView(attrs.buffer);
  return {
    viewable: view.getInt32(MAP_STATE_OFFSET, true) === IS_VIEWABLE,
    inputOnly: view.getInt32(CLASS_OFFSET, true) === INPUT_ONLY,
  };
}

/**
 * A window's rectangle in its parent (`x`, `y`: its border's outer corner there), its
 * inside size and border width; `undefined` when it is gone.
 */
export function geometry(
  { x11, dpy }: X11Handle,
  win: bigint,
): { x: number; y: number; w: number; h: number; border: number } | undefined {
  const root = new BigUint64Array(1);
  const xy = new Int32Array(2);
  const sizes = new Uint32Array(4);
  const ok = x11.XGetGeometry(
    dpy,
    win,
    root,
    xy.subarray(0, 1),
    xy.subarray(1, 2),
    sizes.subarray(0, 1),
    sizes.subarray(1, 2),
    sizes.subarray(2, 3),
    sizes.subarray(3, 4),
  );
  if (!ok) return undefined;
  return { x: xy[0]!, y: xy[1]!, w: sizes[0]!, h: sizes[1]!, border: sizes[2]! };
}

/** The screen point of a window's inside corner; `undefined` when it is gone. */
export function screenOrigin(
  { x11, dpy, root }: X11Handle,
  win: bigint,
): { x: number; y: number } | undefined {
  const abs = new Int32Array(2);
  const child = new BigUint64Array(1);
  const ok = x11.XTranslateCoordinates(
    dpy,
    win,
    root,
    0,
    0,
    abs.subarray(0, 1),
    abs.subarray(1, 2),
    child,
  );
  return ok ? { x: abs[0]!, y: abs[1]! } : undefined;
}
