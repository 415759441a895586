/**
 * The Cua Driver tools this engine calls, and zod schemas for their answers.
 *
 * Source: Cua Driver's public MCP reference (cua.ai/docs/reference/cua-driver/mcp-tools-linux,
 * generated from `cua-driver dump-docs`; the newest stored copy says 0.28.2, none says 0.34),
 * its "MCP tool notes" page, and the open-source builders of `structuredContent` in
 * trycua/cua (libs/cua-driver/rust). What those pages leave open is marked UNDOCUMENTED
 * below; the schemas accept it as optional rather than guess a shape.
 *
 * Answers are checked here, not trusted: a `structuredContent` that fails its schema is an
 * engine failure (`internal`, with the issue list) that the router learns from.
 *
 * @module
 */
import { z } from "zod";
import { DriverError } from "../../protocol/errors.ts";

/** Tool names, exactly as `tools/list` spells them (snake_case, same as the CLI). */
export const TOOL = {
  listWindows: "list_windows",
  getWindowState: "get_window_state",
  getDesktopState: "get_desktop_state",
  click: "click",
  setValue: "set_value",
  typeText: "type_text",
  pressKey: "press_key",
  hotkey: "hotkey",
  moveCursor: "move_cursor",
  drag: "drag",
  scroll: "scroll",
  zoom: "zoom",
} as const;

/**
 * Listed by Cua 0.34 but never called: it needs the optional `cua-perception` extension,
 * which is AGPL (design document, "Router"). The vision fallback proposes its own regions.
 */
export const NEVER_CALLED: readonly string[] = ["parse_visual_regions"];

/** `bounds` of a `list_windows` record: screen points, `width`/`height` spelled out. */
const WindowBounds = z.looseObject({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
});

/** One `list_windows` record (documented: window_id, pid, app_name, title, bounds, z_index). */
export const WindowRecord = z.looseObject({
  window_id: z.number().int().nonnegative(),
  // Null when the owner is unknown (Linux: a window without _NET_WM_PID).
  pid: z.number().int().nullable().optional(),
  app_name: z.string().optional(),
  title: z.string().optional(),
  bounds: WindowBounds.optional(),
  // "null means stacking order is unavailable and callers must not infer one".
  z_index: z.number().int().nullable().optional(),
  is_on_screen: z.boolean().optional(),
});
/** One `list_windows` record. */
export type WindowRecord = z.infer<typeof WindowRecord>;

/** `list_windows` → `structuredContent`. */
export const ListWindowsAnswer = z.looseObject({ windows: z.array(WindowRecord) });

/** `frame` of an element, `{x, y, w, h}`; screen coordinates on Linux (popup code compares). */
const Frame = z.looseObject({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });

/**
 * One row of `get_window_state`'s `structuredContent.elements`: only actionable nodes (those
 * with an `element_index`), in the markdown's depth-first order, `parent_index` naming the
 * nearest indexed ancestor.
 */
export const CuaElement = z.looseObject({
  element_index: z.number().int().nonnegative(),
  // Opaque authenticated address; native actions require it (index + snapshot is refused).
  element_token: z.string().min(1).optional(),
  role: z.string(),
  label: z.string().optional(),
  // Documented as the element's text; kept loose because Value-interface controls are numbers.
  value: z.union([z.string(), z.number(), z.boolean()]).optional(),
  enabled: z.boolean().optional(),
  selected: z.boolean().optional(),
  // UNDOCUMENTED: no focus field is documented; read when present.
  focused: z.boolean().optional(),
  actions: z.array(z.string()).optional(),
  frame: Frame.optional(),
  parent_index: z.number().int().nonnegative().nullable().optional(),
  depth: z.number().int().nonnegative().optional(),
  description: z.string().optional(),
});
/** One element row. */
export type CuaElement = z.infer<typeof CuaElement>;

/** `get_window_state` → `structuredContent`, tree included. */
export const WindowStateAnswer = z.looseObject({
  window_id: z.number().int().optional(),
  pid: z.number().int().optional(),
  window_title: z.string().optional(),
  snapshot_id: z.string().optional(),
  elements: z.array(CuaElement),
  element_count: z.number().int().nonnegative().optional(),
  total_element_count: z.number().int().nonnegative().optional(),
  returned_element_count: z.number().int().nonnegative().optional(),
  // "degraded: true alongside a degraded_reason string when the walk found nothing actionable".
  degraded: z.boolean().optional(),
  degraded_reason: z.string().nullable().optional(),
  // UNDOCUMENTED in the tool reference; seen in consumers' observation records.
  truncated: z.boolean().optional(),
});
/** A parsed `get_window_state` answer. */
export type WindowStateAnswer = z.infer<typeof WindowStateAnswer>;

/** The structured side of an action tool (MCP tool notes, "Action response shape"). */
export const ActionAnswer = z.looseObject({
  path: z.string().optional(),
  verified: z.boolean().optional(),
  effect: z.string().optional(),
  escalation: z.looseObject({ recommended: z.string(), reason: z.string() }).optional(),
});

/** The MCP `CallTool` result envelope, as far as this engine reads it. */
export const ToolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })).default([]),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
/** A parsed `CallTool` result. */
export type ToolResult = z.infer<typeof ToolResult>;

/** An `image` content block (`get_window_state` / `get_desktop_state` screenshots). */
export const ImageBlock = z.looseObject({
  type: z.literal("image"),
  data: z.string().min(1),
  mimeType: z.string(),
});

/** Issues of a failed parse, short enough for an error's data. */
export function issuesOf(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.slice(0, 10).map((i) => ({
    path: i.path.map(String).join(".") || "(root)",
    message: i.message,
  }));
}

/** Parses `value` with `schema`, or throws the engine failure the router learns from. */
export function parseAnswer<S extends z.ZodType>(
  tool: string,
  schema: S,
  value: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error);
  const first = issues[0];
  throw new DriverError(
    "internal",
    `Cua Driver answered "${tool}" outside its schema: ${first?.path}: ${first?.message}`,
    { tool, issues },
    { cause: parsed.error },
  );
}
