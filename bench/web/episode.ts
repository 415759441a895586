/**
 * One MiniWoB++ episode driven through the driver's ops only (read_ui, find, act,
 * run_batch): press the START cover, read the task's instruction from the page, let the
 * policy act, then read the reward the page shows in its `Last reward:` panel.
 *
 * @module
 */
import type { Bounds, Element } from "../../protocol/element.ts";
import type { DriverClient } from "../../rpc/client.ts";
import type { OpName, ParamsOf, ResultOf } from "../../protocol/ops.ts";
import { isDriverError } from "../../protocol/errors.ts";

/** Longest text of one op's params or answer kept in a trace line. */
const TRACE_TEXT = 240;

/** One op as a trace line: when it was sent, how long it took, what went and came back. */
function traceLine(started: number, t: number, op: string, params: unknown, out: unknown): string {
  const answer = out instanceof Error
    ? `!! ${out}`
    : JSON.stringify(out, (k, v) =>
      (k === "elements" || k === "map") && Array.isArray(v) ? `${v.length} elements` : v);
  return `${Math.round(t - started)} +${Math.round(performance.now() - t)}ms ${op} ${
    JSON.stringify(params).slice(0, TRACE_TEXT)
  } -> ${answer.slice(0, TRACE_TEXT)}`;
}

/** A driver client that counts the ops it sends, and traces them when asked to. */
export class CountingClient {
  /** Ops sent so far. */
  ops = 0;
  readonly #started = performance.now();
  /** Wraps `client`; with `trace`, adds one line per op to it. */
  constructor(readonly client: DriverClient, readonly trace?: string[]) {}

  /** Sends one op. */
  async call<N extends OpName>(op: N, params: ParamsOf<N>): Promise<ResultOf<N>> {
    this.ops++;
    const trace = this.trace;
    if (!trace) return await this.client.call(op, params);
    const t = performance.now();
    try {
      const r = await this.client.call(op, params);
      trace.push(traceLine(this.#started, t, op, params, r));
      return r;
    } catch (err) {
      trace.push(traceLine(this.#started, t, op, params, err));
      throw err;
    }
  }
}

/** What a policy sees and uses. */
export interface Task {
  /** The driver, counting ops. */
  driver: CountingClient;
  /** The browser window. */
  window: string;
  /** The task's instruction, as the page shows it. */
  instruction: string;
  /** The task's area on screen (where the START cover was): the page, not the browser. */
  area: Bounds;
  /** The task area's elements as of the read after START, and that read's version. */
  elements: Element[];
  version: number;
}

/** Plays one episode's task. */
export type Policy = (task: Task) => Promise<unknown>;

/** One episode's outcome. */
export interface Episode {
  /** The page's reward (-1 … 1; time-discounted on most tasks). */
  reward: number;
  /** Ops the episode sent, START and the reward read included. */
  ops: number;
  /** Wall time from the START press to the reward read. */
  ms: number;
}

/**
 * Is `b` in the task's column: within `area` across (a point of slack), and not above it?
 * A task's content may run below the area (a long list of check boxes and its Submit);
 * the browser's own controls are above it, the reward panel beside it.
 */
export const inside = (b: Bounds, area: Bounds): boolean =>
  b.x >= area.x - 1 && b.y >= area.y - 1 && b.x + b.w <= area.x + area.w + 1;

/** The number the HUD shows after its label `label` (`Last reward:`, `Episodes done:`). */
function hud(els: Element[], label: string): number | undefined {
  const i = els.findIndex((e) => e.name === label || e.value === label);
  if (i < 0) return undefined;
  // Gecko puts the number in the label's parent's own text; Chromium in a node after it.
  const parent = els.find((e) => e.id === els[i]!.parent);
  for (const e of [...(parent ? [parent] : []), ...els.slice(i + 1, i + 8)]) {
    const text = (e.value ?? e.name).trim();
    if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  }
  return undefined;
}

/**
 * Presses the START cover, planned on `version`; a page that changed in between (the last
 * episode's reward drawn late) answers `stale_version` with its current map, planned on
 * once more.
 */
async function pressCover(driver: CountingClient, window: string, id: string, version: number) {
  try {
    return await driver.call("act", { window, id, action: "press", version });
  } catch (err) {
    if (!isDriverError(err, "stale_version")) throw err;
    const now = (err.data.map as { version: number }).version;
    return await driver.call("act", { window, id, action: "press", version: now });
  }
}

/**
 * Plays one episode with `policy` in `window`, which shows a task's START cover; with
 * `trace`, each op it sends adds a line there.
 */
export async function playEpisode(
  client: DriverClient,
  window: string,
  policy: Policy,
  trace?: string[],
): Promise<Episode> {
  const driver = new CountingClient(client, trace);
  let r = await driver.call("read_ui", { window });
  const cover = r.elements!.find((e) => e.value === "START" || e.name === "START");
  if (!cover) throw new Error("No START cover on the page");
  const done = hud(r.elements!, "Episodes done:") ?? 0;
  const started = performance.now();
  const go = await pressCover(driver, window, cover.id, r.version);
  // The task draws in the area the cover covered; its first text is the instruction. A
  // page may draw it a moment after the press settled (Gecko announces it late): read
  // again until it shows, as an agent would, for up to a second.
  const instruction = async () => {
    r = await driver.call("read_ui", { window });
    const area = r.elements!.filter((e) => inside(e.bounds, cover.bounds) && e.id !== cover.id);
    const query = area.find((e) => (e.value ?? "").trim() !== "" && e.role === "AXGroup");
    return query ? { area, query } : undefined;
  };
  let shown = await instruction();
  for (const until = performance.now() + 1_000; !shown && performance.now() < until;) {
    await new Promise((ok) => setTimeout(ok, 50));
    shown = await instruction();
  }
  if (!shown) throw new Error("No instruction on the page after START");
  const { area, query } = shown;
  await policy({
    driver,
    window,
    instruction: query.value!.trim(),
    area: cover.bounds,
    elements: area,
    version: Math.max(r.version, go.version),
  });
  // The episode counter moves when the episode ends; read until it does (the page ends
  // every episode by 10 s).
  const until = performance.now() + 11_000;
  while (true) {
    const now = await driver.call("read_ui", { window });
    const els = now.elements!;
    const ended = (hud(els, "Episodes done:") ?? done) > done;
    if (ended || performance.now() > until) {
      const reward = ended ? hud(els, "Last reward:") ?? -1 : -1;
      return { reward, ops: driver.ops, ms: performance.now() - started };
    }
    await new Promise((res) => setTimeout(res, 50));
  }
}
