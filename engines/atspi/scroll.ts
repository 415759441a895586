/**
 * `scroll_into_view`: the element's own `Component.ScrollTo` (Gecko, Chromium, GTK 4),
 * else focusing it, which scrolls a GTK 3 tree view or a web page to it, else (Qt 5: no
 * ScrollTo, and a cell's focus does not scroll) turning the mouse wheel over its list
 * towards it (`via: "pixel"`), or for a spreadsheet's cell, which it clips to a point,
 * over its table towards its row and column (scroll_table.ts). Each way's effect is read
 * back from the element's extents. An element that stays outside answers
 * `found: "offscreen"`, never a claimed success.
 *
 * @module
 */
import type { Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { ActOutcome } from "../../model/engine.ts";
import { type AtspiClient, type CallLimits, NULL_PATH, type Ref } from "./client.ts";
import { alive, type Input } from "./named_action.ts";
import { isEmpty, visiblePart } from "./uncover.ts";
import { wheelToCell } from "./scroll_table.ts";
import { pollUntil } from "../../util/poll.ts";

/** ATSPI_SCROLL_ANYWHERE: the least scrolling that shows the element. */
const SCROLL_ANYWHERE = 6;
/** How long the element's extents are read back after each way is tried. */
const READ_BACK_MS = 600;

/** Is `b` in view in `window`: wholly, or over half the window when it is larger? */
export function inView(b: Bounds, window: Bounds): boolean {
  if (isEmpty(b)) return false;
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
  const seen = (b: Bounds) => inView(b, window);
  return seen(await pollUntil(() => extentsIn(client, ref, limits), seen, READ_BACK_MS, 30));
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

/**
 * Brings the element behind `ref` into `window` (its extents, screen points); `input`
 * turns the wheel where the toolkit offers no way to scroll to an element.
 */
export async function scrollIntoView(
  client: AtspiClient,
  input: Input,
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
  // A spreadsheet clips an unseen cell to a point: its row and column tell where it is.
  if (isEmpty(await extentsIn(client, ref, limits))) {
    if (
      await wheelToCell(client, input, ref, limits) &&
      await cameIntoView(client, ref, window, limits)
    ) return { via: "pixel" };
    return { via: "pixel", found: "offscreen" };
  }
  // Qt 5 has neither ScrollTo nor a focus that scrolls: turn the wheel over the parent.
  if (await wheelIntoView(client, input, ref, window, limits)) return { via: "pixel" };
  return { via: "pixel", found: "offscreen" };
}

/** Most wheel turns tried; each is a few notches. */
const MAX_TURNS = 60;
/** Turns in a row that may leave the element where it was before giving up. */
const STUCK_TURNS = 3;

/**
 * Turns the wheel over the visible part of the element's parent (the list that holds it)
 * towards it, reading its extents after each turn, until it is in view, it stops moving,
 * or {@link MAX_TURNS} pass. False when it did not come into view.
 */
async function wheelIntoView(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  window: Bounds,
  limits: CallLimits,
): Promise<boolean> {
  const [bus, path] = await client.prop(ref, "Accessible", "Parent", limits) as [string, string];
  if (path === NULL_PATH) return false;
  const list = visiblePart(await extentsIn(client, { bus: bus || ref.bus, path }, limits), window);
  if (list.w <= 0 || list.h <= 0) return false;
  const at = { x: Math.round(list.x + list.w / 2), y: Math.round(list.y + list.h / 2) };
  let b = await extentsIn(client, ref, limits);
  let stuck = 0;
  for (let turn = 0; turn < MAX_TURNS && stuck < STUCK_TURNS; turn++) {
    const below = b.y + b.h > list.y + list.h;
    const above = b.y < list.y;
    const right = b.x + b.w > list.x + list.w;
    const left = b.x < list.x;
    // A few notches at a time while far, one when near: no overshooting a short list.
    const far = (d: number, size: number) => Math.max(1, Math.min(5, Math.floor(d / size)));
    const dy = below
      ? far(b.y + b.h - (list.y + list.h), list.h / 2)
      : above
      ? -far(list.y - b.y, list.h / 2)
      : 0;
    const dx = dy === 0 && right
      ? far(b.x + b.w - (list.x + list.w), list.w / 2)
      : dy === 0 && left
      ? -far(list.x - b.x, list.w / 2)
      : 0;
    if (dx === 0 && dy === 0) break;
    await input({ kind: "scroll", ...at, dx, dy });
    await new Promise((r) => setTimeout(r, 40));
    const now = await extentsIn(client, ref, limits);
    stuck = now.x === b.x && now.y === b.y ? stuck + 1 : 0;
    b = now;
    if (inView(b, list) && inView(b, window)) return true;
  }
  return await cameIntoView(client, ref, window, limits);
}
