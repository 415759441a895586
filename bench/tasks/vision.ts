/**
 * Tasks on apps read by vision: plain X apps with no accessibility tree, whose keys the
 * driver names by OCR. Judged by a reading of the app's own pixels that shares nothing with
 * the driver: GDK grabs the window in a Python process and the Tesseract program reads it.
 *
 * @module
 */
import { waitForWindow } from "../../tests/support/apps.ts";
import { expect, type Running, type Task } from "./task.ts";

/**
 * Starts xcalc and waits for its window. It never joins the accessibility bus, so
 * launch()'s wait for the bus would never end.
 */
async function xcalc(): Promise<Running> {
  const child = new Deno.Command("xcalc", { stdin: "null", stdout: "null", stderr: "null" })
    .spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      return; // gone
    }
    await child.status;
  };
  try {
    await waitForWindow("^Calculator$");
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: child.pid, output: () => Promise.resolve(""), stop };
}

/** Grabs an X window's top `part` (a fraction of its height) as a PNG, scaled `scale` times. */
const GRAB = `
import sys, gi
gi.require_version("Gdk", "3.0")
gi.require_version("GdkX11", "3.0")
from gi.repository import Gdk, GdkPixbuf, GdkX11
xid, part, scale, out = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
window = GdkX11.X11Window.foreign_new_for_display(GdkX11.X11Display.get_default(), xid)
w, h = window.get_width(), int(window.get_height() * part)
shot = Gdk.pixbuf_get_from_window(window, 0, 0, w, h)
shot.scale_simple(w * scale, h * scale, GdkPixbuf.InterpType.BILINEAR).savev(out, "png", [], [])
`;

/** Runs `cmd` and answers its stdout; throws with its stderr when it fails. */
async function output(cmd: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`${cmd}: ${text.decode(out.stderr).trim()}`);
  return text.decode(out.stdout);
}

/**
 * The number xcalc's display shows, read from its pixels by the Tesseract program: the top
 * of its window (the display, above the keypad) grabbed by GDK, scaled up for the OCR.
 */
async function xcalcDisplay(dir: string): Promise<string> {
  const xid = (await output("xdotool", ["search", "--classname", "^xcalc$"])).trim().split("\n")[0];
  expect(xid, "no xcalc window");
  const png = `${dir}/display.png`;
  await output("/usr/bin/python3", ["-c", GRAB, xid, "0.13", "4", png]);
  const read = await output("tesseract", [png, "stdout", "--psm", "6"]);
  // The display's first line is the number; the second says DEG and DEC.
  return read.trim().split("\n")[0]?.trim() ?? "";
}

/** xcalc's keys to press, in order, and what its display must then show. */
const KEYS = ["1", "2", "*", "7", "+", "5", "="];

/** Compute 12 × 7 + 5 on xcalc's keypad, its keys found by the words OCR reads on them. */
const compute: Task = {
  id: "xcalc-compute",
  title: "xcalc (no accessibility tree): compute 12 * 7 + 5 by its keys' OCR'd labels",
  family: "vision",
  prepare: (dir) => Promise.resolve({ dir, values: { result: "89" } }),
  launch: () => xcalc(),
  async ours(agent, app, { values }) {
    const window = await agent.window(app.pid, /^Calculator$/);
    // The keypad is read from pixels: wait until the last key is named.
    await agent.find(window, { role: "AXButton", name: "=" });
    const map = await agent.call("read_ui", { window });
    const steps = KEYS.map((name) => {
      const key = map.elements?.find((e) => e.role === "AXButton" && e.name === name);
      expect(key, `no key "${name}" read on xcalc`);
      return { id: key.id, action: "press" as const };
    });
    const done = await agent.call("run_batch", { window, version: map.version, steps });
    expect(done.ok, `the keys: ${JSON.stringify(done.results)}`);
    await agent.find(window, { role: "AXStaticText", name: values.result! });
  },
  async check({ dir, values }) {
    const shown = await xcalcDisplay(dir);
    return shown === values.result ? undefined : `xcalc shows ${JSON.stringify(shown)}`;
  },
};

/** The tasks of this family. */
export const VISION_TASKS: readonly Task[] = [compute];
