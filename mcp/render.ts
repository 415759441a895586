/**
 * Turns op results into the short texts MCP tools answer: a `key=value` header line,
 * then outline lines. Pure functions of the results, so they are tested without a driver.
 * Whatever an app supplied (names, values, titles) comes between the fence lines of
 * untrusted.ts; a read's lines are fenced per page, by paging.ts.
 *
 * @module
 */
import type { ResultOf } from "../protocol/ops.ts";
import {
  clip,
  diffOutline,
  elementLine,
  header,
  type Outline,
  outline,
  styleFor,
} from "./outline.ts";
import { fenced } from "./untrusted.ts";

/** Outline lines `read_ui` answers when the caller gives no `max_elements`. */
export const DEFAULT_BUDGET = 500;
/** Diff lines an action's answer shows at most; `read_ui` with `since` shows the rest. */
export const DIFF_BUDGET = 200;

/** `head`, then `lines` fenced (unless `fence` is false), then what the budget left out. */
function withOmitted(head: string, o: Outline, hint: string, fence = true, lines = o.lines) {
  const tail = o.omitted > 0 ? [`… ${o.omitted} more not shown: ${hint}`] : [];
  return [head, ...(fence ? fenced(lines) : lines), ...tail].join("\n");
}

/** What an element holds, quoted and escaped, as a line of app text. */
const holds = (value: string) => `holds ${JSON.stringify(clip(value))}`;

/** What a tool left out of an answer, and whether its lines show bounds. */
export interface Shown {
  /** Elements of a browser's frame left out (scope.ts). */
  chrome?: number;
  /** Changed elements left out because only their bounds changed (said_lines.ts). */
  moved?: number;
  /** Lines show `@x,y,w,h`. */
  bounds?: boolean;
}

/**
 * `read_ui`: the header, then the whole outline or, with `since`, only the diff; each
 * line with its element's bounds when asked.
 */
export function renderRead(
  r: ResultOf<"read_ui">,
  budget: number,
  since?: number,
  { chrome = 0, moved = 0, bounds = false }: Shown = {},
): string {
  const common = {
    app: r.app,
    pid: r.pid,
    window: r.window,
    version: r.version,
    cached: r.cached,
    ...(r.live.state === "live"
      ? { live: true }
      : { live: "degraded", live_reason: r.live.reason }),
    degraded: r.degraded ? (r.degraded_reason ?? true) : undefined,
    truncated: r.truncated,
    // The browser's own bars and tabs, left out (scope="window" shows them).
    chrome: chrome || undefined,
  };
  if (since !== undefined && !r.reset) {
    const d = { added: r.added ?? [], changed: r.changed ?? [], removed: r.removed ?? [] };
    const head = header({
      ...common,
      since,
      added: d.added.length,
      changed: d.changed.length,
      removed: d.removed.length,
      // Changed only where lines do not show (their bounds): counted, not listed.
      moved: moved || undefined,
    });
    const style = styleFor([...d.added, ...d.changed, ...d.removed.map((id) => ({ id }))], bounds);
    return withOmitted(head, diffOutline(d, budget, style), "raise max_elements", false);
  }
  const elements = r.elements ?? [];
  const o = outline(elements, budget, styleFor(elements, bounds));
  const head = header({
    ...common,
    ...(r.reset ? { since, reset: "version aged out, whole map follows" } : {}),
    elements: elements.length,
    // Wrappers and repeated text with no line of their own; their ids still work.
    folded: o.folded || undefined,
  });
  return withOmitted(head, o, "raise max_elements, or use find for what you need", false);
}

/**
 * `act`: whether it did what was asked (with what the element holds or is when not), how
 * it settled, the new version, the element after `scroll_into_view`, then the changes.
 */
export function renderAct(r: ResultOf<"act">, { chrome = 0, moved = 0 }: Shown = {}): string {
  const head = header({
    ok: r.ok ? true : "false",
    // What the element holds is a secret: not answered.
    secret: r.secret,
    already: r.already,
    version: r.version,
    effect: r.effect,
    settled: r.settled,
    settle_ms: Math.round(r.settle_ms),
    via: r.via,
    chrome: chrome || undefined,
    moved: moved || undefined,
  });
  const now = [
    ...(r.value === undefined ? [] : [holds(r.value)]),
    ...(r.element === undefined ? [] : [`= ${elementLine(r.element)}`]),
  ];
  const o = diffOutline(r, DIFF_BUDGET);
  return withOmitted(head, o, "read_ui with since", true, [...now, ...o.lines]);
}

