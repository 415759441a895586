/**
 * Where the desktop tests may run: on Linux inside the headless session that the test task
 * starts (`install/linux/desktop-session.sh`). They are ignored only on another OS; on Linux
 * outside the session they fail with a clear message instead of being skipped.
 *
 * @module
 */

/** Fails with a clear message when the tests run outside the headless session. */
export function requireDesktop(): void {
  if (!Deno.env.get("DISPLAY") || !Deno.env.get("DBUS_SESSION_BUS_ADDRESS")) {
    throw new Error(
      "Integration tests need the headless desktop: run them with `deno task test`",
    );
  }
}

/**
 * Options for tests of the Linux desktop: `ignore` on other OSes only. On Linux it first
 * checks that the session is there (see {@link requireDesktop}).
 */
export function desktopTests(): { ignore: boolean } {
  if (Deno.build.os !== "linux") return { ignore: true };
  requireDesktop();
  return { ignore: false };
}
