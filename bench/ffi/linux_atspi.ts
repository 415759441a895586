/**
 * libatspi (the C AT-SPI client pyatspi wraps) through `Deno.dlopen`: the symbol table,
 * the loader, the one check helper that turns a `GError` into a {@link DriverError}, and
 * {@link AtspiAccessible}, a thin wrapper that owns its object reference.
 *
 * Every libatspi getter is a blocking D-Bus round trip (unless libatspi's own cache
 * answers), so a walk through this module costs one round trip per attribute per node.
 * libatspi makes them over a direct peer-to-peer connection when the app offers one
 * (`Application.GetApplicationBusAddress`; atk-bridge, so GTK 3, does, GTK 4 does not),
 * else through the accessibility bus daemon. It exists to measure that route against the
 * engine's pipelined D-Bus client (bench/atspi_walk_bench.ts); the engine does not use it.
 *
 * @module
 */
import { openLibrary } from "../../ffi/open.ts";
import { DriverError, type ErrorCode } from "../../protocol/errors.ts";

/**
 * libatspi symbols plus the GLib/GObject calls needed to free what they return. The GLib
 * ones resolve through libatspi's handle: `dlsym` on a handle searches the library and
 * the dependencies it loaded (libgobject-2.0.so.0, libglib-2.0.so.0), so one table and one
 * handle serve all. Types on x86_64: gint/gboolean/enums = i32, guint = u32. `GError **`
 * out-parameters are 8-byte buffers, checked by {@link checkGError}.
 */
export const ATSPI_SYMBOLS = {
  // int atspi_init (void);  0 = connected, 1 = already, 2 = no accessibility bus
  atspi_init: { parameters: [], result: "i32" },
  // AtspiAccessible *atspi_get_desktop (gint i);  (transfer full)
  atspi_get_desktop: { parameters: ["i32"], result: "pointer" },
  // gint atspi_accessible_get_child_count (AtspiAccessible *obj, GError **error);
  atspi_accessible_get_child_count: { parameters: ["pointer", "buffer"], result: "i32" },
  // AtspiAccessible *atspi_accessible_get_child_at_index (AtspiAccessible *obj,
  //                                                      gint child_index, GError **error);
  atspi_accessible_get_child_at_index: {
    parameters: ["pointer", "i32", "buffer"],
    result: "pointer",
  },
  // AtspiRole atspi_accessible_get_role (AtspiAccessible *obj, GError **error);
  atspi_accessible_get_role: { parameters: ["pointer", "buffer"], result: "i32" },
  // gchar *atspi_accessible_get_name (AtspiAccessible *obj, GError **error);  (g_free)
  atspi_accessible_get_name: { parameters: ["pointer", "buffer"], result: "pointer" },
  // AtspiStateSet *atspi_accessible_get_state_set (AtspiAccessible *obj);  (transfer full)
  atspi_accessible_get_state_set: { parameters: ["pointer"], result: "pointer" },
  // gboolean atspi_state_set_contains (AtspiStateSet *set, AtspiStateType state);
  atspi_state_set_contains: { parameters: ["pointer", "i32"], result: "i32" },
  // GArray *atspi_state_set_get_states (AtspiStateSet *set);  (GArray of AtspiStateType)
  atspi_state_set_get_states: { parameters: ["pointer"], result: "pointer" },
  // guint atspi_accessible_get_process_id (AtspiAccessible *accessible, GError **error);
  atspi_accessible_get_process_id: { parameters: ["pointer", "buffer"], result: "u32" },
  // AtspiComponent *atspi_accessible_get_component_iface (AtspiAccessible *obj);
  //   the object itself, ref'd, when it implements Component; else NULL
  atspi_accessible_get_component_iface: { parameters: ["pointer"], result: "pointer" },
  // AtspiRect *atspi_component_get_extents (AtspiComponent *obj, AtspiCoordType ctype,
  //                                         GError **error);  (g_free)
  atspi_component_get_extents: { parameters: ["pointer", "i32", "buffer"], result: "pointer" },
  // AtspiText *atspi_accessible_get_text_iface (AtspiAccessible *obj);  (like Component)
  atspi_accessible_get_text_iface: { parameters: ["pointer"], result: "pointer" },
  // gchar *atspi_text_get_text (AtspiText *obj, gint start_offset, gint end_offset,
  //                             GError **error);  (g_free)
  atspi_text_get_text: { parameters: ["pointer", "i32", "i32", "buffer"], result: "pointer" },
  // void g_object_unref (gpointer object);  (libgobject-2.0)
  g_object_unref: { parameters: ["pointer"], result: "void" },
  // void g_free (gpointer mem);  (libglib-2.0)
  g_free: { parameters: ["pointer"], result: "void" },
  // gchar *g_array_free (GArray *array, gboolean free_segment);  (libglib-2.0)
  g_array_free: { parameters: ["pointer", "i32"], result: "pointer" },
  // void g_error_free (GError *error);  (libglib-2.0)
  g_error_free: { parameters: ["pointer"], result: "void" },
} as const satisfies Deno.ForeignLibraryInterface;

