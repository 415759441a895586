/**
 * libX11 and libXtst through `Deno.dlopen`: the symbol tables, the loaders and the one
 * check helper that turns X protocol errors into {@link DriverError}s.
 *
 * Xlib reports protocol errors (BadWindow, BadMatch, ...) asynchronously to a
 * process-wide handler whose default prints and calls `exit()`. {@link retainErrorTrap}
 * replaces it with a callback that only records the error; {@link checkX} then syncs and
 * throws what was recorded for that display.
 *
 * A lost connection (the X server died) goes to Xlib's IO error handler, whose default
 * also calls `exit()`: the driver died with its X server. The trap replaces that handler
 * too, and on each display it is told of, the IO error *exit* handler (libX11 1.7.99+),
 * with callbacks that only record the display as lost and return. libX11 1.8 lets both
 * return: it marks the `Display *` as failed, and every later call on it returns at once
 * (zeros, NULL, or values that mean nothing) without touching the socket. Nothing here
 * longjmps out of Xlib (a Deno callback cannot), so the dead `Display *` stays consistent
 * enough to close; it must never be used for anything else ({@link connectionLost}).
 *
 * @module
 */
import { openLibrary } from "./open.ts";
import { DriverError } from "../protocol/errors.ts";

/** Out-parameter pointers (`int *`, `Window *`, ...) are passed as typed arrays. */
const OUT5 = ["buffer", "buffer", "buffer", "buffer", "buffer"] as const;
const OUT7 = [...OUT5, "buffer", "buffer"] as const;

