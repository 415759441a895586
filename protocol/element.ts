/**
 * The element shape every engine's reads are turned into (protocol.md, "Elements").
 *
 * @module
 */
import { z } from "zod";

/** A rectangle in screen points. */
export const Bounds = z.object({
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
});
/** A rectangle in screen points. */
export type Bounds = z.infer<typeof Bounds>;

/** The actions an element may offer (protocol.md, `act`). */
export const ActionName = z.enum([
  "press",
  "click",
  "focus",
  "set_value",
  "type_text",
  "select",
  "expand",
  "collapse",
  "scroll_into_view",
  "show_menu",
  "check",
  "uncheck",
]);
/** The actions an element may offer. */
export type ActionName = z.infer<typeof ActionName>;

/**
 * A table read by its visible range (a spreadsheet's sheet, a tree view of many rows): its
 * size, and the rows and columns whose cells the map holds (0-based, inclusive; -1 when
 * none). Cells outside it exist but are not read.
 */
export const TableRange = z.strictObject({
  rows: z.number().int().nonnegative(),
  columns: z.number().int().nonnegative(),
  first_row: z.number().int().nonnegative(),
  first_column: z.number().int().nonnegative(),
  last_row: z.number().int().min(-1),
  last_column: z.number().int().min(-1),
});
/** A table's size and the range of its cells a read holds. */
export type TableRange = z.infer<typeof TableRange>;

/** One element of a window's map, as callers see it. */
export const Element = z.object({
  id: z.string(),
  role: z.string(),
  name: z.string(),
  value: z.string().optional(),
  bounds: Bounds,
  enabled: z.boolean(),
  focused: z.boolean(),
  actions: z.array(ActionName),
  parent: z.string().optional(),
  crop: z.string().regex(/^[0-9a-f]{16}$/).optional(),
  /**
   * Why `name` is empty or partial although the element shows text: vision could not read
   * it with confidence (`ocr_low_confidence`, `ocr_no_text`, `ocr_ambiguous: …`). A wrong
   * name is worse than none, so an unsure reading is left out and said here.
   */
  unread: z.string().optional(),
  /** `value` was cut at the driver's text limit (`MAX_TEXT_CHARS`, 10,000 characters). */
  truncated: z.literal(true).optional(),
  /** For a table read by its visible range: its size and the range read. */
  table: TableRange.optional(),
  /**
   * A check box, radio button, switch, toggle button or checkable menu item: whether it is
   * on (`"mixed"`: neither, a tri-state box's third state). Absent on other elements.
   */
  checked: z.union([z.boolean(), z.literal("mixed")]).optional(),
  /** An element that expands (tree row, disclosure, combo box): whether it is open now. */
  expanded: z.boolean().optional(),
  /** An element that can be selected (list or tree row, tab, option, cell): whether it is. */
  selected: z.boolean().optional(),
  /**
   * Found by `find` with `scope: "all"` but not in the map, and not showing inside the
   * window: scrolled out of view, hidden, or a row not shown. (A match beyond the map that
   * shows, such as a table's header, comes without it.) Its id stays valid for `act` (`scroll_into_view` brings it on
   * screen; the answer's `element` is then its entry in the map).
   */
  offscreen: z.literal(true).optional(),
});
/** One element of a window's map, as callers see it. */
export type Element = z.infer<typeof Element>;