/** Bound libatspi functions. */
export type Atspi = Deno.DynamicLibrary<typeof ATSPI_SYMBOLS>["symbols"];

/** `AtspiCoordType`: screen (pyatspi's `DESKTOP_COORDS`) or window-relative. */
export const COORD = { SCREEN: 0, WINDOW: 1, PARENT: 2 } as const;

/** A rectangle as `atspi_component_get_extents` answers it. */
export interface Extents {
  /** Left. */
  x: number;
  /** Top. */
  y: number;
  /** Width. */
  w: number;
  /** Height. */
  h: number;
}

let atspi: Atspi | undefined;
let initialized = false;

/** Loads libatspi once: `ALLTERNIT_LIBATSPI`, then `libatspi.so.0`; else `driver_unavailable`. */
export function loadAtspi(): Atspi {
  atspi ??= openLibrary("ALLTERNIT_LIBATSPI", "libatspi.so.0", ATSPI_SYMBOLS, "no_libatspi");
  return atspi;
}

/** A `GError` as libatspi set it; the `cause` of the {@link DriverError}. */
export class GLibError extends Error {
  /** Makes the error from the fields of a `GError`. */
  constructor(
    message: string,
    /** `GQuark` of the error domain (atspi_error, g-dbus-error, ...). */
    readonly domain: number,
    /** Code within the domain (`ATSPI_ERROR_IPC` = 2, ...). */
    readonly errorCode: number,
  ) {
    super(message);
    this.name = "GLibError";
  }
}

/**
 * The driver's code for a failed libatspi call. libatspi keeps only the D-Bus error's
 * message, not its name, so the message is what there is to go by.
 */
export function atspiErrorCode(message: string): ErrorCode {
  if (/did not receive a reply|timed? ?out/i.test(message)) return "timeout";
  if (/not provided by any|name has no owner|disconnected|not connected/i.test(message)) {
    return "app_not_running";
  }
  return "element_not_found";
}

// One out-slot for every `GError **`: calls are synchronous on this thread, so a call's
// error is always read before the next call can write it.
const errSlot = new BigUint64Array(1);

/** The zeroed `GError **` out-parameter for the next call. */
function errOut(): BigUint64Array<ArrayBuffer> {
  errSlot[0] = 0n;
  return errSlot;
}

/**
 * The check helper: throws when the call just made set its `GError` (in the shared
 * out-slot): frees the `GError` and throws a {@link DriverError} whose code comes from
 * {@link atspiErrorCode}, with a {@link GLibError} cause.
 */
function checkGError(lib: Atspi, what: string): void {
  const raw = errSlot[0]!;
  if (raw === 0n) return;
  errSlot[0] = 0n;
  const ptr = Deno.UnsafePointer.create(raw)!;
  // struct GError { GQuark domain; gint code; gchar *message; } on x86_64.
  const view = new Deno.UnsafePointerView(ptr);
  const msgPtr = view.getPointer(8);
  const message = msgPtr ? Deno.UnsafePointerView.getCString(msgPtr) : "unknown error";
  const cause = new GLibError(message, view.getUint32(0), view.getInt32(4));
  lib.g_error_free(ptr);
  throw new DriverError(atspiErrorCode(message), `Cannot ${what}: ${message}`, {}, { cause });
}

/** Connects libatspi to the accessibility bus once; `driver_unavailable` when there is none. */
export function initAtspi(): Atspi {
  const lib = loadAtspi();
  if (initialized) return lib;
  const rc = lib.atspi_init();
  if (rc !== 0 && rc !== 1) {
    throw new DriverError(
      "driver_unavailable",
      `Cannot connect libatspi to the accessibility bus: atspi_init answered ${rc}`,
      { reason: "no_accessibility_bus" },
    );
  }
  initialized = true;
  return lib;
}

/** Takes a `gchar *` the caller owns: its text, then `g_free`. */
function takeString(lib: Atspi, ptr: Deno.PointerValue): string {
  if (ptr === null) return "";
  try {
    return Deno.UnsafePointerView.getCString(ptr);
  } finally {
    lib.g_free(ptr);
  }
}

// Backstop only: a wrapper dropped without close() still gives its reference back.
const leaked = new FinalizationRegistry<Deno.PointerObject>((ptr) => atspi?.g_object_unref(ptr));

/** One `AtspiAccessible` reference; `close()` (or `using`) gives it back. */
export class AtspiAccessible implements Disposable {
  #ptr: Deno.PointerObject | null;
  readonly #lib: Atspi;

  private constructor(lib: Atspi, ptr: Deno.PointerObject) {
    this.#lib = lib;
    this.#ptr = ptr;
    leaked.register(this, ptr, this);
  }

