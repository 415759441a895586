/**
 * Proposed elements from boxes and read text lines: the window's regions as a tree in
 * capture pixels, siblings in reading order.
 *
 * - A box holding exactly one text line (or one unreadable mark, an icon) and nothing
 *   else looks like a button: `AXButton` named by its text.
 * - Any other box is an `AXGroup` ("") holding its nested boxes and lines; an empty box
 *   (a field, a blank panel) is an `AXGroup` with no children.
 * - A text line is `AXStaticText` named by its words; with two or more words, each word
 *   is an `AXStaticText` child, so one word of a terminal line can be clicked.
 * - Lines on the window background whose OCR found nothing are dropped (rules, noise).
 * - Words Tesseract is unsure of (confidence under {@link MIN_WORD_CONFIDENCE}) are left
 *   out: on xcalc they were the symbols its model does not know (÷ read as "7" at 31, π as
 *   "si" at 16), while every digit and operator read at 53 or more. A wrong name is worse
 *   than none; the element stays, unnamed, and says why in `unread`. So do words a second
 *   reading contradicted (see `analyse.ts`) and a key whose line OCR found no word in.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import { BACKGROUND, type TextLeaf } from "./layout.ts";
import type { Box, PixelRect } from "./segment.ts";
import type { OcrWord } from "./tsv.ts";

/** Roles a vision element can have. */
export type VisionRole = "AXButton" | "AXGroup" | "AXStaticText";

/** One proposed element, in capture pixels. */
export interface Proposal {
  /** What it looks like. */
  role: VisionRole;
  /** Its text ("" for groups). */
  name: string;
  /** Bounds in capture pixels (a box's frame included). */
  rect: PixelRect;
  /** What pixel input can do with it. */
  actions: ActionName[];
  /** 8×8 average hash of its pixels (set by the analysis). */
  crop?: string;
  /** Why `name` is empty or partial although the region shows text. */
  unread?: string;
  /** Contents in reading order. */
  children: Proposal[];
}

/** Words read with less confidence than this (0 to 100) are left out of names. */
export const MIN_WORD_CONFIDENCE = 40;

const BUTTON_ACTIONS: ActionName[] = ["press", "click", "focus"];
const GROUP_ACTIONS: ActionName[] = ["click", "focus", "set_value", "type_text"];
const TEXT_ACTIONS: ActionName[] = ["click"];

/**
 * The window's proposals.
 *
 * @param boxes Boxes found in the capture.
 * @param leaves Text lines (their `owner` indexes `boxes`).
 * @param read The words OCR read in each leaf, same order as `leaves`.
 * @param size The capture's size in pixels (box frames are clipped to it).
 * @returns The window's children in reading order.
 */
