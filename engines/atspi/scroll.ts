/**
 * `scroll_into_view`: the element's own `Component.ScrollTo` (Gecko, Chromium, GTK 4),
 * else focusing it, which scrolls a GTK 3 tree view or a web page to it; then its extents
 * are read back until it is inside the window. An element that stays outside answers
 * `found: "offscreen"`, never a claimed success.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { ActOutcome } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive } from "./named_action.ts";
import { visiblePart } from "./uncover.ts";

/** ATSPI_SCROLL_ANYWHERE: the least scrolling that shows the element. */
const SCROLL_ANYWHERE = 6;
/** How long the element's extents are read back after each way is tried. */
const READ_BACK_MS = 600;

/** Is `b` in view in `window`: wholly, or over half the window when it is larger? */
export function inView(b: Bounds, window: Bounds): boolean {
  if (b.w <= 0 || b.h <= 0) return false;
  const v = visiblePart(b, window);
  const shown = v.w * v.h;
  return shown >= b.w * b.h || shown >= (window.w * window.h) / 2;
}

async function extentsIn(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<Bounds> {
  const [x, y, w, h] = await client.extents(ref, limits);
  return { x, y, w, h };
}

/** Reads the element's extents until it is in view or the time passes. */
async function cameIntoView(
  client: AtspiClient,
  ref: Ref,
  window: Bounds,
  limits: CallLimits,
): Promise<boolean> {
  const until = performance.now() + READ_BACK_MS;
  while (true) {
    if (inView(await extentsIn(client, ref, limits), window)) return true;
    if (performance.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Asks `member` of `iface`; false when the toolkit lacks it or refuses. */
async function attempt(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  iface: string,
  member: string,
  signature?: string,
  body?: unknown[],
): Promise<boolean> {
  try {
    const [ok] = await client.call(ref, iface, member, limits, signature, body);
    return ok !== false;
  } catch (err) {
    // A toolkit without the method answers UnknownMethod, which reads as "gone": ask.
    if (err instanceof DriverError && err.code === "element_not_found") {
      await alive(client, ref, limits);
      return false;
    }
    throw err;
  }
}

/** Brings the element behind `ref` into `window` (its extents, screen points). */
export async function scrollIntoView(
  client: AtspiClient,
  ref: Ref,
  window: Bounds,
  limits: CallLimits,
): Promise<ActOutcome> {
  if (inView(await extentsIn(client, ref, limits), window)) return { via: "action", already: true };
  const ways: [string, string, string?, unknown[]?][] = [
    ["Component", "ScrollTo", "u", [SCROLL_ANYWHERE]],
    ["Component", "GrabFocus"],
  ];
  for (const [iface, member, signature, body] of ways) {
    if (!(await attempt(client, ref, limits, iface, member, signature, body))) continue;
    if (await cameIntoView(client, ref, window, limits)) return { via: "action" };
  }
  return { via: "action", found: "offscreen" };
}
