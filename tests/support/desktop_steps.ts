/**
 * Steps the desktop tests take as an agent would (issue 43): read a window and act on an
 * element found by name, open a menu and press its item, take the dialog an action opened,
 * and check by pyatspi, in its own process, that the app still answers.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../../rpc/client.ts";
import type { ResultOf } from "../../protocol/ops.ts";
import { DriverError } from "../../protocol/errors.ts";
import { oracleNodes } from "./oracle.ts";

/** An `act` answer. */
export type Act = ResultOf<"act">;

/**
 * Runs `plan` (read, then act on what was read) again when the act is refused as stale:
 * a window still settling (a dialog loading, a window manager placing it) moves its map
 * on, and an agent plans again on the map the refusal names.
 */
export async function replanned<T>(plan: () => Promise<T>): Promise<T> {
  for (let tries = 0;; tries++) {
    try {
      return await plan();
    } catch (err) {
      if (!(err instanceof DriverError && err.code === "stale_version") || tries >= 3) throw err;
    }
  }
}

/** Reads `window` and acts on the first element `pick` accepts. */
export function actOn(
  client: DriverClient,
  window: string,
  pick: (e: { role: string; name: string }) => boolean,
  action: "press" | "set_value" | "type_text",
  value?: string,
): Promise<Act> {
  return replanned(async () => {
    const r = await client.call("read_ui", { window });
    const e = r.elements!.find(pick);
    assert.ok(e, `no such element in ${JSON.stringify(r.elements!.map((x) => [x.role, x.name]))}`);
    return await client.call("act", {
      window,
      version: r.version,
      id: e.id,
      action,
      ...(value === undefined ? {} : { value }),
    });
  });
}

/**
 * Opens menu `menu` of `window` and presses its item `item`, found as an agent would: the
 * menu by name in the map, then the item by name among the app's whole tree.
 */
export async function pressMenuItem(
  client: DriverClient,
  window: string,
  menu: string,
  item: string,
): Promise<Act> {
  await actOn(client, window, (e) => e.name.trim() === menu, "press");
  return await replanned(async () => {
    const found = await client.call("find", {
      window,
      query: { role: "AXMenuItem", name_contains: item },
      scope: "all",
    });
    const target = found.elements[0];
    assert.ok(target, `no menu item "${item}"`);
    return await client.call("act", {
      window,
      version: found.version,
      id: target.id,
      action: "press",
    });
  });
}

/** The one window `act` answered in `opened`, checked to be a modal dialog titled `title`. */
export function openedDialog(acted: Act, title: RegExp): string {
  assert.equal(acted.ok, true, JSON.stringify(acted));
  assert.equal(acted.opened?.length, 1, `opened: ${JSON.stringify(acted.opened)}`);
  const [dialog] = acted.opened!;
  assert.match(dialog!.title, title);
  assert.equal(dialog!.modal, true);
  return dialog!.window;
}

/** pyatspi, in its own process, lists the app's windows within 5 s: its bridge is not stuck. */
export async function answersPyatspi(pid: number, window: RegExp): Promise<void> {
  const started = Date.now();
  const windows = await oracleNodes(pid, 20, 0);
  assert.ok(Date.now() - started < 5_000, `pyatspi waited ${Date.now() - started} ms`);
  assert.ok(windows.some((w) => window.test(w.name)), JSON.stringify(windows));
}