/** `run_batch`: one line per step, then the changes of the whole batch. */
export function renderBatch(
  r: ResultOf<"run_batch">,
  { chrome = 0, moved = 0 }: Shown = {},
): string {
  const steps = r.results.map((s, i) => {
    const state = s.skipped
      ? "skipped"
      : s.ok
      ? `ok ${header({ settled: s.settled, via: s.via, ms: Math.round(s.ms) })}`
      : s.value !== undefined || s.secret
      // What the element holds is app text: said below, inside the fence.
      ? `error ${s.error?.code ?? "unknown"}${s.secret ? " (a secret: not answered)" : ""}`
      : `error ${s.error?.code ?? "unknown"}: ${s.error?.message ?? ""}`;
    return `step ${i + 1} ${state}`;
  });
  const held = r.results.flatMap((s, i) =>
    s.value === undefined || s.ok ? [] : [`step ${i + 1} ${holds(s.value)}`]
  );
  const head = header({
    ok: String(r.ok),
    version: r.version,
    steps: r.results.length,
    chrome: chrome || undefined,
    moved: moved || undefined,
  });
  const o = diffOutline(r, DIFF_BUDGET);
  return withOmitted([head, ...steps].join("\n"), o, "read_ui with since", true, [
    ...held,
    ...o.lines,
  ]);
}

/** `verify`: whether the expectation held, and the element as it is now. */
export function renderVerify(r: ResultOf<"verify">): string {
  const actual = r.actual ? fenced([`actual: ${elementLine(r.actual)}`]) : ["actual: none"];
  return [header({ ok: String(r.ok), version: r.version }), ...actual].join("\n");
}

/** `find`: the matches as outline lines, with the version to plan actions on. */
export function renderFind(r: ResultOf<"find">, bounds = false): string {
  const head = header({ version: r.version, found: r.elements.length });
  const style = styleFor(r.elements, bounds);
  return [head, ...fenced(r.elements.map((e) => elementLine(e, 0, style)))].join("\n");
}

/** `list_apps`: one line per app, its windows indented below it. */
export function renderApps(r: ResultOf<"list_apps">): string {
  if (r.apps.length === 0) return "no apps with windows on the accessibility bus";
  return fenced(r.apps.flatMap((a) => [
    // `app` is the engine's handle (a bus name); read_ui takes the name or the pid.
    header({ app: a.name, pid: a.pid }),
    ...a.windows.map((w) => {
      const b = w.bounds;
      const at = `@${Math.round(b.x)},${Math.round(b.y)},${Math.round(b.w)},${Math.round(b.h)}`;
      return `  ${header({ window: w.window, title: w.title })} ${at}${
        w.focused ? " focused" : ""
      }`;
    }),
  ])).join("\n");
}

/** A `window` answer: done or not, the window's state, and windows a close brought up. */
export function renderWindow(r: ResultOf<"window">): string {
  const s = r.state;
  const b = s.bounds;
  const state = s.exists
    ? `${s.state} @${b.x},${b.y},${b.w},${b.h}${s.focused ? " focused" : ""} ${
      s.stacking === 0 ? "top" : `stacking=${s.stacking}`
    }`
    : "gone";
  const opened = (r.opened ?? []).map((w) =>
    `opened ${header({ window: w.window, title: w.title })}`
  );
  return [
    `${r.ok ? "ok" : `not done: ${r.found ?? ""}`} window=${r.window} ${state}`,
    ...fenced(opened),
  ].join("\n");
}

/** A `launch_app` answer: the app started and its windows. */
export function renderLaunch(r: ResultOf<"launch_app">): string {
  return [
    `ok launched ${r.id} pid=${r.pid}`,
    ...fenced(r.app.windows.map((w) => `  ${header({ window: w.window, title: w.title })}`)),
  ].join("\n");
}

/** A `close_app` answer: each window closed or not, what opened instead, and the process. */
export function renderClose(r: ResultOf<"close_app">): string {
  return [
    `${r.ok ? "ok" : "not done"} exited=${r.exited}${r.forced ? " forced" : ""}`,
    ...fenced([
      ...r.windows.map((w) =>
        `  ${header({ window: w.window, title: w.title })} closed=${w.closed}`
      ),
      ...(r.opened ?? []).map((w) => `opened ${header({ window: w.window, title: w.title })}`),
    ]),
  ].join("\n");
}
