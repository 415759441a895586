/**
 * Finding and connecting to the accessibility bus, with the reason when it can't be had:
 * `AT_SPI_BUS_ADDRESS`, else `org.a11y.Bus.GetAddress` on the session bus.
 *
 * @module
 */
import { DBusConnection, DBusError } from "../../platform/dbus/mod.ts";
import { DriverError } from "../../protocol/errors.ts";

/** Why the AT-SPI engine is unavailable, as `hello` reports it. */
export type UnavailableReason = "no_display" | "no_session_bus" | "no_accessibility_bus";

function unavailable(reason: UnavailableReason, message: string, cause?: unknown): DriverError {
  return new DriverError("driver_unavailable", message, { reason }, cause ? { cause } : undefined);
}

/** Connects to the a11y bus of this session; throws `driver_unavailable` with the reason. */
export async function connectA11yBus(
  env: (k: string) => string | undefined = (k) => Deno.env.get(k),
  signal?: AbortSignal,
): Promise<DBusConnection> {
  if (!env("DISPLAY") && !env("WAYLAND_DISPLAY")) {
    throw unavailable("no_display", "No display: DISPLAY is not set");
  }
  let address = env("AT_SPI_BUS_ADDRESS");
  if (!address) {
    const session = env("DBUS_SESSION_BUS_ADDRESS");
    if (!session) {
      throw unavailable("no_session_bus", "No D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set");
    }
    let bus: DBusConnection;
    try {
      bus = await DBusConnection.connect(session, signal ? { signal } : {});
    } catch (err) {
      throw unavailable("no_session_bus", `Cannot connect to the D-Bus session "${session}"`, err);
    }
    try {
      const [addr] = await bus.call({
        destination: "org.a11y.Bus",
        path: "/org/a11y/bus",
        interface: "org.a11y.Bus",
        member: "GetAddress",
      }, { timeoutMs: 3_000, ...(signal ? { signal } : {}) });
      address = String(addr);
    } catch (err) {
      const why = err instanceof DBusError ? err.errorName : String(err);
      throw unavailable(
        "no_accessibility_bus",
        `No accessibility bus: org.a11y.Bus.GetAddress failed (${why})`,
        err,
      );
    } finally {
      bus.close();
    }
  }
  try {
    return await DBusConnection.connect(address, signal ? { signal } : {});
  } catch (err) {
    throw unavailable(
      "no_accessibility_bus",
      `Cannot connect to the accessibility bus "${address}"`,
      err,
    );
  }
}
