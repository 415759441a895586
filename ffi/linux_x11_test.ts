import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import {
  checkStatus,
  checkX,
  cString,
  loadX11,
  loadXtst,
  releaseErrorTrap,
  retainErrorTrap,
  type X11,
  XProtocolError,
} from "./linux_x11.ts";
import { desktopTests } from "../tests/support/desktop.ts";

const desktop = desktopTests();

Deno.test("loadX11() and loadXtst() load the system libraries once", () => {
  assert.equal(loadX11(), loadX11());
  assert.equal(typeof loadX11().XOpenDisplay, "function");
  assert.equal(typeof loadXtst().XTestFakeKeyEvent, "function");
  // Exported on libX11 1.8, so the XImage function-pointer fallback is not needed here.
  assert.equal(typeof loadX11().XDestroyImage, "function");
});

Deno.test("checkStatus() throws internal on a false status or NULL", () => {
  checkStatus(1, "do it");
  for (const bad of [0, false, null]) {
    assert.throws(() => checkStatus(bad, "do it"), (err: unknown) => {
      assert.ok(err instanceof DriverError);
      assert.equal(err.code, "internal");
      assert.match(err.message, /^Cannot do it: /);
      return true;
    });
  }
});

function withRawDisplay(fn: (x11: X11, dpy: Deno.PointerObject) => void): void {
  const x11 = loadX11();
  const dpy = x11.XOpenDisplay(cString(Deno.env.get("DISPLAY")!));
  assert.ok(dpy);
  retainErrorTrap(x11);
  try {
    fn(x11, dpy);
  } finally {
    releaseErrorTrap(x11, dpy);
    x11.XCloseDisplay(dpy);
  }
}

Deno.test({
  name: "checkX() turns BadDrawable into window_not_found and the process survives",
  ...desktop,
  fn: () =>
    withRawDisplay((x11, dpy) => {
      const out = new Uint32Array(8);
      const ok = x11.XGetGeometry(
        dpy,
        0x7ffff01n,
        out.subarray(0, 2),
        out.subarray(2, 3),
        out.subarray(3, 4),
        out.subarray(4, 5),
        out.subarray(5, 6),
        out.subarray(6, 7),
        out.subarray(7, 8),
      );
      assert.equal(ok, 0);
      assert.throws(() => checkX(x11, dpy, "read the geometry"), (err: unknown) => {
        assert.ok(err instanceof DriverError);
        assert.equal(err.code, "window_not_found");
        assert.match(err.message, /^Cannot read the geometry: Bad/);
        assert.ok(err.cause instanceof XProtocolError);
        assert.equal(err.cause.errorCode, 9); // BadDrawable
        assert.equal(err.cause.requestCode, 14); // X_GetGeometry
        assert.equal(err.cause.resourceId, 0x7ffff01);
        return true;
      });
      checkX(x11, dpy, "sync again"); // the error was consumed
    }),
});

Deno.test({
  name: "checkX() turns BadMatch from XGetImage into internal with the X error as cause",
  ...desktop,
  fn: () =>
    withRawDisplay((x11, dpy) => {
      const root = x11.XDefaultRootWindow(dpy);
      // Outside the root window: the server answers BadMatch.
      const image = x11.XGetImage(dpy, root, 5000, 5000, 10, 10, 0xffff_ffffn, 2);
      assert.equal(image, null);
      assert.throws(() => checkX(x11, dpy, "capture"), (err: unknown) => {
        assert.ok(err instanceof DriverError);
        assert.equal(err.code, "internal");
        assert.equal(err.data.reason, "x_error");
        assert.ok(err.cause instanceof XProtocolError);
        assert.equal(err.cause.errorCode, 8); // BadMatch
        assert.equal(err.cause.requestCode, 73); // X_GetImage
        return true;
      });
    }),
});
