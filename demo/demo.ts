// deno-lint-ignore-file no-console -- the demo talks to a person.
/**
 * The demo: the driver against real apps on the headless desktop. Run inside
 * `install/linux/desktop-session.sh` (the `demo` task does): starts gnome-calculator and
 * mousepad, serves the driver, and shows a read, a batch by element id, typing read
 * back and a screenshot.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { calculator, mousepad } from "../tests/support/apps.ts";
import { startDriver } from "../tests/support/driver_process.ts";
import type { Element } from "../protocol/element.ts";
import { loadTrace } from "../trace/viewer/load.ts";
import { inlineImages, viewerHtml } from "../trace/viewer/html.ts";

const out = Deno.args[0] ?? "demo-out";
// The session is traced (docs/traces.md): every op, and the window before and after each
// action, viewed afterwards in demo-out/trace.html.
await Deno.mkdir(out, { recursive: true });
const traceDir = `${await Deno.realPath(out)}/trace`;
await Deno.remove(traceDir, { recursive: true }).catch(() => {});
const bold = (s: string) => `\x1b[1m${s}\x1b[0m`;
const line = (e: Element) =>
  `  ${e.id}  ${e.role.padEnd(13)} ${JSON.stringify(e.name).padEnd(12)} ` +
  `${e.value !== undefined ? `value=${JSON.stringify(e.value)} ` : ""}` +
  `@${e.bounds.x},${e.bounds.y} ${e.bounds.w}x${e.bounds.h}`;
const label = (els: readonly Element[], l: string) =>
  els.find((e) => e.role === "AXButton" && (e.name === l || e.name.split(" ")[0] === l))!;

console.log(bold("Starting gnome-calculator and mousepad on the headless desktop…"));
const calc = await calculator();
const pad = await mousepad();
const driver = await startDriver(["serve", "--trace", traceDir], {
  dataDir: await Deno.makeTempDir(),
});
const client = await DriverClient.connect({ socket: driver.ready.socket! });
try {
  const hello = await client.call("hello");
  console.log(
    bold(`\n1. hello`) + `: ${hello.name} ${hello.version} on ${hello.os}, engines: ` +
      hello.engines.map((e) => `${e.name} (${e.available ? "available" : e.reason})`).join(", "),
  );

  const ui = await client.call("read_ui", { app: "gnome-calculator" });
  const els = ui.elements!;
  console.log(
    bold(`\n2. read_ui gnome-calculator`) +
      `: ${els.length} elements, version ${ui.version}, ${ui.ms} ms (live: ${ui.live.state})`,
  );
  for (const d of ["7", "8", "+", "="]) console.log(line(label(els, d)));
  const again = await client.call("read_ui", { window: ui.window, since: ui.version });
  console.log(
    `  re-read with since=${ui.version}: ${again.ms} ms, cached=${again.cached}, ` +
      `changed=${again.changed?.length ?? 0}`,
  );

  const steps = ["7", "+", "8", "="].map((d) => ({
    id: label(els, d).id,
    action: "press" as const,
  }));
  const batch = await client.call("run_batch", { window: ui.window, version: ui.version, steps });
  console.log(
    bold(`\n3. run_batch 7 + 8 = by element id`) + ` (planned on version ${ui.version}):`,
  );
  batch.results.forEach((r, i) =>
    console.log(`  step ${i + 1}: ok=${r.ok} via=${r.via} settled=${r.settled} in ${r.ms} ms`)
  );
  const display = [...batch.changed, ...batch.added].find((e) => e.role === "AXTextArea");
  console.log(
    `  display now reads ${bold(JSON.stringify(display?.value))} ` +
      `(version ${batch.version}, ${batch.changed.length} changed, ${batch.added.length} added)`,
  );

  const stale = await client.call("act", {
    window: ui.window,
    version: ui.version,
    id: steps[0]!.id,
    action: "press",
  }).catch((e) => e);
  console.log(
    `  acting on version ${ui.version} again: ${stale.code} (carries map version ` +
      `${stale.data?.map?.version})`,
  );

  const doc = await client.call("read_ui", { app: "mousepad" });
  const area = doc.elements!.find((e) =>
    e.role === "AXTextArea" && e.actions.includes("type_text")
  )!;
  const typed = await client.call("act", {
    window: doc.window,
    version: doc.version,
    id: area.id,
    action: "type_text",
    value: "Typed by the Allternit Driver ✓",
  });
  const back = typed.changed.find((e) => e.id === area.id)?.value;
  console.log(
    bold(`\n4. type_text into mousepad`) + `: effect=${typed.effect}, ` +
      `settled=${typed.settled}; read back ${JSON.stringify(back)}`,
  );

  const shot = await client.call("screenshot", {});
  const file = `${out}/screen.png`;
  await Deno.writeFile(file, Uint8Array.from(atob(shot.png), (c) => c.charCodeAt(0)));
  console.log(bold(`\n5. screenshot`) + `: ${shot.width}x${shot.height} written to ${file}`);
} finally {
  await client.close();
  const code = await driver.stop();
  await Promise.all([calc.stop(), pad.stop()]);
  console.log(`\nStopped the driver (exit ${code}) and the apps.`);
}
const trace = await loadTrace(traceDir);
const html = `${out}/trace.html`;
await Deno.writeTextFile(html, viewerHtml(trace, await inlineImages(trace)));
console.log(
  bold(`\n6. trace`) + `: ${trace.ops.length} ops recorded in ${traceDir}; open ${html} ` +
    "in a browser to step through them with their screenshots and diffs",
);
