/**
 * A window as the tests check it from outside the driver: where X (xwininfo) says a client
 * window is, and which id the driver's `list_apps` gives a process's window.
 */
import type { DriverClient } from "../../rpc/client.ts";

/** Client window `xid`'s inside on screen and whether X shows it, by xwininfo. */
export async function xwininfo(
  xid: string,
): Promise<{ x: number; y: number; w: number; h: number; viewable: boolean }> {
  const out = await new Deno.Command("xwininfo", {
    args: ["-id", xid],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`xwininfo -id ${xid}: ${text.decode(out.stderr)}`);
  const info = text.decode(out.stdout);
  const num = (label: string) => Number(info.match(new RegExp(`${label}:\\s+(-?\\d+)`))![1]);
  return {
    x: num("Absolute upper-left X"),
    y: num("Absolute upper-left Y"),
    w: num("Width"),
    h: num("Height"),
    viewable: /Map State: IsViewable/.test(info),
  };
}

/** The driver's window id for `pid`'s window titled like `title`, once `list_apps` has it. */
export async function driverWindowOf(
  client: DriverClient,
  pid: number,
  title: RegExp,
): Promise<string> {
  const deadline = performance.now() + 20_000;
  while (performance.now() < deadline) {
    const { apps } = await client.call("list_apps", {});
    const w = apps.find((a) => a.pid === pid)?.windows.find((w) => title.test(w.title));
    if (w) return w.window;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`list_apps shows no window ${title} of pid ${pid}`);
}
