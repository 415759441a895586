import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { AtspiAccessible, atspiErrorCode, COORD, loadAtspi } from "./linux_atspi.ts";
import { desktopTests } from "../../tests/support/desktop.ts";

// libatspi needs the accessibility bus: the desktop tests run inside the headless session.
const desktop = desktopTests();

Deno.test("loadAtspi() loads libatspi once, GLib symbols through its handle", () => {
  const lib = loadAtspi();
  assert.equal(loadAtspi(), lib);
  for (const name of ["atspi_init", "atspi_component_get_extents", "g_free", "g_object_unref"]) {
    assert.equal(typeof lib[name as keyof typeof lib], "function", name);
  }
});

Deno.test("atspiErrorCode() reads libatspi's D-Bus messages", () => {
  assert.equal(atspiErrorCode("Did not receive a reply. Possible causes include: ..."), "timeout");
  assert.equal(
    atspiErrorCode("The name :1.42 was not provided by any .service files"),
    "app_not_running",
  );
  assert.equal(
    atspiErrorCode('Method "GetRole" with signature "" on interface "x" doesn\'t exist'),
    "element_not_found",
  );
});

Deno.test({
  name: "AtspiAccessible.desktop() answers the registry's desktop frame",
  ...desktop,
  fn() {
    const desktop = AtspiAccessible.desktop();
    try {
      assert.equal(desktop.role(), 14); // ATSPI_ROLE_DESKTOP_FRAME
      assert.equal(desktop.name(), "main");
      assert.ok(desktop.childCount() >= 0);
      assert.equal(desktop.childAt(9999), null);
      const box = desktop.extents(COORD.SCREEN);
      assert.ok(box && box.w > 0 && box.h > 0);
      assert.equal(desktop.text(), undefined);
      assert.ok(desktop.processId() > 0);
    } finally {
      desktop.close();
    }
  },
});

Deno.test({
  name: "AtspiAccessible.close() is idempotent and later calls throw",
  ...desktop,
  fn() {
    const desktop = AtspiAccessible.desktop();
    desktop.close();
    desktop.close();
    assert.throws(() => desktop.role(), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "internal");
      return true;
    });
  },
});