  /** Desktop `index` (0 is the only one on Linux): its children are the apps. */
  static desktop(index = 0): AtspiAccessible {
    const lib = initAtspi();
    const ptr = lib.atspi_get_desktop(index);
    if (ptr === null) {
      throw new DriverError("internal", `Cannot get desktop ${index}: libatspi answered NULL`);
    }
    return new AtspiAccessible(lib, ptr);
  }

  #live(): Deno.PointerObject {
    if (this.#ptr === null) throw new DriverError("internal", "AtspiAccessible used after close()");
    return this.#ptr;
  }

  /** `AtspiRole` number (atspi-constants.h order, as `GetRole` answers on the wire). */
  role(): number {
    const role = this.#lib.atspi_accessible_get_role(this.#live(), errOut());
    checkGError(this.#lib, "read the role");
    return role;
  }

  /** Accessible name ("" when none). */
  name(): string {
    const ptr = this.#lib.atspi_accessible_get_name(this.#live(), errOut());
    const name = takeString(this.#lib, ptr);
    checkGError(this.#lib, "read the name");
    return name;
  }

  /** The state set as the two 32-bit words `GetState` sends (engines/atspi/states.ts). */
  states(): [number, number] {
    const lib = this.#lib;
    // No GError here: libatspi answers NULL when GetState failed, which reads as no states
    // (a vanished node is then pruned as not showing).
    const set = lib.atspi_accessible_get_state_set(this.#live());
    if (set === null) return [0, 0];
    const words: [number, number] = [0, 0];
    let arr: Deno.PointerValue = null;
    try {
      arr = lib.atspi_state_set_get_states(set);
      if (arr === null) return words;
      // struct GArray { gchar *data; guint len; }; elements are AtspiStateType (gint).
      const view = new Deno.UnsafePointerView(arr);
      const data = view.getPointer(0);
      const len = view.getUint32(8);
      if (data === null) return words;
      const items = new Deno.UnsafePointerView(data);
      for (let i = 0; i < len; i++) {
        const s = items.getInt32(i * 4);
        if (s >= 0 && s < 32) words[0] = (words[0] | (1 << s)) >>> 0;
        else if (s >= 32 && s < 64) words[1] = (words[1] | (1 << (s - 32))) >>> 0;
      }
      return words;
    } finally {
      if (arr !== null) lib.g_array_free(arr, 1);
      lib.g_object_unref(set);
    }
  }

  /** The app's own child count. */
  childCount(): number {
    const n = this.#lib.atspi_accessible_get_child_count(this.#live(), errOut());
    checkGError(this.#lib, "read the child count");
    return n;
  }

  /** Child `index`; `null` when the app no longer has it. */
  childAt(index: number): AtspiAccessible | null {
    const ptr = this.#lib.atspi_accessible_get_child_at_index(this.#live(), index, errOut());
    if (ptr !== null && errSlot[0] !== 0n) this.#lib.g_object_unref(ptr);
    checkGError(this.#lib, `read child ${index}`);
    return ptr === null ? null : new AtspiAccessible(this.#lib, ptr);
  }

  /** Process id of the app that owns the object. */
  processId(): number {
    const pid = this.#lib.atspi_accessible_get_process_id(this.#live(), errOut());
    checkGError(this.#lib, "read the process id");
    return pid;
  }

  /** Extents in `coords` (default: screen); `undefined` without the Component interface. */
  extents(coords: number = COORD.SCREEN): Extents | undefined {
    const lib = this.#lib;
    const iface = lib.atspi_accessible_get_component_iface(this.#live());
    if (iface === null) return undefined;
    let rect: Deno.PointerValue = null;
    try {
      rect = lib.atspi_component_get_extents(iface, coords, errOut());
      checkGError(lib, "read the extents");
      if (rect === null) return undefined;
      // struct AtspiRect { gint x, y, width, height; }
      const v = new Deno.UnsafePointerView(rect);
      return { x: v.getInt32(0), y: v.getInt32(4), w: v.getInt32(8), h: v.getInt32(12) };
    } finally {
      if (rect !== null) lib.g_free(rect);
      lib.g_object_unref(iface);
    }
  }

  /** All text (`GetText(0, -1)`); `undefined` without the Text interface. */
  text(): string | undefined {
    const lib = this.#lib;
    const iface = lib.atspi_accessible_get_text_iface(this.#live());
    if (iface === null) return undefined;
    try {
      const text = takeString(lib, lib.atspi_text_get_text(iface, 0, -1, errOut()));
      checkGError(lib, "read the text");
      return text;
    } finally {
      lib.g_object_unref(iface);
    }
  }

  /** Gives the reference back; later calls throw. Idempotent. */
  close(): void {
    if (this.#ptr === null) return;
    leaked.unregister(this);
    this.#lib.g_object_unref(this.#ptr);
    this.#ptr = null;
  }

  /** Same as {@link close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }
}
