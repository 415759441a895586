/**
 * `click` with `value`: a click on those words inside the element's text. Pages make
 * single words clickable without giving them an element of their own (a span with a
 * handler inside a paragraph); the element's Text interface says where the words are
 * (`GetRangeExtents`), and the pointer clicks the middle of them. Words the element's
 * text does not hold answer `found` with the text, never a click elsewhere.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import type { Bounds } from "../../protocol/element.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { alive, type Input, refused } from "./named_action.ts";
import { DriverError } from "../../protocol/errors.ts";
import { textOf } from "./text_entry.ts";
import { isEmpty, visiblePart } from "./uncover.ts";

/** ATSPI_COORD_TYPE_SCREEN. */
const SCREEN = 0;
/** Asks again for words whose extents the app does not know yet, this often and long. */
const UNKNOWN_RETRIES = 4;
const UNKNOWN_WAIT_MS = 50;

/** Where `words` first occur in `text`: exactly, else regardless of case. */
function offsetOf(text: string, words: string): number {
  const exact = text.indexOf(words);
  return exact >= 0 ? exact : text.toLowerCase().indexOf(words.toLowerCase());
}

/** Clicks the middle of `words` in the text of the element behind `ref`. */
export async function clickText(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  words: string,
  window: Bounds,
  limits: CallLimits,
): Promise<ActOutcome> {
  if (words === "") throw refused(node, "click empty words in");
  const text = await textOf(client, ref, limits).catch(async (err) => {
    // No Text interface answers "unknown interface", which reads as gone: ask.
    if (!(err instanceof DriverError && err.code === "element_not_found")) throw err;
    await alive(client, ref, limits);
    throw refused(node, "click words in");
  });
  const at = offsetOf(text, words);
  if (at < 0) return { via: "pixel", found: text };
  const shown = async () => {
    // Where the words show: inside the window, and inside the element as it is now (the
    // map's bounds lag behind an element that moves) when it says where it is.
    const [box, [x, y, w, h]] = await Promise.all([
      rangeBox(client, ref, at, at + words.length, limits),
      client.extents(ref, limits),
    ]);
    const element = { x, y, w, h };
    return visiblePart(box, isEmpty(element) ? window : visiblePart(element, window));
  };
  let where = await shown();
  for (let i = 0; i < UNKNOWN_RETRIES && isEmpty(where); i++) {
    // Gecko answers a text's first geometry questions before it has them (zeros, for
    // some characters and not others): ask again.
    await new Promise((r) => setTimeout(r, UNKNOWN_WAIT_MS));
    where = await shown();
  }
  if (isEmpty(where)) return { via: "pixel", found: "offscreen" };
  await input({
    kind: "click",
    x: Math.round(where.x + where.w / 2),
    y: Math.round(where.y + where.h / 2),
    button: "left",
    count: 1,
  });
  return { via: "pixel" };
}

/**
 * The screen box of characters `start` to `end`: around its first and last characters'
 * extents when both are known, else the range's own extents; empty when neither is known.
 * Gecko answered a first character's extents as zeros and a last one's right: a box
 * spanning from the screen's corner, whose middle was blank page (the click answered ok
 * and the words never saw it).
 */
async function rangeBox(
  client: AtspiClient,
  ref: Ref,
  start: number,
  end: number,
  limits: CallLimits,
): Promise<Bounds> {
  const extents = async (member: string, sig: string, args: number[]): Promise<Bounds> => {
    const [x, y, w, h] = await client.call(ref, "Text", member, limits, sig, args) as number[];
    return { x: x!, y: y!, w: w!, h: h! };
  };
  const char = (i: number) => extents("GetCharacterExtents", "iu", [i, SCREEN]);
  const [a, b] = await Promise.all([char(start), char(end - 1)]);
  if (!isEmpty(a) && !isEmpty(b)) {
    const left = Math.min(a.x, b.x);
    const top = Math.min(a.y, b.y);
    return {
      x: left,
      y: top,
      w: Math.max(a.x + a.w, b.x + b.w) - left,
      h: Math.max(a.y + a.h, b.y + b.h) - top,
    };
  }
  return await extents("GetRangeExtents", "iiu", [start, end, SCREEN]);
}
