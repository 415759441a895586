/**
 * libXRes (the X-Resource extension, Debian's libxres1) through `Deno.dlopen`: which
 * process is at the other end of an X client's connection. The server learns it from the
 * socket itself (`SO_PEERCRED` on a local connection), so it knows the pid of clients that
 * never say it, Xt and Tk apps among them.
 *
 * @module
 */
import { openLibrary } from "./open.ts";

/** libXRes symbols. `XResClientIdSpec` is { XID client; unsigned int mask; } (16 bytes on x86_64). */
export const XRES_SYMBOLS = {
  // Bool XResQueryExtension(Display *dpy, int *event_base_return, int *error_base_return);
  XResQueryExtension: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // Status XResQueryVersion(Display *dpy, int *major_version_return, int *minor_version_return);
  XResQueryVersion: { parameters: ["pointer", "buffer", "buffer"], result: "i32" },
  // Status XResQueryClientIds(Display *dpy, long num_specs, XResClientIdSpec *client_specs,
  //                           long *num_ids, XResClientIdValue **client_ids);
  XResQueryClientIds: {
    parameters: ["pointer", "i64", "buffer", "buffer", "buffer"],
    result: "i32",
  },
  // pid_t XResGetClientPid(XResClientIdValue *value);  (-1 when the value is not a pid)
  XResGetClientPid: { parameters: ["pointer"], result: "i32" },
  // void XResClientIdsDestroy(long num_ids, XResClientIdValue *client_ids);
  XResClientIdsDestroy: { parameters: ["i64", "pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound libXRes functions. */
export type XRes = Deno.DynamicLibrary<typeof XRES_SYMBOLS>["symbols"];

/** `XRES_CLIENT_ID_PID_MASK` (1 << XRES_CLIENT_ID_PID). */
const PID_MASK = 2;
/** sizeof(XResClientIdSpec): XID (8) + unsigned int (4) + padding (4). */
const SPEC_SIZE = 16;
/** sizeof(XResClientIdValue): spec (16) + long length (8) + void *value (8). */
const VALUE_SIZE = 32;

let xres: XRes | undefined;

/** Loads libXRes once: `ALLTERNIT_LIBXRES`, then `libXRes.so.1`; else `driver_unavailable`. */
export function loadXRes(): XRes {
  xres ??= openLibrary("ALLTERNIT_LIBXRES", "libXRes.so.1", XRES_SYMBOLS, "no_libxres");
  return xres;
}

/**
 * Whether the server speaks X-Resource 1.2 or later, the version that answers client
 * pids (`XResQueryClientIds`); older servers would answer the request with an error.
 */
export function hasClientIds(lib: XRes, dpy: Deno.PointerObject): boolean {
  const a = new Int32Array(1);
  const b = new Int32Array(1);
  if (!lib.XResQueryExtension(dpy, a, b)) return false;
  if (!lib.XResQueryVersion(dpy, a, b)) return false;
  return a[0]! > 1 || (a[0] === 1 && b[0]! >= 2);
}

/**
 * The pid of the client that owns resource `xid` (any of its windows), as the server
 * knows it; `undefined` when it does not (a client connected over TCP). The id list the
 * server hands back is freed with `XResClientIdsDestroy`, as the C API asks, whatever
 * happens reading it.
 */
export function clientPid(lib: XRes, dpy: Deno.PointerObject, xid: bigint): number | undefined {
  const spec = new Uint8Array(SPEC_SIZE);
  const view = new DataView(spec.buffer);
  view.setBigUint64(0, xid, true);
  view.setUint32(8, PID_MASK, true);
  const count = new BigInt64Array(1);
  const list = new BigUint64Array(1);
  const status = lib.XResQueryClientIds(dpy, 1n, spec, count, list);
  const ptr = Deno.UnsafePointer.create(list[0]!);
  try {
    if (status !== 0 || ptr === null) return undefined;
    for (let i = 0; i < Number(count[0]!); i++) {
      const pid = lib.XResGetClientPid(Deno.UnsafePointer.offset(ptr, i * VALUE_SIZE));
      if (pid > 0) return pid;
    }
    return undefined;
  } finally {
    if (ptr !== null) lib.XResClientIdsDestroy(count[0]!, ptr);
  }
}
