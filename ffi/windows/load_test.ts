import assert from "node:assert/strict";
import { isDriverError } from "../../protocol/errors.ts";
import { assertWindows, loadWindows } from "./load.ts";

Deno.test("loadWindows() refuses off Windows with driver_unavailable / wrong_os", () => {
  for (const os of ["linux", "darwin"] as const) {
    assert.throws(() => loadWindows(os), (err: unknown) => {
      assert.ok(isDriverError(err, "driver_unavailable"));
      assert.equal(err.data.reason, "wrong_os");
      assert.equal(err.message, `The UIA engine runs only on Windows: this is "${os}"`);
      return true;
    });
  }
  assertWindows("windows");
});

const TABLES = ["ole32.ts", "oleaut32.ts", "user32.ts", "gdi32.ts", "kernel32.ts", "dwmapi.ts"];

Deno.test("every symbol table entry carries its C prototype in a comment", async () => {
  for (const file of TABLES) {
    const src = await Deno.readTextFile(new URL(file, import.meta.url));
    const mod = await import(`./${file}`) as Record<string, unknown>;
    const table = Object.entries(mod).find(([k]) => k.endsWith("_SYMBOLS"))?.[1] as
      | Record<string, Deno.ForeignFunction>
      | undefined;
    assert.ok(table, `${file} exports a *_SYMBOLS table`);
    for (const [name, def] of Object.entries(table)) {
      const at = src.indexOf(`  ${name}: {`);
      assert.ok(at > 0, `${file}: ${name}`);
      const before = src.slice(0, at).split("\n").filter((l) => l.trim().startsWith("//"));
      const comment = before.slice(-3).join(" ");
      assert.match(comment, new RegExp(`\\b${name}\\(`), `${file}: ${name} has a prototype`);
      const params = comment.slice(comment.indexOf(`${name}(`)).match(/\((.*?)\)/)?.[1] ?? "";
      const count = params.trim() === "" || params.trim() === "void" ? 0 : params.split(",").length;
      assert.equal(def.parameters.length, count, `${file}: ${name} parameter count`);
    }
  }
});
