/**
 * THE CONFORMANCE DOUBLE's tool catalogue (not Cua Driver): the names and argument schemas
 * of the Cua Driver tools the Cua engine uses, as Cua's public MCP reference documents
 * them (mcp-tools-linux: list_windows, get_window_state, get_desktop_state, click,
 * set_value, type_text, press_key, hotkey, move_cursor, drag, scroll, zoom), plus
 * `parse_visual_regions`, which Cua 0.34 lists and the engine must never use.
 *
 * @module
 */

type Schema = Record<string, unknown>;

const int: Schema = { type: "integer" };
const num: Schema = { type: "number" };
const str: Schema = { type: "string" };
const bool: Schema = { type: "boolean" };
const strings: Schema = { type: "array", items: str };
/** `{kind:"window", pid, window_id}` or `{kind:"desktop", display_id:"primary"}`. */
const target: Schema = { type: "object" };

function obj(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: "object", properties, required };
}

/** Addressing shared by the element and pointer tools. */
const element = { element_index: int, element_token: str, snapshot_id: str, session: str };
/** The input family's common knobs. */
const delivery = { delivery_mode: str, scope: str, target, window_id: int, pid: int };

/** One tool as `tools/list` answers it. */
export interface ToolDef {
  /** Tool name. */
  name: string;
  /** What it does (the reference's first sentence). */
  description: string;
  /** JSON Schema of its arguments. */
  inputSchema: Schema;
}

/** The catalogue, in the reference's order. */
export const TOOLS: readonly ToolDef[] = [
  {
    name: "list_windows",
    description: "List top-level windows. Each record includes z_index.",
    inputSchema: obj({ on_screen_only: bool, pid: int }),
  },
  {
    name: "get_window_state",
    description: "Walk a running app's AT-SPI tree and return a structured `elements` array " +
      "and a Markdown rendering of the same tree, plus a screenshot.",
    inputSchema: obj({
      pid: int,
      window_id: int,
      capture_mode: str,
      include_accessibility_tree: bool,
      include_screenshot: bool,
      max_depth: int,
      max_dimension: int,
      max_elements: int,
      query: str,
      screenshot_out_file: str,
      session: str,
    }, ["pid", "window_id"]),
  },
  {
    name: "get_desktop_state",
    description: "Capture the full display in the desktop action coordinate frame.",
    inputSchema: obj({ screenshot_out_file: str, session: str }),
  },
  {
    name: "click",
    description: "Click against a target pid, by element_token or by x/y.",
    inputSchema: obj({
      ...element,
      ...delivery,
      button: str,
      count: int,
      x: num,
      y: num,
      modifier: strings,
      from_zoom: bool,
      cursor_id: str,
    }),
  },
  {
    name: "set_value",
    description: "Set value of an AT-SPI element via SetValue action.",
    inputSchema: obj({ ...element, pid: int, window_id: int, value: str }, ["pid", "value"]),
  },
  {
    name: "type_text",
    description: "Type text to a window.",
    inputSchema: obj({ ...element, ...delivery, text: str, x: num, y: num }, ["text"]),
  },
  {
    name: "press_key",
    description: "Press a key.",
    inputSchema: obj({ ...element, ...delivery, key: str, modifiers: strings, x: num, y: num }, [
      "key",
    ]),
  },
  {
    name: "hotkey",
    description: 'Press a combination of keys simultaneously, e.g. ["ctrl","c"].',
    inputSchema: obj({ ...element, ...delivery, keys: strings, x: num, y: num }, ["keys"]),
  },
  {
    name: "move_cursor",
    description: "Move the agent cursor; scope=desktop moves the real pointer.",
    inputSchema: obj({ cursor_id: str, scope: str, session: str, target, x: num, y: num }, [
      "x",
      "y",
    ]),
  },
  {
    name: "drag",
    description: "Press-drag-release gesture from (from_x, from_y) to (to_x, to_y).",
    inputSchema: obj({
      ...delivery,
      button: str,
      duration_ms: int,
      steps: int,
      from_x: num,
      from_y: num,
      to_x: num,
      to_y: num,
      session: str,
    }, ["from_x", "from_y", "to_x", "to_y"]),
  },
  {
    name: "scroll",
    description: "Scroll; direction required, by defaults to line, amount to 3.",
    inputSchema: obj({
      ...element,
      ...delivery,
      direction: str,
      by: str,
      amount: int,
      x: num,
      y: num,
    }, [
      "direction",
    ]),
  },
  {
    name: "zoom",
    description: "Capture a cropped image of a window region (x1,y1)-(x2,y2).",
    inputSchema: obj({ pid: int, window_id: int, x1: num, y1: num, x2: num, y2: num }, [
      "window_id",
      "x1",
      "y1",
      "x2",
      "y2",
    ]),
  },
  {
    name: "parse_visual_regions",
    description: "Visual regions of a capture (needs the cua-perception extension).",
    inputSchema: obj({ capture_id: str, options: { type: "object" } }, ["capture_id"]),
  },
];
