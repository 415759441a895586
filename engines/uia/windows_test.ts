import assert from "node:assert/strict";
import { appIdOf, appNameOf, hwndOf, windowIdOf } from "./naming.ts";
import { groupApps } from "./windows.ts";

Deno.test("window ids carry the HWND and come back from it", () => {
  assert.equal(windowIdOf(0x1a0b2cn), "w1a0b2c");
  assert.equal(hwndOf("w1a0b2c"), 0x1a0b2cn);
  assert.equal(hwndOf("wffffffffffffffff"), 0xffffffffffffffffn);
  assert.equal(hwndOf("w7c4a9e1f"), 0x7c4a9e1fn);
  for (const bad of ["", "w", "x12", "w12g", "w00000000000000000"]) {
    assert.equal(hwndOf(bad), undefined);
  }
  assert.equal(appIdOf(4242), "p4242");
});

Deno.test("appNameOf() is the executable's base name without .exe", () => {
  assert.equal(appNameOf("C:\\Windows\\System32\\notepad.exe"), "notepad");
  assert.equal(
    appNameOf(
      "C:\\Program Files\\WindowsApps\\Microsoft.WindowsCalculator_11.2311.0.0_x64__8wekyb3d8bbwe\\CalculatorApp.EXE",
    ),
    "CalculatorApp",
  );
  assert.equal(appNameOf("plain"), "plain");
});

Deno.test("groupApps() lists each process once, windows in z-order, focus from the foreground", () => {
  const w = (hwnd: bigint, pid: number, app: string, title: string) => ({
    hwnd,
    pid,
    app,
    title,
    bounds: { x: 0, y: 0, w: 10, h: 10 },
  });
  const apps = groupApps([
    w(0x10n, 1, "notepad", "a.txt - Notepad"),
    w(0x20n, 2, "CalculatorApp", "Calculator"),
    w(0x30n, 1, "notepad", "b.txt - Notepad"),
  ], 0x30n);
  assert.deepEqual(apps.map((a) => [a.app, a.name, a.windows.map((x) => x.window)]), [
    ["p1", "notepad", ["w10", "w30"]],
    ["p2", "CalculatorApp", ["w20"]],
  ]);
  assert.deepEqual(apps[0]!.windows.map((x) => x.focused), [false, true]);
});
