/**
 * The MCP tool catalogue: thirteen tools over the driver's ops. Inputs come from the op
 * table's zod schemas and descriptions from its summaries, so the catalogue follows the
 * protocol; answers are compact texts (see render.ts), screenshots are MCP images.
 *
 * @module
 */
import { z } from "zod";
import { DriverError } from "../protocol/errors.ts";
import { OPS, type ParamsOf, type ResultOf } from "../protocol/ops.ts";
import { batchInputSchema, pixelInputSchema, type PixelOp } from "./schema.ts";
import { type ReadArgs, Reads } from "./reads.ts";
import { FENCE_NOTE, fenced } from "./untrusted.ts";
import {
  renderAct,
  renderApps,
  renderBatch,
  renderClose,
  renderFind,
  renderLaunch,
  renderVerify,
  renderWindow,
} from "./render.ts";

/** Calls one driver op with params already checked against the tool's input. */
export type CallOp = <N extends keyof typeof OPS>(op: N, params: unknown) => Promise<ResultOf<N>>;

/** One block of a tool's answer. */
export type Content =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string };

/** One tool of the catalogue. */
export interface Tool {
  /** Tool name, also the name `--ops` selects it by. */
  name: string;
  /** What the model reads to choose the tool. */
  description: string;
  /** Input schema, derived from the protocol's. */
  input: z.ZodType;
  /** The tool waits on its `timeout_ms` (verify): the one tool that offers it to a model. */
  waits?: boolean;
  /**
   * MCP tool annotations: a title, and hints a client shows or acts on (asking before a
   * destructive call).
   */
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
  };
  /**
   * What the answer's `structuredContent` holds (its `outputSchema`): the few fields a
   * client acts on (version, window, ids), beside the text a model reads.
   */
  output?: z.ZodObject;
  /** Runs the tool on input that passed `input`; `structured` matches `output`. */
  run(
    args: Record<string, unknown>,
    call: CallOp,
  ): Promise<Content[] | { content: Content[]; structured: Record<string, unknown> }>;
}

const text = (t: string): Content[] => [{ type: "text", text: t }];
/** A `screenshot` or `zoom` answer: the PNG as an MCP image, and its size. */
const image = (r: ResultOf<"screenshot">): Content[] => [
  { type: "image", data: r.png, mimeType: "image/png" },
  { type: "text", text: `width=${r.width} height=${r.height} scale=${r.scale}` },
];
/** The text a model reads and the fields a client acts on. */
const both = (t: string, structured: Record<string, unknown>) => ({
  content: text(t),
  structured,
});
/** `structuredContent` of the tools that answer a version (and ok, or ids). */
const Versioned = z.strictObject({ window: z.string(), version: z.number().int() });
const Done = z.strictObject({ ok: z.boolean(), version: z.number().int() });

/** `pixel_input` kinds and the ops they run. */
const PIXEL_KINDS: Record<string, PixelOp> = {
  click: "pixel_click",
  type: "pixel_type_text",
  key: "pixel_key",
  scroll: "pixel_scroll",
  move: "pixel_move",
  drag: "pixel_drag",
};

/** Outlines leave bounds out unless asked: they were a fifth of every line. */
const BOUNDS = z.boolean().optional().describe("add @x,y,w,h to lines");

