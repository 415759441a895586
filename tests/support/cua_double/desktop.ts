/**
 * THE CONFORMANCE DOUBLE's desktop (not Cua Driver): answers Cua Driver's tools in the shape
 * Cua's reference documents, from REAL reads of the headless desktop through the AT-SPI
 * engine, and acts through that engine.
 *
 * Differences from Cua, on purpose: every node is listed as an element (Cua lists only
 * actionable ones), roles are the AX roles the AT-SPI engine emits, `zoom` answers PNG
 * (Cua: JPEG), and tokens are `s<snapshot>:<index>` without Cua's authentication.
 *
 * @module
 */
// @ts-types="@modelcontextprotocol/sdk/types"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { AtspiEngine } from "../../../engines/atspi/engine.ts";
import type { Capture, PixelInput, RawNode } from "../../../model/engine.ts";
import type { ActionName } from "../../../protocol/element.ts";
import { encodePng } from "../../../model/png.ts";
import { cropCapture } from "../../../model/capture.ts";

type Args = Record<string, unknown>;
type Window = { atspi: string; pid: number; app: string; title: string };

const SNAPSHOTS_KEPT = 32;

/** A successful answer: a text summary, `structuredContent`, maybe a PNG. */
export function ok(text: string, structured?: Args, png?: Uint8Array): CallToolResult {
  const content: CallToolResult["content"] = [];
  if (png) content.push({ type: "image", data: base64(png), mimeType: "image/png" });
  content.push({ type: "text", text: `✅ ${text}` });
  return { content, ...(structured ? { structuredContent: structured } : {}) };
}

/** A failed answer (`isError`), as Cua reports refusals. */
export function fail(text: string): CallToolResult {
  return { content: [{ type: "text", text }], isError: true };
}

