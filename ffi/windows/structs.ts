/**
 * The Win32 structs the engine builds or reads, packed by hand for 64-bit Windows
 * (x64 and arm64 share these layouts): `INPUT` for `SendInput`, `RECT`, and the
 * `BITMAPINFO` that asks `GetDIBits` for top-down 32-bit pixels.
 *
 * `INPUT` (40 bytes): `DWORD type` at 0, 4 bytes of padding, then a union at 8 aligned
 * for its `ULONG_PTR` member:
 * - `MOUSEINPUT` (32 bytes): `LONG dx` @8, `LONG dy` @12, `DWORD mouseData` @16,
 *   `DWORD dwFlags` @20, `DWORD time` @24, padding, `ULONG_PTR dwExtraInfo` @32.
 * - `KEYBDINPUT` (24 bytes): `WORD wVk` @8, `WORD wScan` @10, `DWORD dwFlags` @12,
 *   `DWORD time` @16, padding, `ULONG_PTR dwExtraInfo` @24.
 *
 * @module
 */

/** `sizeof(INPUT)` on 64-bit Windows; `SendInput`'s `cbSize`. */
export const INPUT_SIZE = 40;
/** `sizeof(RECT)`. */
export const RECT_SIZE = 16;
/** `sizeof(BITMAPINFOHEADER)`. */
export const BITMAPINFOHEADER_SIZE = 40;

/** `INPUT.type`. */
export const INPUT_TYPE = { MOUSE: 0, KEYBOARD: 1 } as const;

/** `MOUSEINPUT.dwFlags`. */
export const MOUSEEVENTF = {
  MOVE: 0x0001,
  LEFTDOWN: 0x0002,
  LEFTUP: 0x0004,
  RIGHTDOWN: 0x0008,
  RIGHTUP: 0x0010,
  MIDDLEDOWN: 0x0020,
  MIDDLEUP: 0x0040,
  WHEEL: 0x0800,
  HWHEEL: 0x1000,
  VIRTUALDESK: 0x4000,
  ABSOLUTE: 0x8000,
} as const;

/** `KEYBDINPUT.dwFlags`. */
export const KEYEVENTF = {
  EXTENDEDKEY: 0x0001,
  KEYUP: 0x0002,
  UNICODE: 0x0004,
  SCANCODE: 0x0008,
} as const;

/** One mouse event. `dx`/`dy` are 0-65535 normalized when `ABSOLUTE` is set. */
export interface MouseEvent {
  /** Mouse event. */
  kind: "mouse";
  /** Horizontal position or motion. */
  dx: number;
  /** Vertical position or motion. */
  dy: number;
  /** Wheel delta (signed, multiples of 120) for WHEEL/HWHEEL. */
  mouseData: number;
  /** `MOUSEEVENTF` bits. */
  flags: number;
}

/** One key event: a virtual key, or a UTF-16 code unit in `scan` with `UNICODE`. */
export interface KeyEvent {
  /** Keyboard event. */
  kind: "key";
  /** Virtual-key code (0 with `UNICODE`). */
  vk: number;
  /** Scan code, or the UTF-16 code unit with `UNICODE`. */
  scan: number;
  /** `KEYEVENTF` bits. */
  flags: number;
}

/** An `INPUT` of either kind. */
export type InputEvent = MouseEvent | KeyEvent;

/** Packs events into the `INPUT[]` array `SendInput` takes. */
export function packInputs(events: readonly InputEvent[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(events.length * INPUT_SIZE);
  const view = new DataView(out.buffer);
  events.forEach((e, i) => {
    const at = i * INPUT_SIZE;
    if (e.kind === "mouse") {
      view.setUint32(at, INPUT_TYPE.MOUSE, true);
      view.setInt32(at + 8, Math.round(e.dx), true);
      view.setInt32(at + 12, Math.round(e.dy), true);
      // mouseData is a DWORD, but wheel deltas are signed: store the two's complement.
      view.setInt32(at + 16, Math.round(e.mouseData), true);
      view.setUint32(at + 20, e.flags, true);
    } else {
      view.setUint32(at, INPUT_TYPE.KEYBOARD, true);
      view.setUint16(at + 8, e.vk, true);
      view.setUint16(at + 10, e.scan, true);
      view.setUint32(at + 12, e.flags, true);
    }
    // time 0 (the system stamps it) and dwExtraInfo 0 stay as allocated.
  });
  return out;
}

/** A `RECT`: edges, right and bottom exclusive. */
export interface Rect {
  /** Left edge. */
  left: number;
  /** Top edge. */
  top: number;
  /** Right edge (exclusive). */
  right: number;
  /** Bottom edge (exclusive). */
  bottom: number;
}

/** Reads a `RECT` (four LONGs) from `bytes`. */
export function readRect(bytes: Uint8Array): Rect {
  const view = new DataView(bytes.buffer, bytes.byteOffset, RECT_SIZE);
  return {
    left: view.getInt32(0, true),
    top: view.getInt32(4, true),
    right: view.getInt32(8, true),
    bottom: view.getInt32(12, true),
  };
}

/** `{x, y, w, h}` of a RECT; an inverted rect has zero size. */
export function rectBounds(r: Rect): { x: number; y: number; w: number; h: number } {
  return {
    x: r.left,
    y: r.top,
    w: Math.max(0, r.right - r.left),
    h: Math.max(0, r.bottom - r.top),
  };
}

/**
 * A `BITMAPINFO` (header + one unused RGBQUAD) asking for `width`×`height` pixels,
 * 32 bits each, uncompressed, rows top-down (a negative `biHeight`).
 */
export function bitmapInfo(width: number, height: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(BITMAPINFOHEADER_SIZE + 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, BITMAPINFOHEADER_SIZE, true); // biSize
  view.setInt32(4, width, true); // biWidth
  view.setInt32(8, -height, true); // biHeight: negative = top-down rows
  view.setUint16(12, 1, true); // biPlanes
  view.setUint16(14, 32, true); // biBitCount
  view.setUint32(16, 0, true); // biCompression = BI_RGB
  return out;
}

/** GDI's 32-bit pixels are BGRX; the engine contract wants RGBA. Converts in place. */
export function bgraToRgba(pixels: Uint8Array): Uint8Array {
  for (let i = 0; i < pixels.length; i += 4) {
    const b = pixels[i]!;
    pixels[i] = pixels[i + 2]!;
    pixels[i + 2] = b;
    pixels[i + 3] = 255; // GDI leaves the X byte undefined (often 0).
  }
  return pixels;
}