/** What the tools remember of each window between calls (reads.ts). */
const READS = new Reads();

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: readonly Tool[] = [
  {
    name: "read_ui",
    description: `${OPS.read_ui.summary} A header, then per element id role "name" [value] ` +
      `flags, indented under its parent; a diff is + added, ~ changed, - removed. ${FENCE_NOTE}`,
    input: OPS.read_ui.params.omit({ crops: true }).extend({
      scope: z.enum(["page", "window", "all"]).optional().describe(
        "window: with browser bars; all: whole page, beyond the view",
      ),
      bounds: BOUNDS,
      max_elements: z.number().int().min(1).optional().describe("most lines a page"),
      max_bytes: z.number().int().min(1000).optional().describe("most bytes a page (50000)"),
      cursor: z.string().optional().describe("next page of a cut read"),
    }),
    annotations: { title: "Read window", readOnlyHint: true },
    output: Versioned,
    async run(args, call) {
      const r = await READS.read(args as ReadArgs, call);
      return both(r.text, { ...r.meta });
    },
  },
  {
    name: "act",
    description: OPS.act.summary,
    input: OPS.act.params,
    annotations: { title: "Act on element", destructiveHint: true },
    output: Done,
    async run(args, call) {
      const r = await call("act", args);
      const cut = READS.diff(String(args.window), r);
      return both(renderAct({ ...r, ...cut.shown }, cut), { ok: r.ok, version: r.version });
    },
  },
  {
    name: "run_batch",
    description: `${OPS.run_batch.summary} Ids resolve against the planned version.`,
    input: batchInputSchema(),
    annotations: { title: "Run steps", destructiveHint: true },
    output: Done,
    async run(args, call) {
      const r = await call("run_batch", args);
      const cut = READS.diff(String(args.window), r);
      return both(renderBatch({ ...r, ...cut.shown }, cut), {
        ok: r.ok,
        version: r.version,
      });
    },
  },
  {
    name: "verify",
    description: `${OPS.verify.summary} timeout_ms waits.`,
    input: OPS.verify.params,
    waits: true,
    annotations: { title: "Wait for element", readOnlyHint: true },
    run: async (args, call) => text(renderVerify(await call("verify", args))),
  },
  {
    name: "find",
    description: `${OPS.find.summary} Answers outline lines.`,
    input: OPS.find.params.extend({ bounds: BOUNDS }),
    annotations: { title: "Find elements", readOnlyHint: true },
    output: z.strictObject({ version: z.number().int(), ids: z.array(z.string()) }),
    async run(args, call) {
      const { bounds, ...p } = args as ParamsOf<"find"> & { bounds?: boolean };
      const r = await call("find", p);
      return both(renderFind(r, bounds), { version: r.version, ids: r.elements.map((e) => e.id) });
    },
  },
  {
    name: "screenshot",
    description: OPS.screenshot.summary,
    input: OPS.screenshot.params,
    annotations: { title: "Screenshot", readOnlyHint: true },
    run: async (args, call) => image(await call("screenshot", args)),
  },
  {
    name: "zoom",
    description: OPS.zoom.summary,
    input: OPS.zoom.params,
    annotations: { title: "Zoom", readOnlyHint: true },
    run: async (args, call) => image(await call("zoom", args)),
  },
  {
    name: "pixel_input",
    description: "Pointer and keys at screen points (read_ui bounds: true shows them). " +
      "Prefer act on ids.",
    input: pixelInputSchema(PIXEL_KINDS),
    annotations: { title: "Pointer and keys", destructiveHint: true },
    async run(args, call) {
      const { kind, ...params } = args;
      const op = PIXEL_KINDS[String(kind)];
      if (!op) {
        throw new DriverError("invalid_params", `Unknown pixel_input kind "${String(kind)}"`);
      }
      await call(op, params);
      return text(`ok ${op}`);
    },
  },
  {
    name: "window",
    description: `${OPS.window.summary} close asks politely: an unsaved-changes dialog ` +
      "comes back in opened.",
    input: OPS.window.params,
    annotations: { title: "Window operation", destructiveHint: true },
    run: async (args, call) => text(renderWindow(await call("window", args))),
  },
  {
    name: "launch_app",
    description: OPS.launch_app.summary,
    input: OPS.launch_app.params,
    annotations: { title: "Launch app", destructiveHint: false },
    run: async (args, call) => text(renderLaunch(await call("launch_app", args))),
  },
  {
    name: "close_app",
    description: `${OPS.close_app.summary} An unsaved-changes question comes back in ` +
      "opened.",
    input: OPS.close_app.params,
    annotations: { title: "Close app", destructiveHint: true },
    run: async (args, call) => text(renderClose(await call("close_app", args))),
  },
  {
    name: "clipboard",
    description: "The clipboard's text; with text, puts it there for any app to paste.",
    input: OPS.clipboard_get.params.extend({
      text: OPS.clipboard_set.params.shape.text.optional(),
    }),
    annotations: { title: "Clipboard", destructiveHint: false },
    async run(args, call) {
      const { text: put, max_bytes: _, ...rest } = args;
      if (typeof put === "string") {
        const r = await call("clipboard_set", { ...rest, text: put });
        return text(`ok ${r.selection} holds ${r.bytes} bytes`);
      }
      const r = await call("clipboard_get", args);
      if (r.text === null) return text(`${r.selection} is empty`);
      return text(
        [`${r.selection}${r.truncated ? " truncated" : ""}:`, ...fenced([r.text])].join("\n"),
      );
    },
  },
  {
    name: "list_apps",
    description: `${OPS.list_apps.summary} Answers window ids for read_ui.`,
    input: OPS.list_apps.params,
    annotations: { title: "List apps", readOnlyHint: true },
    run: async (args, call) => text(renderApps(await call("list_apps", args))),
  },
];

/** Every tool name, in catalogue order. */
export const TOOL_NAMES: readonly string[] = TOOLS.map((t) => t.name);

/**
 * The tools `--ops` names (comma separated), in catalogue order; all of them when
 * `list` is undefined.
 *
 * @throws {Error} when a name is not a tool, listing the tools there are.
 */
export function selectTools(list?: string): Tool[] {
  if (list === undefined) return [...TOOLS];
  const wanted = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const unknown = wanted.filter((n) => !TOOL_NAMES.includes(n));
  if (unknown.length > 0 || wanted.length === 0) {
    const bad = unknown.length > 0 ? `Unknown tool "${unknown.join('", "')}"` : "No tools named";
    throw new Error(`${bad} in --ops: choose from ${TOOL_NAMES.join(", ")}`);
  }
  return TOOLS.filter((t) => wanted.includes(t.name));
}
