/**
 * Tool input schemas derived from the protocol's zod schemas (protocol/params.ts), so the
 * MCP catalogue cannot drift from what the dispatcher validates. JSON Schema comes from
 * zod's own converter, then loses only what carries no meaning for a model.
 *
 * @module
 */
import { z } from "zod";
import { OPS } from "../protocol/ops.ts";
import { ElementAction, PixelStep } from "../protocol/params.ts";

/** A JSON Schema object as MCP's `tools/list` carries it. */
export type JsonSchema = { type: "object" } & Record<string, unknown>;

/** The params schema of every `pixel_*` op the one `pixel_input` tool stands for. */
export type PixelOp =
  | "pixel_click"
  | "pixel_type_text"
  | "pixel_key"
  | "pixel_scroll"
  | "pixel_move"
  | "pixel_drag";

/**
 * Drops what only repeats a default (JavaScript's safe-integer bounds, `$schema`) and the
 * string length caps: they guard the driver against runaway clients (the dispatcher still
 * refuses, naming the field) and would cost every model's context for nothing.
 */
function compact(node: unknown, nested = false): unknown {
  if (Array.isArray(node)) return node.map((n) => compact(n, nested));
  if (typeof node !== "object" || node === null) return node;
  const obj = node as Record<string, unknown>;
  // A small object whose description spells its members (`{x, y}`) is not spelled twice.
  if (obj.type === "object" && String(obj.description ?? "").startsWith("{")) {
    return { type: "object", description: obj.description };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "maxLength") continue;
    // "Not empty" is the dispatcher's to say; a model never sends an empty id on purpose.
    if (key === "minLength" && value === 1) continue;
    // Bounds this wide guard the driver (coordinates, deadlines, wheel steps); they say
    // nothing a model needs, nor does a count's or version's floor of 0. Narrow ones (a
    // click count of 1 to 3) stay.
    if ((key === "maximum" || key === "minimum") && Math.abs(Number(value)) >= GUARD_BOUND) {
      continue;
    }
    if (key === "minimum" && value === 0) continue;
    // A count's floor of 1 and a pid's of 0 go without saying; a narrow range (1 to 3) stays.
    if (key === "minimum" && value === 1 && !("maximum" in obj)) continue;
    if (key === "exclusiveMinimum" && value === 0) continue;
    // How many steps or arguments at most guards the driver, like a string's length.
    if (key === "maxItems") continue;
    // An enum says its type.
    if (key === "type" && Array.isArray((node as Record<string, unknown>).enum)) continue;
    // Strictness is the dispatcher's to enforce (it names an unknown field).
    if (key === "additionalProperties" && value === false) continue;
    // "Anything more" is what JSON Schema assumes; `{}` spelled it as an untyped schema.
    if (key === "additionalProperties" && isEmptyObject(value)) continue;
    // A batch step's own deadline is the batch's: not offered inside a step.
    if (nested && key === "timeout_ms") continue;
    out[key] = compact(value, nested || key === "items");
  }
  return out;
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.keys(value).length === 0;
}

/** Numeric bounds at least this wide are guards, not meaning (see {@link compact}). */
const GUARD_BOUND = 1_000;

/**
 * The JSON Schema of a tool's input, as a client should fill it (the input side of any
 * transform). MCP wants an object at the top; every tool input here is one.
 */
export function toolJsonSchema(schema: z.ZodType, waits = false): JsonSchema {
  const json = compact(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }));
  const obj = json as Record<string, unknown>;
  // Every op takes a deadline; only a tool that waits on it (verify) offers it to a model.
  const props = obj.properties as Record<string, unknown> | undefined;
  if (!waits && props) delete props.timeout_ms;
  if (obj.type !== "object") {
    throw new Error(`Cannot use a schema of type "${String(obj.type)}" as a tool input`);
  }
  return obj as JsonSchema;
}

/**
 * One object schema standing for several `pixel_*` ops: `kind` picks the op, the other
 * members are the union of those ops' fields, all optional here because which ones are
 * required depends on `kind`; the op's own strict schema checks that when it runs.
 */
export function pixelInputSchema(kinds: Record<string, PixelOp>): z.ZodObject {
  const names = Object.keys(kinds);
  if (names.length === 0) throw new Error("Cannot build pixel_input without kinds");
  const shape: Record<string, z.ZodType> = {
    kind: z.enum(names as [string, ...string[]]).describe("which input"),
  };
  for (const op of Object.values(kinds)) {
    for (const [key, field] of Object.entries(OPS[op].params.shape)) {
      // Same-named fields have the same meaning in every pixel op (x, y, timeout_ms).
      if (!(key in shape)) shape[key] = (field as z.ZodType).optional();
    }
  }
  return z.strictObject(shape);
}

/** `x, y, button?, count?`: the fields of `op`, optional ones marked, without `timeout_ms`. */
export function fieldList(op: PixelOp): string {
  return Object.entries(OPS[op].params.shape)
    .filter(([key]) => key !== "timeout_ms")
    .map(([key, field]) => (field as z.ZodType).safeParse(undefined).success ? `${key}?` : key)
    .join(", ");
}

/**
 * `run_batch`'s input with one step shape instead of the protocol's union of seven: an
 * element action (`id`, `action`, …) or, with `op`, a pixel op with `pixel_input`'s fields,
 * which are not listed again. The union's schema repeated every pixel op's fields (1.3 KB
 * of the catalogue, 0.6 KB in one shape); the dispatcher still checks each step against
 * its own strict schema when the batch runs.
 */
export function batchInputSchema(): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(ElementAction)) {
    // Said once, on act, just above in the catalogue.
    const as = key === "id" ? field as z.ZodType : (field as z.ZodType).describe("as in act");
    shape[key] = as.optional();
  }
  // The protocol's own pixel ops; their fields are pixel_input's, not listed again.
  const ops = PixelStep.options.map((o) => o.shape.op.value);
  shape.op = z.enum(ops as [string, ...string[]]).optional().describe(
    "or a pixel step: op and its pixel_input fields (x, y, text, keys…)",
  );
  const about = OPS.run_batch.params.shape.steps.description ?? "";
  return OPS.run_batch.params.extend({
    steps: z.array(z.looseObject(shape)).min(1).max(200).describe(about),
  });
}
