/**
 * Driver errors as MCP tool errors: the text starts with our `data.code` and carries what
 * the model needs to recover, so a stale plan is re-planned from the answer itself
 * (`stale_version` includes the current map as an outline) without another call.
 *
 * @module
 */
import type { Element } from "../protocol/element.ts";
import { toRpcError } from "../protocol/errors.ts";
import { header, outline } from "./outline.ts";
import { DEFAULT_BUDGET } from "./render.ts";
import { fenced } from "./untrusted.ts";

/**
 * The MCP answer of a failed tool call: one text block, and `isError` so the model sees
 * it as the tool's answer rather than a protocol failure. (A type alias, not an
 * interface, so it fits the SDK's open result type.)
 */
export type ToolErrorResult = {
  content: { type: "text"; text: string }[];
  isError: true;
};

interface MapData {
  window?: string;
  version?: number;
  elements?: Element[];
}

function isMap(value: unknown): value is MapData {
  return typeof value === "object" && value !== null && Array.isArray(
    (value as MapData).elements,
  );
}

/** The lines describing one `error.data` member. */
function dataLines(key: string, value: unknown, message: string): string[] {
  if (key === "map" && isMap(value)) {
    const elements = value.elements ?? [];
    const o = outline(elements, DEFAULT_BUDGET);
    const more = o.omitted > 0 ? [`… ${o.omitted} more not shown`] : [];
    return [
      `current map: ${
        header({ window: value.window, version: value.version, elements: elements.length })
      }`,
      ...fenced(o.lines),
      ...more,
    ];
  }
  if (key === "issues" && Array.isArray(value)) {
    return [
      "issues:",
      ...value.map((i: { path?: unknown[]; message?: string }) =>
        `  ${(i.path ?? []).join(".") || "(params)"}: ${i.message ?? ""}`
      ),
    ];
  }
  if (key === "message" && value === message) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === "string")) {
    return [`${key}=${value.join(",")}`];
  }
  return [`${key}=${typeof value === "object" ? JSON.stringify(value) : String(value)}`];
}

/** Turns anything thrown by a tool into its MCP tool error. */
export function toolError(err: unknown): ToolErrorResult {
  const { message, data } = toRpcError(err);
  const { code, ...rest } = data;
  const lines = [`error ${code}: ${message}`];
  for (const [key, value] of Object.entries(rest)) lines.push(...dataLines(key, value, message));
  return { content: [{ type: "text", text: lines.join("\n") }], isError: true };
}
