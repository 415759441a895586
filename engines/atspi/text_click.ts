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
import { visiblePart } from "./uncover.ts";

/** ATSPI_COORD_TYPE_SCREEN. */
const SCREEN = 0;

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
  const box = () => rangeBox(client, ref, at, at + words.length, limits);
  let shown = visiblePart(await box(), window);
  if (shown.w <= 0 || shown.h <= 0) {
    // Gecko answers a text's first geometry query before laying the text out: ask again.
    await new Promise((r) => setTimeout(r, 50));
    shown = visiblePart(await box(), window);
  }
  if (shown.w <= 0 || shown.h <= 0) return { via: "pixel", found: "offscreen" };
  await input({
    kind: "click",
    x: Math.round(shown.x + shown.w / 2),
    y: Math.round(shown.y + shown.h / 2),
    button: "left",
    count: 1,
  });
  return { via: "pixel" };
}

/**
 * The screen box of characters `start` to `end`: around its first and last characters'
 * extents, else the range's own extents.
 */
async function rangeBox(
  client: AtspiClient,
  ref: Ref,
  start: number,
  end: number,
  limits: CallLimits,
): Promise<Bounds> {
  const char = async (i: number) =>
    await client.call(ref, "Text", "GetCharacterExtents", limits, "iu", [i, SCREEN]) as number[];
  const [[ax, ay, aw, ah], [bx, by, bw, bh]] = await Promise.all([char(start), char(end - 1)]);
  const left = Math.min(ax!, bx!);
  const top = Math.min(ay!, by!);
  const box = {
    x: left,
    y: top,
    w: Math.max(ax! + aw!, bx! + bw!) - left,
    h: Math.max(ay! + ah!, by! + bh!) - top,
  };
  if (box.w > 0 && box.h > 0) return box;
  const [x, y, w, h] = await client.call(ref, "Text", "GetRangeExtents", limits, "iiu", [
    start,
    end,
    SCREEN,
  ]) as number[];
  return { x: x!, y: y!, w: w!, h: h! };
}