export function propose(
  boxes: readonly Box[],
  leaves: readonly TextLeaf[],
  read: readonly (readonly OcrWord[])[],
  size: { width: number; height: number },
): Proposal[] {
  const trusted = (w: OcrWord) => w.conf >= MIN_WORD_CONFIDENCE && w.doubt === undefined;
  const words = read.map((ws) => ws.filter(trusted));
  const unread = (i: number): string | undefined => {
    const ws = read[i] ?? [];
    if (ws.length === 0) return "ocr_no_text";
    const doubt = ws.find((w) => w.doubt !== undefined)?.doubt;
    if (doubt !== undefined) return doubt;
    return ws.every(trusted) ? undefined : "ocr_low_confidence";
  };
  const withUnread = (p: Proposal, i: number): Proposal => {
    const why = unread(i);
    if (why !== undefined) p.unread = why;
    return p;
  };
  const parents = boxParents(boxes);
  const boxKids = new Map<number, number[]>();
  parents.forEach((p, i) => boxKids.set(p, [...(boxKids.get(p) ?? []), i]));
  const leafKids = new Map<number, number[]>();
  leaves.forEach((l, i) => leafKids.set(l.owner, [...(leafKids.get(l.owner) ?? []), i]));

  const textNode = (i: number): Proposal | undefined => {
    const ws = words[i] ?? [];
    if (ws.length === 0) return undefined;
    const rect = leaves[i]!.rect;
    const children = ws.length < 2 ? [] : readingOrder(ws.map((w) => ({
      role: "AXStaticText" as const,
      name: w.text,
      rect: clip(roundRect(w.rect), rect),
      actions: [...TEXT_ACTIONS],
      children: [],
    })));
    const name = ws.map((w) => w.text).join(" ");
    return withUnread(
      { role: "AXStaticText", name, rect, actions: [...TEXT_ACTIONS], children },
      i,
    );
  };

  const build = (owner: number): Proposal[] => {
    const items: Proposal[] = [];
    for (const b of boxKids.get(owner) ?? []) items.push(boxNode(b));
    for (const l of leafKids.get(owner) ?? []) {
      const node = textNode(l);
      if (node) items.push(node);
    }
    return readingOrder(items);
  };

  const boxNode = (i: number): Proposal => {
    const { rect: r, frame } = boxes[i]!;
    const rect = clip(
      { x: r.x - frame, y: r.y - frame, w: r.w + 2 * frame, h: r.h + 2 * frame },
      { x: 0, y: 0, w: size.width, h: size.height },
    );
    const lines = leafKids.get(i) ?? [];
    if (lines.length === 1 && !boxKids.has(i)) {
      const name = (words[lines[0]!] ?? []).map((w) => w.text).join(" ");
      const key = { role: "AXButton" as const, name, rect, actions: [...BUTTON_ACTIONS] };
      return withUnread({ ...key, children: [] }, lines[0]!);
    }
    return { role: "AXGroup", name: "", rect, actions: [...GROUP_ACTIONS], children: build(i) };
  };

  return build(BACKGROUND);
}

/** For each box, the innermost other box whose fill contains its frame; -1 for none. */
function boxParents(boxes: readonly Box[]): number[] {
  return boxes.map((b, i) => {
    const outer = {
      x: b.rect.x - b.frame,
      y: b.rect.y - b.frame,
      w: b.rect.w + 2 * b.frame,
      h: b.rect.h + 2 * b.frame,
    };
    let best = BACKGROUND;
    let bestArea = Infinity;
    boxes.forEach((c, j) => {
      const area = c.rect.w * c.rect.h;
      if (j !== i && contains(c.rect, outer) && area < bestArea) {
        best = j;
        bestArea = area;
      }
    });
    return best;
  });
}

function contains(a: PixelRect, b: PixelRect): boolean {
  return b.x >= a.x && b.y >= a.y && b.x + b.w <= a.x + a.w && b.y + b.h <= a.y + a.h;
}

function roundRect(r: PixelRect): PixelRect {
  const x = Math.round(r.x), y = Math.round(r.y);
  return { x, y, w: Math.round(r.x + r.w) - x, h: Math.round(r.y + r.h) - y };
}

function clip(r: PixelRect, to: PixelRect): PixelRect {
  const x = Math.max(r.x, to.x), y = Math.max(r.y, to.y);
  const right = Math.min(r.x + r.w, to.x + to.w), bottom = Math.min(r.y + r.h, to.y + to.h);
  return { x, y, w: Math.max(0, right - x), h: Math.max(0, bottom - y) };
}

/**
 * Sorts into rows, top to bottom, each row left to right. An item joins the current row
 * when its vertical centre lies within the row's first item.
 */
export function readingOrder<T extends { rect: PixelRect }>(items: readonly T[]): T[] {
  const byTop = [...items].sort((a, b) => a.rect.y - b.rect.y || a.rect.x - b.rect.x);
  const out: T[] = [];
  let row: T[] = [];
  let top = 0, bottom = -Infinity;
  const flush = () => out.push(...row.sort((a, b) => a.rect.x - b.rect.x));
  for (const item of byTop) {
    const centre = item.rect.y + item.rect.h / 2;
    if (row.length > 0 && centre >= top && centre <= bottom) {
      row.push(item);
      continue;
    }
    flush();
    row = [item];
    top = item.rect.y;
    bottom = item.rect.y + item.rect.h;
  }
  flush();
  return out;
}
