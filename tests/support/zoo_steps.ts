/**
 * Steps of the widget-zoo tests, the same for every toolkit: one zoo app and one driver per
 * test file, started by the first cell that needs them and stopped by the last; cells that
 * read the window, act on an element picked by role and name (planned again on
 * `stale_version`), and wait for the app's own printed line about the effect.
 *
 * @module
 */
import assert from "node:assert/strict";
import type { DriverClient } from "../../rpc/client.ts";
import type { Element } from "../../protocol/element.ts";
import type { ParamsOf } from "../../protocol/ops.ts";
import { type Act, replanned } from "./desktop_steps.ts";
import { type Session, session } from "./client.ts";
import type { ZooApp } from "./zoo.ts";

/** A running zoo: the app, a driver session on it, and its main window. */
export interface Zoo {
  /** The app, with the lines it printed. */
  app: ZooApp;
  /** The driver's client. */
  client: DriverClient;
  /** The app's main window id. */
  window: string;
}

/** Picks an element of a read (`all`: the whole read, for a row named by its label). */
export type Pick = (e: Element, all: readonly Element[]) => boolean;

/** The element named `name` (trimmed), not a label showing the same words, and of `role`. */
export function named(name: string, role?: string | RegExp): Pick {
  return (e) =>
    e.name.trim() === name && e.role !== "AXStaticText" &&
    (role === undefined || (typeof role === "string" ? e.role === role : role.test(e.role)));
}

const ROWS = /^AX(Row|Cell|OutlineRow|RadioButton)$/;

/**
 * The row (or cell, or tab) showing `name`: named so, or with a label that says it as its
 * child or grandchild (GTK 4's rows name nothing of their own, or their widget's type),
 * inside the element named `within`.
 */
export function row(name: string, within?: string): Pick {
  return (e, all) => {
    if (!ROWS.test(e.role)) return false;
    if (within !== undefined && !insideNamed(e, all, within)) return false;
    if (e.name.trim() === name) return true;
    const kids = all.filter((c) => c.parent === e.id);
    const says = (c: Element) => c.role === "AXStaticText" && c.name.trim() === name;
    return kids.some(says) ||
      kids.some((k) => !ROWS.test(k.role) && all.some((c) => c.parent === k.id && says(c)));
  };
}

/** Is `e` a descendant of an element named `name`? */
function insideNamed(e: Element, all: readonly Element[], name: string): boolean {
  const byId = new Map(all.map((x) => [x.id, x]));
  for (let p = e.parent && byId.get(e.parent); p; p = p.parent ? byId.get(p.parent) : undefined) {
    if (p.name.trim() === name) return true;
  }
  return false;
}

/**
 * Registers a test file's zoo cells: `cell` adds one Deno.test sharing the zoo `start`
 * brings up on first use; `done` adds the last test, which stops the app and the driver.
 */
export function zooCells(start: () => Promise<ZooApp>): {
  cell(name: string, fn: (zoo: Zoo) => Promise<void>): void;
  done(name: string): void;
} {
  let running: Promise<{ zoo: Zoo; session: Session }> | undefined;
  const up = () =>
    running ??= (async () => {
      const app = await start();
      const s = await session();
      const window = (await s.client.call("read_ui", { app: app.pid })).window;
      return { zoo: { app, client: s.client, window }, session: s };
    })();
  const stop = async () => {
    if (!running) return;
    const { zoo, session: s } = await running;
    running = undefined;
    await s.close();
    await zoo.app.stop();
  };
  // The app and driver outlive single tests on purpose, so no test may own them.
  const shared = { sanitizeOps: false, sanitizeResources: false };
  return {
    cell(name, fn) {
      Deno.test({ name, ...shared, fn: async () => await fn((await up()).zoo) });
    },
    done(name) {
      Deno.test({ name, ...shared, fn: stop });
    },
  };
}

/** The element of `window`'s current read that `pick` accepts, and the read's version. */
export async function element(
  client: DriverClient,
  window: string,
  pick: Pick,
): Promise<{ element: Element; version: number; elements: Element[] }> {
  const r = await client.call("read_ui", { window });
  const found = r.elements!.find((e) => pick(e, r.elements!));
  assert.ok(
    found,
    `no such element among ${JSON.stringify(r.elements!.map((x) => [x.role, x.name]))}`,
  );
  return { element: found, version: r.version, elements: r.elements! };
}

/** Extra `act` params the driver may take beyond the schema this checkout has. */
export type ActExtra = Record<string, unknown>;

/**
 * Reads `window`, picks an element and runs `action` on it (with `value`, and `extra`
 * params such as `extend`), planned again when the map moved on.
 */
export function act(
  client: DriverClient,
  window: string,
  pick: Pick,
  action: ParamsOf<"act">["action"],
  value?: string,
  extra: ActExtra = {},
): Promise<Act> {
  return replanned(async () => {
    const { element: e, version } = await element(client, window, pick);
    const params = {
      window,
      version,
      id: e.id,
      action,
      ...(value === undefined ? {} : { value }),
      ...extra,
    } as ParamsOf<"act">;
    return await client.call("act", params);
  });
}

/** Where the app's printed lines stand now: the lines after it are the next cell's. */
export function mark(app: ZooApp): number {
  return app.lines.length;
}

/**
 * Waits until the app printed, after `from`, a line `match` accepts (a string: exactly it);
 * a failure quotes `answer`, the driver's answer to the act that was to cause it.
 */
export async function saidSince(
  app: ZooApp,
  from: number,
  match: string | ((line: string) => boolean),
  answer?: unknown,
  timeoutMs = 10_000,
): Promise<string> {
  const test = typeof match === "string" ? (l: string) => l === match : match;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const line = app.lines.slice(from).find(test);
    if (line !== undefined) return line;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(
    `the app never said ${typeof match === "string" ? `"${match}"` : "what was waited for"}; ` +
      `since the cell began it said: ${app.lines.slice(from).join(" | ") || "nothing"}` +
      (answer === undefined ? "" : `; the driver answered ${JSON.stringify(answer)}`),
  );
}

/**
 * The app printed nothing `match` accepts after `from`: an effect that must not happen (a
 * select that activated, a value typed twice) did not. Called once the act answered
 * settled and the wanted line came: the app prints in the handlers the action ran.
 */
export function notSaid(app: ZooApp, from: number, match: (line: string) => boolean): void {
  const line = app.lines.slice(from).find(match);
  assert.equal(line, undefined, `the app said "${line}"`);
}

/** The last line after `from` that starts with `key` + ": ", or undefined. */
export function lastSaid(app: ZooApp, from: number, key: string): string | undefined {
  return app.lines.slice(from).findLast((l) => l.startsWith(`${key}: `));
}

/** Polls `check` until it answers true, for at most `ms`; false when it never did. */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await check();
}