/** libX11 symbols. X types on x86_64: XID/Window/Atom/KeySym = u64, KeyCode = u8, Bool/Status = i32. */
export const X11_SYMBOLS = {
  // Display *XOpenDisplay(const char *display_name);
  XOpenDisplay: { parameters: ["buffer"], result: "pointer" },
  // int XCloseDisplay(Display *display);
  XCloseDisplay: { parameters: ["pointer"], result: "i32" },
  // Window XDefaultRootWindow(Display *display);
  XDefaultRootWindow: { parameters: ["pointer"], result: "u64" },
  // int XDefaultScreen(Display *display);
  XDefaultScreen: { parameters: ["pointer"], result: "i32" },
  // int XDisplayWidth(Display *display, int screen_number);
  XDisplayWidth: { parameters: ["pointer", "i32"], result: "i32" },
  // int XDisplayHeight(Display *display, int screen_number);
  XDisplayHeight: { parameters: ["pointer", "i32"], result: "i32" },
  // int XRaiseWindow(Display *display, Window w);
  XRaiseWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // Window operations (platform/x11/window_ops.ts).
  // int XMoveResizeWindow(Display *display, Window w, int x, int y, unsigned width,
  //                       unsigned height);
  XMoveResizeWindow: {
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32"],
    result: "i32",
  },
  // int XMapRaised(Display *display, Window w);
  XMapRaised: { parameters: ["pointer", "u64"], result: "i32" },
  // int XUnmapWindow(Display *display, Window w);
  XUnmapWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // Status XIconifyWindow(Display *display, Window w, int screen_number);
  XIconifyWindow: { parameters: ["pointer", "u64", "i32"], result: "i32" },
  // int XKillClient(Display *display, XID resource);
  XKillClient: { parameters: ["pointer", "u64"], result: "i32" },
  // int XFlush(Display *display);
  XFlush: { parameters: ["pointer"], result: "i32" },
  // int XSync(Display *display, Bool discard);
  XSync: { parameters: ["pointer", "i32"], result: "i32" },
  // int XFree(void *data);
  XFree: { parameters: ["pointer"], result: "i32" },
  // KeySym XStringToKeysym(const char *string);
  XStringToKeysym: { parameters: ["buffer"], result: "u64" },
  // int XDisplayKeycodes(Display *display, int *min_keycodes_return, int *max_keycodes_return);
  XDisplayKeycodes: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // KeySym *XGetKeyboardMapping(Display *display, KeyCode first_keycode, int keycode_count,
  //                             int *keysyms_per_keycode_return);
  XGetKeyboardMapping: { parameters: ["pointer", "u8", "i32", "buffer"], result: "pointer" },
  // int XChangeKeyboardMapping(Display *display, int first_keycode, int keysyms_per_keycode,
  //                            KeySym *keysyms, int num_codes);
  XChangeKeyboardMapping: {
    parameters: ["pointer", "i32", "i32", "buffer", "i32"],
    result: "i32",
  },
  // XImage *XGetImage(Display *display, Drawable d, int x, int y, unsigned int width,
  //                   unsigned int height, unsigned long plane_mask, int format);
  XGetImage: {
    parameters: ["pointer", "u64", "i32", "i32", "u32", "u32", "u64", "i32"],
    result: "pointer",
  },
  // int XDestroyImage(XImage *ximage);  (a macro in Xutil.h; exported as a function too)
  XDestroyImage: { parameters: ["pointer"], result: "i32", optional: true },
  // Status XGetGeometry(Display *display, Drawable d, Window *root_return, int *x_return,
  //                     int *y_return, unsigned int *width_return, unsigned int *height_return,
  //                     unsigned int *border_width_return, unsigned int *depth_return);
  XGetGeometry: {
    parameters: ["pointer", "u64", ...OUT7],
    result: "i32",
  },
  // Bool XTranslateCoordinates(Display *display, Window src_w, Window dest_w, int src_x,
  //                            int src_y, int *dest_x_return, int *dest_y_return,
  //                            Window *child_return);
  XTranslateCoordinates: {
    parameters: ["pointer", "u64", "u64", "i32", "i32", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // Bool XQueryPointer(Display *display, Window w, Window *root_return, Window *child_return,
  //                    int *root_x_return, int *root_y_return, int *win_x_return,
  //                    int *win_y_return, unsigned int *mask_return);
  XQueryPointer: {
    parameters: ["pointer", "u64", ...OUT7],
    result: "i32",
  },
  // Status XQueryTree(Display *display, Window w, Window *root_return, Window *parent_return,
  //                   Window **children_return, unsigned int *nchildren_return);
  XQueryTree: {
    parameters: ["pointer", "u64", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // Status XGetWindowAttributes(Display *display, Window w,
  //                             XWindowAttributes *window_attributes_return);
  XGetWindowAttributes: { parameters: ["pointer", "u64", "buffer"], result: "i32" },
  // Atom XInternAtom(Display *display, const char *atom_name, Bool only_if_exists);
  XInternAtom: { parameters: ["pointer", "buffer", "i32"], result: "u64" },
  // int XGetWindowProperty(Display *display, Window w, Atom property, long long_offset,
  //                        long long_length, Bool delete, Atom req_type,
  //                        Atom *actual_type_return, int *actual_format_return,
  //                        unsigned long *nitems_return, unsigned long *bytes_after_return,
  //                        unsigned char **prop_return);
  XGetWindowProperty: {
    parameters: ["pointer", "u64", "u64", "i64", "i64", "i32", "u64", ...OUT5],
    result: "i32",
  },
  // int XGetInputFocus(Display *display, Window *focus_return, int *revert_to_return);
  XGetInputFocus: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // int XSetInputFocus(Display *display, Window focus, int revert_to, Time time);
  XSetInputFocus: { parameters: ["pointer", "u64", "i32", "u64"], result: "i32" },
  // int XSelectInput(Display *display, Window w, long event_mask);
  XSelectInput: { parameters: ["pointer", "u64", "i64"], result: "i32" },
  // Status XSendEvent(Display *display, Window w, Bool propagate, long event_mask,
  //                   XEvent *event_send);
  XSendEvent: { parameters: ["pointer", "u64", "i32", "i64", "buffer"], result: "i32" },
  // int XPending(Display *display);
  XPending: { parameters: ["pointer"], result: "i32" },
  // int XNextEvent(Display *display, XEvent *event_return);
  XNextEvent: { parameters: ["pointer", "buffer"], result: "i32" },
  // Selections (platform/x11/clipboard.ts)
  // Window XCreateWindow(Display *display, Window parent, int x, int y, unsigned int width,
  //                      unsigned int height, unsigned int border_width, int depth,
  //                      unsigned int class, Visual *visual, unsigned long valuemask,
  //                      XSetWindowAttributes *attributes);
  XCreateWindow: {
    parameters: [
      "pointer",
      "u64",
      "i32",
      "i32",
      "u32",
      "u32",
      "u32",
      "i32",
      "u32",
      "pointer",
      "u64",
      "pointer",
    ],
    result: "u64",
  },
  // int XDestroyWindow(Display *display, Window w);
  XDestroyWindow: { parameters: ["pointer", "u64"], result: "i32" },
  // int XConvertSelection(Display *display, Atom selection, Atom target, Atom property,
  //                       Window requestor, Time time);
  XConvertSelection: {
    parameters: ["pointer", "u64", "u64", "u64", "u64", "u64"],
    result: "i32",
  },
  // int XSetSelectionOwner(Display *display, Atom selection, Window owner, Time time);
  XSetSelectionOwner: { parameters: ["pointer", "u64", "u64", "u64"], result: "i32" },
  // Window XGetSelectionOwner(Display *display, Atom selection);
  XGetSelectionOwner: { parameters: ["pointer", "u64"], result: "u64" },
  // int XChangeProperty(Display *display, Window w, Atom property, Atom type, int format,
  //                     int mode, const unsigned char *data, int nelements);
  XChangeProperty: {
    parameters: ["pointer", "u64", "u64", "u64", "i32", "i32", "buffer", "i32"],
    result: "i32",
  },
  // int XDeleteProperty(Display *display, Window w, Atom property);
  XDeleteProperty: { parameters: ["pointer", "u64", "u64"], result: "i32" },
  // long XMaxRequestSize(Display *display);  (in 4-byte units)
  XMaxRequestSize: { parameters: ["pointer"], result: "i64" },
  // long XExtendedMaxRequestSize(Display *display);  (0 without BIG-REQUESTS)
  XExtendedMaxRequestSize: { parameters: ["pointer"], result: "i64" },
  // XErrorHandler XSetErrorHandler(int (*handler)(Display *, XErrorEvent *));
  XSetErrorHandler: { parameters: ["function"], result: "pointer" },
  // XIOErrorHandler XSetIOErrorHandler(int (*handler)(Display *));
  XSetIOErrorHandler: { parameters: ["function"], result: "pointer" },
  // void XSetIOErrorExitHandler(Display *display, void (*handler)(Display *, void *),
  //                             void *user_data);  (libX11 1.7.99 and later)
  XSetIOErrorExitHandler: {
    parameters: ["pointer", "function", "pointer"],
    result: "void",
    optional: true,
  },
  // int XGetErrorText(Display *display, int code, char *buffer_return, int length);
  XGetErrorText: { parameters: ["pointer", "i32", "buffer", "i32"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** libXtst symbols (the XTEST extension: synthetic input the server treats as real). */
export const XTST_SYMBOLS = {
  // Bool XTestQueryExtension(Display *display, int *event_base_return, int *error_base_return,
  //                          int *major_version_return, int *minor_version_return);
  XTestQueryExtension: {
    parameters: ["pointer", "buffer", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // int XTestFakeKeyEvent(Display *display, unsigned int keycode, Bool is_press,
  //                       unsigned long delay);
  XTestFakeKeyEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  // int XTestFakeButtonEvent(Display *display, unsigned int button, Bool is_press,
  //                          unsigned long delay);
  XTestFakeButtonEvent: { parameters: ["pointer", "u32", "i32", "u64"], result: "i32" },
  // int XTestFakeMotionEvent(Display *display, int screen_number, int x, int y,
  //                          unsigned long delay);
  XTestFakeMotionEvent: { parameters: ["pointer", "i32", "i32", "i32", "u64"], result: "i32" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound libX11 functions. */
export type X11 = Deno.DynamicLibrary<typeof X11_SYMBOLS>["symbols"];
/** Bound libXtst functions. */
export type Xtst = Deno.DynamicLibrary<typeof XTST_SYMBOLS>["symbols"];

let x11: X11 | undefined;
let xtst: Xtst | undefined;

/** Loads libX11 once: `ALLTERNIT_LIBX11`, then `libX11.so.6`; else `driver_unavailable`. */
export function loadX11(): X11 {
  x11 ??= openLibrary("ALLTERNIT_LIBX11", "libX11.so.6", X11_SYMBOLS, "no_libx11");
  return x11;
}

/** Loads libXtst once: `ALLTERNIT_LIBXTST`, then `libXtst.so.6`; else `driver_unavailable`. */
export function loadXtst(): Xtst {
  xtst ??= openLibrary("ALLTERNIT_LIBXTST", "libXtst.so.6", XTST_SYMBOLS, "no_libxtst");
  return xtst;
}

/** One X protocol error as the server reported it; the `cause` of the DriverError. */
export class XProtocolError extends Error {
  /** Makes the error from the fields of an `XErrorEvent`. */
  constructor(
    message: string,
    /** `error_code` (3 = BadWindow, 8 = BadMatch, ...). */
    readonly errorCode: number,
    /** Major opcode of the failed request (73 = X_GetImage, ...). */
    readonly requestCode: number,
    /** The resource the request named (a window id, ...). */
    readonly resourceId: number,
  ) {
    super(message);
    this.name = "XProtocolError";
  }
}

interface Recorded {
  errorCode: number;
  requestCode: number;
  resourceId: number;
}

const BAD_WINDOW = 3;
const BAD_DRAWABLE = 9;
const MAX_RECORDED = 32;
const recorded = new Map<bigint, Recorded[]>();
/** Displays whose connection broke (an IO error), by `Display *`. */
const lost = new Set<bigint>();
/** Names of the displays the trap was told of, by `Display *`, for error messages. */
const names = new Map<bigint, string>();
const HANDLER = { parameters: ["pointer", "pointer"], result: "i32" } as const;
const IO_HANDLER = { parameters: ["pointer"], result: "i32" } as const;
const IO_EXIT_HANDLER = { parameters: ["pointer", "pointer"], result: "void" } as const;
let trap:
  | {
    callback: Deno.UnsafeCallback<typeof HANDLER>;
    previous: Deno.PointerValue;
    io: Deno.UnsafeCallback<typeof IO_HANDLER>;
    previousIo: Deno.PointerValue;
    exit: Deno.UnsafeCallback<typeof IO_EXIT_HANDLER>;
    users: number;
  }
  | undefined;

/**
 * Installs the recording error handlers (reference counted: one per open display). Xlib
 * calls them synchronously from inside the FFI call that read the error, on this thread.
 * With `dpy`, that display's connection loss is survived too (see the module doc): its IO
 * error exit handler returns instead of exiting, where libX11 has
 * `XSetIOErrorExitHandler`; `name` is the display's name for error messages.
 */
export function retainErrorTrap(lib: X11, dpy?: Deno.PointerObject, name = ""): void {
  if (trap) {
    trap.users++;
  } else {
    const callback = new Deno.UnsafeCallback(HANDLER, (dpy, event) => {
      if (dpy === null || event === null) return 0;
      // XErrorEvent on x86_64: int type@0, Display* @8, XID resourceid@16, serial@24,
      // unsigned char error_code@32, request_code@33, minor_code@34.
      const view = new Deno.UnsafePointerView(event);
      const key = Deno.UnsafePointer.value(dpy);
      const list = recorded.get(key) ?? [];
      if (list.length < MAX_RECORDED) {
        list.push({
          errorCode: view.getUint8(32),
          requestCode: view.getUint8(33),
          resourceId: Number(view.getBigUint64(16)),
        });
      }
      recorded.set(key, list);
      return 0;
    });
    // Called once or more per broken connection; only records it (no X call: it is dead).
    const io = new Deno.UnsafeCallback(IO_HANDLER, (dpy) => {
      if (dpy !== null) lost.add(Deno.UnsafePointer.value(dpy));
      return 0;
    });
    // Returning is the point: the default calls exit().
    const exit = new Deno.UnsafeCallback(IO_EXIT_HANDLER, () => {});
    const previous = lib.XSetErrorHandler(callback.pointer);
    const previousIo = lib.XSetIOErrorHandler(io.pointer);
    trap = { callback, previous, io, previousIo, exit, users: 1 };
  }
  if (dpy) {
    const key = Deno.UnsafePointer.value(dpy);
    names.set(key, name);
    // Without it (libX11 before 1.7.99) a lost server still ends the process, as before.
    lib.XSetIOErrorExitHandler?.(dpy, trap.exit.pointer, null);
  }
}

/**
 * Drops one user of the error trap; the last one restores Xlib's previous handlers. Call it
 * after `XCloseDisplay(dpy)`: closing a lost display still goes through the IO handlers.
 */
export function releaseErrorTrap(lib: X11, dpy: Deno.PointerObject): void {
  const key = Deno.UnsafePointer.value(dpy);
  recorded.delete(key);
  lost.delete(key);
  names.delete(key);
  if (!trap || --trap.users > 0) return;
  lib.XSetErrorHandler(trap.previous);
  lib.XSetIOErrorHandler(trap.previousIo);
  trap.callback.close();
  trap.io.close();
  trap.exit.close();
  trap = undefined;
}

/**
 * Whether `dpy`'s connection broke (its X server died or dropped it). A lost `Display *`
 * answers every call with nothing meaningful; only `XCloseDisplay` may still be called.
 */
export function connectionLost(dpy: Deno.PointerObject): boolean {
  return lost.has(Deno.UnsafePointer.value(dpy));
}

/**
 * The error for an X display whose server is gone: `driver_unavailable`, reason
 * `x_display_gone`, naming the display.
 */
export function displayGone(
  name: string,
  what: string,
  why = "its X server closed the connection",
): DriverError {
  return new DriverError(
    "driver_unavailable",
    `Cannot ${what}: X display "${name}" is gone (${why})`,
    { reason: "x_display_gone", display: name },
  );
}

/** Throws {@link displayGone} when `dpy`'s connection is lost. */
export function checkConnection(dpy: Deno.PointerObject, what: string): void {
  if (!connectionLost(dpy)) return;
  throw displayGone(names.get(Deno.UnsafePointer.value(dpy)) ?? "", what);
}

/**
 * Waits until the server has processed every request sent on `dpy` (`XSync`), then throws
 * the first X error recorded since the last check: BadWindow/BadDrawable as
 * `window_not_found`, anything else as `internal`, with an {@link XProtocolError} cause;
 * a lost connection as {@link displayGone}.
 */
export function checkX(lib: X11, dpy: Deno.PointerObject, what: string): void {
  lib.XSync(dpy, 0);
  // A sync on a dead connection is where its loss is usually first noticed.
  checkConnection(dpy, what);
  const key = Deno.UnsafePointer.value(dpy);
  const errors = recorded.get(key);
  if (!errors || errors.length === 0) return;
  recorded.delete(key);
  const first = errors[0]!;
  const buf = new Uint8Array(128);
  lib.XGetErrorText(dpy, first.errorCode, buf, buf.length);
  const text = new TextDecoder().decode(buf.subarray(0, Math.max(0, buf.indexOf(0))));
  const cause = new XProtocolError(
    `${text || `X error ${first.errorCode}`} (request ${first.requestCode}, resource 0x${
      first.resourceId.toString(16)
    })`,
    first.errorCode,
    first.requestCode,
    first.resourceId,
  );
  const gone = first.errorCode === BAD_WINDOW || first.errorCode === BAD_DRAWABLE;
  throw new DriverError(
    gone ? "window_not_found" : "internal",
    `Cannot ${what}: ${cause.message}`,
    gone ? { window: `0x${first.resourceId.toString(16)}` } : { reason: "x_error" },
    { cause },
  );
}

/**
 * Throws `internal` when an Xlib call returned a false `Status`/`Bool` (or NULL); with
 * `dpy`, {@link displayGone} when that is because its connection was lost.
 */
export function checkStatus(
  ok: number | boolean | Deno.PointerValue,
  what: string,
  dpy?: Deno.PointerObject,
): void {
  if (ok === 0 || ok === false || ok === null) {
    if (dpy) checkConnection(dpy, what);
    throw new DriverError("internal", `Cannot ${what}: the X server refused the request`, {
      reason: "x_status",
    });
  }
}

/** NUL-terminated bytes for a `const char *` argument. */
export function cString(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`${text}\0`);
}
