/**
 * What a task's policy may do: the driver's ops, over JSON-RPC, as an agent calls them.
 * Elements are found by what the map says (role, name, text), never by coordinates; a
 * wait is a `find` asked again until the element is there (as Playwright's locators wait),
 * the same for every app. Every op call is counted.
 *
 * @module
 */
import type { DriverClient } from "../../rpc/client.ts";
import type { OpName, ParamsOf, ResultOf } from "../../protocol/ops.ts";
import type { Element } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";

/** A `find` query. */
export type Query = ParamsOf<"find">["query"];
/** An `act` answer. */
export type Acted = ResultOf<"act">;
/** What an element action takes besides its target. */
type ActionName = ParamsOf<"act">["action"];

/** How long a policy waits for an element or a window to appear. */
const APPEAR_MS = 15_000;
/** Between two looks for something not there yet. */
const POLL_MS = 100;

/** Each call and its answer are printed (a policy's failure is read from them). */
const TRACE = Deno.env.get("TASKS_TRACE") === "1";
/** One trace line to stderr. */
const trace = (line: string) => Deno.stderr.writeSync(new TextEncoder().encode(`${line}\n`));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The driver's ops, counted, with the few steps every policy repeats. */
export class Agent {
  /** Op calls made. */
  calls = 0;
  readonly #client: DriverClient;

  constructor(client: DriverClient) {
    this.#client = client;
  }

  /** One op call, counted; with `TASKS_TRACE=1` each call and answer go to stderr. */
  async call<N extends OpName>(op: N, params: ParamsOf<N>): Promise<ResultOf<N>> {
    this.calls++;
    if (!TRACE) return await this.#client.call(op, params);
    const line = (what: unknown) => JSON.stringify(what).slice(0, 2_000);
    trace(`> ${op} ${line(params)}`);
    try {
      const out = await this.#client.call(op, params);
      trace(`< ${line(out)}`);
      return out;
    } catch (err) {
      trace(`! ${err instanceof Error ? err.message : err}`);
      throw err;
    }
  }

  /** The window of app `pid` whose title matches `title`, once `list_apps` shows it. */
  async window(pid: number, title: RegExp, ms = APPEAR_MS): Promise<string> {
    const deadline = Date.now() + ms;
    while (true) {
      const { apps } = await this.call("list_apps", {});
      const w = apps.find((a) => a.pid === pid)?.windows.find((w) => title.test(w.title));
      if (w) return w.window;
      if (Date.now() > deadline) {
        const seen = apps.find((a) => a.pid === pid)?.windows.map((w) => w.title) ?? [];
        throw new Error(`no window ${title} of pid ${pid} (it has ${JSON.stringify(seen)})`);
      }
      await sleep(POLL_MS);
    }
  }

  /** Is a window of `pid` titled `title` gone (or never there)? */
  async gone(pid: number, title: RegExp): Promise<boolean> {
    const { apps } = await this.call("list_apps", {});
    return !apps.find((a) => a.pid === pid)?.windows.some((w) => title.test(w.title));
  }

  /** The first element of `window` matching `query`, once the window shows one. */
  async find(
    window: string,
    query: Query,
    { scope, ms = APPEAR_MS }: { scope?: "map" | "all"; ms?: number } = {},
  ): Promise<{ el: Element; version: number }> {
    const deadline = Date.now() + ms;
    while (true) {
      const found = await this.call("find", { window, query, ...(scope ? { scope } : {}) });
      const el = found.elements[0];
      if (el) return { el, version: found.version };
      if (Date.now() > deadline) throw new Error(`no ${JSON.stringify(query)} in ${window}`);
      await sleep(POLL_MS);
    }
  }

  /**
   * Finds the element and acts on it, guarded by the element alone (the window may change
   * around it). An answer of `ok: false` is a failure of the step.
   */
  async act(
    window: string,
    query: Query,
    action: ActionName,
    more: { value?: string; commit?: "enter"; extend?: boolean; scope?: "map" | "all" } = {},
  ): Promise<Acted> {
    const { scope, ...rest } = more;
    for (let tries = 0;; tries++) {
      const { el, version } = await this.find(window, query, scope ? { scope } : {});
      try {
        const out = await this.call("act", {
          window,
          version,
          id: el.id,
          action,
          guard: "element",
          ...rest,
        });
        if (!out.ok) {
          throw new Error(`${action} on ${JSON.stringify(query)}: ${JSON.stringify(out)}`);
        }
        return out;
      } catch (err) {
        // The element itself changed between the find and the act: an agent reads again.
        if (!(err instanceof DriverError && err.code === "stale_version") || tries >= 2) throw err;
      }
    }
  }

  /** Presses the element named `name` (of `role`, when given). */
  press(window: string, name: string, role?: string): Promise<Acted> {
    return this.act(window, { name, ...(role ? { role } : {}) }, "press");
  }

  /** Sets the text of the field `query` finds. */
  set(window: string, query: Query, value: string, commit?: "enter"): Promise<Acted> {
    return this.act(window, query, "set_value", { value, ...(commit ? { commit } : {}) });
  }

  /**
   * Opens menu `menu` of `window` (an entry of its menu bar) and presses `items` in turn (a submenu's item after its
   * submenu), each found by name among the app's whole tree for the window.
   */
  async menu(window: string, menu: string, ...items: string[]): Promise<Acted> {
    // GTK and LibreOffice call a menu bar's entries menus, Qt calls them menu items.
    const { el } = await this.find(window, { name: menu });
    const top = el.role === "AXMenuItem" ? "AXMenuItem" : "AXMenu";
    let out = await this.act(window, { name: menu, role: top }, "press");
    for (const item of items) {
      out = await this.act(window, { name: item, role: "AXMenuItem" }, "press", { scope: "all" });
    }
    return out;
  }

  /** Sends a key chord to `window` (and nowhere else). */
  async key(window: string, keys: string): Promise<void> {
    await this.call("pixel_key", { keys, window });
  }

  /** Waits until a window of `pid` titled `title` is gone. */
  async waitGone(pid: number, title: RegExp, ms = APPEAR_MS): Promise<void> {
    const deadline = Date.now() + ms;
    while (!await this.gone(pid, title)) {
      if (Date.now() > deadline) throw new Error(`window ${title} of pid ${pid} stayed`);
      await sleep(POLL_MS);
    }
  }
}