/** Cua's refusal of a window that closed (as quoted in Cua's issue tracker). */
export function stale(args: Args): string {
  return `Window target pid ${args.pid}, window_id ${args.window_id} is stale or no longer ` +
    "running; refresh list_windows.";
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

const num = (v: unknown): number | undefined => (typeof v === "number" ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** The desktop behind the double's tools. */
export class DoubleDesktop {
  readonly #atspi = new AtspiEngine();
  readonly #windows = new Map<number, Window>();
  readonly #snapshots = new Map<string, { window: string; nodes: RawNode[] }>();
  #generation = 0;

  /** `list_windows`: AT-SPI's windows, numbered like X11 ids. */
  async listWindows(args: Args, signal: AbortSignal): Promise<CallToolResult> {
    const apps = await this.#atspi.listApps(signal);
    const records = [];
    for (const app of apps) {
      if (args.pid !== undefined && app.pid !== args.pid) continue;
      for (const w of app.windows) {
        const id = parseInt(w.window.slice(1), 16);
        this.#windows.set(id, { atspi: w.window, pid: app.pid, app: app.name, title: w.title });
        const { x, y, w: width, h: height } = w.bounds;
        records.push({
          window_id: id,
          pid: app.pid,
          app_name: app.name,
          title: w.title,
          bounds: { x, y, width, height },
          x,
          y,
          width,
          height,
          z_index: w.focused ? 1 : 0,
          is_on_screen: true,
        });
      }
    }
    return ok(`Found ${records.length} windows:`, { windows: records });
  }

  async #window(args: Args, signal: AbortSignal): Promise<Window | undefined> {
    const id = num(args.window_id);
    if (id === undefined) return undefined;
    if (!this.#windows.has(id)) await this.listWindows({}, signal);
    const w = this.#windows.get(id);
    return w && (args.pid === undefined || args.pid === w.pid) ? w : undefined;
  }

  /** `get_window_state`: the window's AT-SPI tree as Cua's `elements`, maybe a screenshot. */
  async windowState(args: Args, signal: AbortSignal): Promise<CallToolResult> {
    const w = await this.#window(args, signal);
    if (!w) return fail(stale(args));
    const wantTree = args.include_accessibility_tree !== false;
    const wantShot = args.include_screenshot !== false || !wantTree;
    const structured: Args = { window_id: args.window_id, pid: w.pid, app_name: w.app };
    let png: Uint8Array | undefined;
    if (wantShot) {
      const shot = await this.#atspi.capture(w.atspi, signal);
      png = encodePng(shot);
      Object.assign(structured, { screenshot_width: shot.width, screenshot_height: shot.height });
    }
    if (wantTree) {
      const max = num(args.max_elements) ?? 5_000;
      const tree = await this.#atspi.readWindow(w.atspi, { maxElements: max, signal });
      Object.assign(structured, this.#elements(w.atspi, tree.root, max), {
        window_title: w.title,
      });
    }
    return ok(`window_id=${args.window_id} pid=${w.pid}`, structured, png);
  }

  #elements(window: string, root: RawNode, max: number): Args {
    const snapshot = `s${(++this.#generation).toString(16).padStart(8, "0")}`;
    const nodes: RawNode[] = [];
    const elements: Args[] = [];
    const lines: string[] = [];
    const visit = (node: RawNode, depth: number, parent: number | undefined) => {
      if (nodes.length >= max) return;
      const index = nodes.length;
      nodes.push(node);
      const el: Args = { element_index: index, element_token: `${snapshot}:${index}` };
      Object.assign(el, { role: node.role, depth, enabled: node.enabled });
      if (node.name) el.label = node.name;
      if (node.value) el.value = node.value;
      if (node.actions.includes("press")) el.actions = ["click"];
      if (parent !== undefined) el.parent_index = parent;
      el.frame = { ...node.bounds };
      elements.push(el);
      lines.push(`${"  ".repeat(depth)}- [${index}] ${node.role} "${node.name}"`);
      for (const child of node.children) visit(child, depth + 1, index);
    };
    visit(root, 0, undefined);
    this.#snapshots.set(snapshot, { window, nodes });
    for (const old of this.#snapshots.keys()) {
      if (this.#snapshots.size <= SNAPSHOTS_KEPT) break;
      this.#snapshots.delete(old);
    }
    return {
      snapshot_id: snapshot,
      element_count: elements.length,
      total_element_count: elements.length,
      returned_element_count: elements.length,
      elements_complete: false,
      tree_markdown: lines.join("\n"),
      elements,
    };
  }

  /** The node and window an `element_token` names, if its snapshot is kept. */
  #token(args: Args): { window: string; node: RawNode } | undefined {
    const [snap, index] = (str(args.element_token) ?? "").split(":");
    const kept = this.#snapshots.get(snap ?? "");
    const node = kept?.nodes[Number(index)];
    return kept && node ? { window: kept.window, node } : undefined;
  }

  /** An element action by token (`click`, `set_value`, `type_text`). */
  async act(
    args: Args,
    action: ActionName,
    value: string | undefined,
    signal: AbortSignal,
  ): Promise<CallToolResult> {
    const hit = this.#token(args);
    if (!hit) return fail("element_token is stale or unknown: refresh get_window_state.");
    const done = await this.#atspi.act(hit.window, hit.node, action, value, signal);
    const path = done.via === "action" ? "x11_atspi" : "x11_pixel";
    return ok(`${action} done`, { path, effect: "unverifiable" });
  }

  /** A point in screen points: desktop-targeted as is, window-targeted from its corner. */
  async point(
    args: Args,
    x: number,
    y: number,
    signal: AbortSignal,
  ): Promise<{ x: number; y: number }> {
    const target = args.target as { kind?: string } | undefined;
    if (target?.kind === "desktop" || args.scope === "desktop") return { x, y };
    const w = await this.#window(args, signal);
    if (!w) return { x, y };
    const apps = await this.#atspi.listApps(signal);
    const b = apps.flatMap((a) => a.windows).find((x) => x.window === w.atspi)?.bounds;
    return { x: x + (b?.x ?? 0), y: y + (b?.y ?? 0) };
  }

  /** Pointer or keyboard input through XTest. */
  async input(input: PixelInput, signal: AbortSignal): Promise<CallToolResult> {
    await this.#atspi.input(input, signal);
    return ok(`${input.kind} done`, { path: "x11_pixel", effect: "unverifiable" });
  }

  /** `get_desktop_state` (no window) or a window's pixels. */
  async capture(window: string | undefined, signal: AbortSignal): Promise<Capture> {
    return await this.#atspi.capture(window, signal);
  }

  /** `zoom`: a window region (window-local points), as PNG. */
  async zoom(args: Args, signal: AbortSignal): Promise<CallToolResult> {
    const w = await this.#window(args, signal);
    if (!w) return fail(`No window ${args.window_id}`);
    const shot = await this.#atspi.capture(w.atspi, signal);
    const [x1, y1, x2, y2] = [args.x1, args.y1, args.x2, args.y2].map((v) => num(v) ?? 0);
    const rect = {
      x: shot.origin.x + Math.min(x1!, x2!),
      y: shot.origin.y + Math.min(y1!, y2!),
      w: Math.max(1, Math.abs(x2! - x1!)),
      h: Math.max(1, Math.abs(y2! - y1!)),
    };
    return ok("zoomed", {}, encodePng(cropCapture(shot, rect)));
  }

  /** Releases the AT-SPI connection. */
  async close(): Promise<void> {
    await this.#atspi.close();
  }
}
