/**
 * Pixels from Cua: a window's screenshot is `get_window_state` with
 * `include_accessibility_tree: false` (the documented capture-only path), the screen's is
 * `get_desktop_state`; both answer a PNG as an MCP `image` block. Decoded here to RGBA.
 *
 * Cua's `zoom` tool is not called for the `zoom` op: it pads the region by 20 %, caps the
 * width at 500 px and answers JPEG, while the op's contract is the exact region, scaled.
 * The driver crops the op's region from this capture instead.
 *
 * @module
 */
import { convertIndexedToRgb, decode } from "fast-png";
import { DriverError } from "../../protocol/errors.ts";
import type { Bounds } from "../../protocol/element.ts";
import type { Capture } from "../../model/engine.ts";
import { ImageBlock, parseAnswer, TOOL, type ToolResult } from "./tools.ts";
import type { CuaWindow } from "./windows.ts";

/** Calls one Cua tool (the engine's, with its deadline and window handling). */
export type ToolCaller = (tool: string, args: Record<string, unknown>) => Promise<ToolResult>;

/** The screen (`get_desktop_state`), or one window (`get_window_state` without its tree). */
export async function captureVia(call: ToolCaller, w: CuaWindow | undefined): Promise<Capture> {
  if (w === undefined) {
    const image = decodeImage(TOOL.getDesktopState, await call(TOOL.getDesktopState, {}));
    return toCapture(image, { x: 0, y: 0, w: image.width, h: image.height });
  }
  const args = { pid: w.pid, window_id: w.windowId, include_accessibility_tree: false };
  return toCapture(
    decodeImage(TOOL.getWindowState, await call(TOOL.getWindowState, args)),
    w.bounds,
  );
}

/** RGBA pixels of the first PNG image block of `result`. */
export function decodeImage(tool: string, result: ToolResult): {
  width: number;
  height: number;
  rgba: Uint8Array;
} {
  const block = result.content.find((c) => c.type === "image");
  if (!block) {
    throw new DriverError("internal", `Cua Driver answered "${tool}" without an image`, {
      tool,
      issues: [{ path: "content", message: "no image block" }],
    });
  }
  const image = parseAnswer(tool, ImageBlock, block);
  if (image.mimeType !== "image/png") {
    throw new DriverError("internal", `Cua Driver answered "${tool}" with "${image.mimeType}"`, {
      tool,
      issues: [{ path: "content.mimeType", message: "expected image/png" }],
    });
  }
  let png;
  try {
    png = decode(Uint8Array.from(atob(image.data), (c) => c.charCodeAt(0)));
  } catch (err) {
    throw new DriverError("internal", `Cua Driver's "${tool}" PNG does not decode`, { tool }, {
      cause: err,
    });
  }
  const { width, height } = png;
  let data = png.palette ? convertIndexedToRgb(png) : png.data;
  const channels = png.palette ? (png.palette[0]?.length ?? 3) : png.channels;
  if (png.depth === 16 && !png.palette) {
    data = Uint8Array.from(data as Uint16Array, (v) => v >> 8);
  }
  const src = data as Uint8Array;
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    const gray = channels <= 2;
    rgba[i * 4] = src[j]!;
    rgba[i * 4 + 1] = gray ? src[j]! : src[j + 1]!;
    rgba[i * 4 + 2] = gray ? src[j]! : src[j + 2]!;
    rgba[i * 4 + 3] = channels === 4 ? src[j + 3]! : channels === 2 ? src[j + 1]! : 255;
  }
  return { width, height, rgba };
}

/** A capture of `area` (screen points) from a decoded image of it. */
export function toCapture(
  image: { width: number; height: number; rgba: Uint8Array },
  area: Bounds,
): Capture {
  // Cua may shrink screenshots (max_image_dimension): the ratio is the scale.
  const scale = area.w > 0 ? image.width / area.w : 1;
  return { ...image, scale, origin: { x: area.x, y: area.y } };
}
