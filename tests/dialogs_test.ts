/**
 * New windows an agent must see (issue 18): a dialog an app opens is what `read_ui` by app
 * answers, `list_apps` says which window is a modal dialog, and an action that brought a
 * window up says so. Each effect is checked by pyatspi in its own process.
 */
import assert from "node:assert/strict";
import { centre, session } from "./support/client.ts";
import { chromium, mousepad, requireDesktop, xdotoolClick } from "./support/apps.ts";
import { oracleNodes } from "./support/oracle.ts";

requireDesktop();

Deno.test("read_ui by app answers the dialog the app opened; list_apps says it is modal", async () => {
  const pad = await mousepad();
  const s = await session();
  try {
    const main = await s.client.call("read_ui", { app: "mousepad" });
    const area = main.elements!.find((e) => e.role === "AXTextArea")!;
    const { x, y } = centre(area);
    await xdotoolClick(x, y);
    await s.client.call("pixel_key", { keys: "ctrl+o" });
    // The dialog is on the bus (read independently) before the driver is asked about it.
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      const nodes = await oracleNodes(pad.pid, 50, 0);
      if (nodes.some((n) => n.role === "file chooser" && n.name === "Open File")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const read = await s.client.call("read_ui", { app: "mousepad" });
    assert.notEqual(read.window, main.window, "not the main window it read before");
    assert.equal(read.elements![0]!.name, "Open File");
    assert.ok(read.elements!.length > 10, `${read.elements!.length} elements of the dialog`);
    const apps = await s.client.call("list_apps");
    const windows = apps.apps.find((a) => a.pid === pad.pid)!.windows;
    const dialog = windows.find((w) => w.window === read.window)!;
    assert.equal(dialog.role, "dialog");
    assert.equal(dialog.modal, true);
    assert.equal(dialog.parent, main.window, "the dialog belongs to mousepad's main window");
    assert.equal(windows.find((w) => w.window === main.window)?.role, "window");
    // X itself says whose the dialog is: WM_TRANSIENT_FOR names the main window.
    const xdotool = (args: string[]) =>
      new Deno.Command("xdotool", { args, stdout: "piped" }).output()
        .then((o) => new TextDecoder().decode(o.stdout).trim());
    const [mainX] = (await xdotool(["search", "--onlyvisible", "--name", "Mousepad$"])).split("\n");
    const [dialogX] = (await xdotool(["search", "--onlyvisible", "--name", "^Open File$"])).split(
      "\n",
    );
    const prop = await new Deno.Command("xprop", {
      args: ["-id", dialogX!, "WM_TRANSIENT_FOR"],
      stdout: "piped",
    }).output();
    const owner = /window id # (0x[0-9a-f]+)/.exec(new TextDecoder().decode(prop.stdout))?.[1];
    assert.equal(Number(owner), Number(mainX), "xprop agrees");
  } finally {
    await s.close();
    await pad.stop();
  }
});

Deno.test("an act whose press opened a window answers it in opened", async () => {
  const page = await Deno.makeTempFile({ suffix: ".html" });
  await Deno.writeTextFile(
    page,
    `<!doctype html><title>Opener page</title>
     <button onclick="window.open('about:blank', 'pop', 'width=300,height=200')">Open popup</button>
     <p>ready</p>`,
  );
  const app = await chromium(page, "Opener page", "ready");
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: "chromium" });
    const button = r.elements!.find((e) => e.role === "AXButton" && e.name === "Open popup")!;
    const acted = await s.client.call("act", {
      window: r.window,
      version: r.version,
      id: button.id,
      action: "press",
    });
    assert.equal(acted.opened?.length, 1, JSON.stringify(acted.opened));
    assert.match(acted.opened![0]!.title, /about:blank/);
    // pyatspi sees the same new window in Chromium's app.
    const frames = (await oracleNodes(app.pid, 50, 0)).filter((n) => n.role === "frame");
    assert.ok(frames.some((f) => /about:blank/.test(f.name)), JSON.stringify(frames));
    // An action that opens nothing says nothing of windows.
    const again = await s.client.call("read_ui", { window: r.window });
    const heading = again.elements!.find((e) => e.name === "ready") ?? again.elements![1]!;
    const none = await s.client.call("act", {
      window: r.window,
      version: again.version,
      id: heading.id,
      action: "focus",
    }).catch((e) => e);
    assert.equal(none.opened, undefined);
  } finally {
    await s.close();
    await app.stop();
    await Deno.remove(page);
  }
});
