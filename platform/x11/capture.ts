/**
 * Screen and window pixels through `XGetImage` on the root window, as RGBA
 * {@link Capture}s (scale 1: one X pixel is one screen point).
 *
 * @module
 */
import { checkStatus, checkX } from "../../ffi/linux_x11.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { Bounds } from "../../protocol/element.ts";
import type { Capture } from "../../model/engine.ts";
import { type X11Display, x11Handle } from "./display.ts";
import { windowBounds } from "./windows.ts";

const Z_PIXMAP = 2;
const ALL_PLANES = 0xffff_ffff_ffff_ffffn;
const LSB_FIRST = 0;
// int (*destroy_image)(XImage *);
const DESTROY_IMAGE = { parameters: ["pointer"], result: "i32" } as const;

/**
 * Field offsets of `XImage` on x86_64 (Xlib.h): int width@0, height@4, xoffset@8,
 * format@12, char *data@16, int byte_order@24, bitmap_unit@28, bitmap_bit_order@32,
 * bitmap_pad@36, depth@40, bytes_per_line@44, bits_per_pixel@48, unsigned long
 * red_mask@56, green_mask@64, blue_mask@72.
 */
const XIMAGE = {
  width: 0,
  height: 4,
  data: 16,
  byteOrder: 24,
  bytesPerLine: 44,
  bitsPerPixel: 48,
  redMask: 56,
  greenMask: 64,
  blueMask: 72,
} as const;

/**
 * Pixels of `region` (default: the whole screen), clipped to the screen. Throws
 * `invalid_params` when nothing of the region is on screen.
 */
export function captureScreen(display: X11Display, region?: Bounds): Capture {
  const size = display.screenSize();
  const want = region ?? { x: 0, y: 0, w: size.width, h: size.height };
  const clip = intersect(want, { x: 0, y: 0, w: size.width, h: size.height });
  if (!clip) {
    throw new DriverError(
      "invalid_params",
      `Cannot capture ${want.w}x${want.h} at (${want.x}, ${want.y}): it is outside the ${size.width}x${size.height} screen`,
      { issues: [{ path: ["region"], message: "no part of it is on screen" }] },
    );
  }
  return readRoot(display, clip);
}

/**
 * Pixels of window `xid` as the screen shows it: the root window's pixels at the
 * window's absolute bounds, clipped to the screen. Reading the root rather than the
 * window itself is deliberate: without a compositor (Xvfb, plain X) a window has no
 * off-screen contents to read, `XGetImage` on it fails with BadMatch for any part
 * outside the screen, and it misses override-redirect popups drawn over it; the root
 * shows exactly what is visible, popups and overlaps included.
 */
export function captureWindow(display: X11Display, xid: number): Capture {
  const bounds = windowBounds(display, xid);
  const size = display.screenSize();
  const clip = intersect(bounds, { x: 0, y: 0, w: size.width, h: size.height });
  if (!clip) {
    throw new DriverError(
      "action_not_supported",
      `Cannot capture window 0x${xid.toString(16)}: it is entirely off screen`,
      { window: `0x${xid.toString(16)}`, reason: "off_screen" },
    );
  }
  return readRoot(display, clip);
}

function readRoot(display: X11Display, r: Bounds): Capture {
  const { x11, dpy, root } = x11Handle(display);
  const image = x11.XGetImage(dpy, root, r.x, r.y, r.w, r.h, ALL_PLANES, Z_PIXMAP);
  if (image === null) {
    checkX(x11, dpy, `capture ${r.w}x${r.h} at (${r.x}, ${r.y})`);
    checkStatus(image, `capture ${r.w}x${r.h} at (${r.x}, ${r.y})`, dpy);
  }
  try {
    return { width: r.w, height: r.h, scale: 1, origin: { x: r.x, y: r.y }, rgba: toRgba(image!) };
  } finally {
    if (x11.XDestroyImage) x11.XDestroyImage(image);
    else destroyViaFuncs(image!);
  }
}

/** Copies a 32-bpp, LSB-first, 0xRRGGBB-mask XImage into tightly packed RGBA, alpha 255. */
function toRgba(image: Deno.PointerObject): Uint8Array {
  const v = new Deno.UnsafePointerView(image);
  const width = v.getInt32(XIMAGE.width);
  const height = v.getInt32(XIMAGE.height);
  const stride = v.getInt32(XIMAGE.bytesPerLine);
  const bpp = v.getInt32(XIMAGE.bitsPerPixel);
  const order = v.getInt32(XIMAGE.byteOrder);
  const masks = [XIMAGE.redMask, XIMAGE.greenMask, XIMAGE.blueMask].map((o) => v.getBigUint64(o));
  if (
    bpp !== 32 || order !== LSB_FIRST || stride % 4 !== 0 ||
    masks[0] !== 0xff0000n || masks[1] !== 0xff00n || masks[2] !== 0xffn
  ) {
    throw new DriverError(
      "action_not_supported",
      `Cannot capture: unsupported X image format (${bpp} bits per pixel, byte order ${order}, masks ${
        masks.map((m) => `0x${m.toString(16)}`).join("/")
      }); only 32-bit LSB-first 0xRRGGBB is read`,
      { reason: "unsupported_visual" },
    );
  }
  const data = Deno.UnsafePointer.create(v.getBigUint64(XIMAGE.data));
  checkStatus(data, "capture: the X image has no data");
  // A view of Xlib's buffer (no copy); read before XDestroyImage frees it.
  const src = new Uint32Array(Deno.UnsafePointerView.getArrayBuffer(data!, stride * height));
  const out = new Uint8Array(width * height * 4);
  const dst = new Uint32Array(out.buffer);
  const rowWords = stride / 4;
  // Little-endian words: source 0xXXRRGGBB (bytes B,G,R,X) -> 0xFFBBGGRR (bytes R,G,B,A).
  for (let y = 0; y < height; y++) {
    let s = y * rowWords;
    let d = y * width;
    const end = d + width;
    while (d < end) {
      const p = src[s++]!;
      dst[d++] = 0xff000000 | ((p & 0xff) << 16) | (p & 0xff00) | ((p >>> 16) & 0xff);
    }
  }
  return out;
}

/**
 * `XDestroyImage` is a macro for `image->f.destroy_image(image)`: XImage.f starts at 88
 * (after XPointer obdata@80) with create_image, so destroy_image is at 96.
 */
function destroyViaFuncs(image: Deno.PointerObject): void {
  const fn = Deno.UnsafePointer.create<typeof DESTROY_IMAGE>(
    new Deno.UnsafePointerView(image).getBigUint64(96),
  );
  if (fn === null) return;
  new Deno.UnsafeFnPointer(fn, DESTROY_IMAGE).call(image);
}

function intersect(a: Bounds, b: Bounds): Bounds | undefined {
  const x = Math.max(Math.round(a.x), b.x);
  const y = Math.max(Math.round(a.y), b.y);
  const right = Math.min(Math.round(a.x + a.w), b.x + b.w);
  const bottom = Math.min(Math.round(a.y + a.h), b.y + b.h);
  return right > x && bottom > y ? { x, y, w: right - x, h: bottom - y } : undefined;
}
