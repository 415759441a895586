/**
 * The JSON shape of an AX fixture: a dump of one app's elements with their attributes and
 * action names, as a recorder on a Mac would write it, plus named variants (patches) that
 * model the same app after something changed. Attribute values use a small JSON encoding
 * of the CF types accessibility answers with (see {@link axValueFromJson}).
 *
 * @module
 */
import { z } from "zod";
import { AX_ERROR, type AxErrorName } from "../../ffi/macos/ax_error.ts";
import type { AxValue } from "./source.ts";

/** An attribute value as written in a fixture. */
export type JsonAxValue =
  | string
  | number
  | boolean
  | null
  | { x: number; y: number }
  | { w: number; h: number }
  | { x: number; y: number; w: number; h: number }
  | { location: number; length: number }
  | { ref: string }
  | { url: string }
  | { error: string }
  | JsonAxValue[];

const JsonAxValue: z.ZodType<JsonAxValue> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }).strict(),
    z.object({ x: z.number(), y: z.number() }).strict(),
    z.object({ w: z.number(), h: z.number() }).strict(),
    z.object({ location: z.number(), length: z.number() }).strict(),
    z.object({ ref: z.string() }).strict(),
    z.object({ url: z.string() }).strict(),
    z.object({ error: z.string() }).strict(),
    z.array(JsonAxValue),
  ])
);

/** One element of a fixture. */
export interface FixtureNode {
  /** Unique within the fixture; the source's handle is `<pid>:<id>`. */
  id: string;
  /** Attribute name -> value (`AXChildren` is implied by `children`). */
  attributes: Record<string, JsonAxValue>;
  /** `AXUIElementCopyActionNames`. */
  actions?: string[] | undefined;
  /** The window server's id, for window elements. */
  window_number?: number | undefined;
  /** Children in order. */
  children?: FixtureNode[] | undefined;
}

const FixtureNode: z.ZodType<FixtureNode> = z.lazy(() =>
  z.object({
    id: z.string().min(1),
    attributes: z.record(z.string(), JsonAxValue),
    actions: z.array(z.string()).optional(),
    window_number: z.number().int().optional(),
    children: z.array(FixtureNode).optional(),
  }).strict()
);

/** A change to apply for a variant. */
export const FixturePatch = z.union([
  z.object({ id: z.string(), set: z.record(z.string(), JsonAxValue) }).strict(),
  z.object({ id: z.string(), remove: z.literal(true) }).strict(),
  z.object({ parent: z.string(), insert: FixtureNode, at: z.number().int().optional() })
    .strict(),
]);
/** A change to apply for a variant. */
export type FixturePatch = z.infer<typeof FixturePatch>;

/** A whole fixture file. */
export const FixtureDump = z.object({
  provenance: z.string().min(1),
  app: z.object({ pid: z.number().int().positive(), name: z.string(), active: z.boolean() })
    .strict(),
  root: FixtureNode,
  variants: z.record(z.string(), z.array(FixturePatch)).default({}),
}).strict();
/** A whole fixture file. */
export type FixtureDump = z.infer<typeof FixtureDump>;

/**
 * Decodes one fixture value.
 *
 * @param v The JSON value.
 * @param handleOf Turns a `{ref}` id into the source's handle.
 */
export function axValueFromJson(v: JsonAxValue, handleOf: (id: string) => string): AxValue {
  if (v === null) return { kind: "none", status: AX_ERROR.kAXErrorNoValue };
  if (typeof v === "string") return { kind: "string", value: v };
  if (typeof v === "number") return { kind: "number", value: v };
  if (typeof v === "boolean") return { kind: "bool", value: v };
  if (Array.isArray(v)) return { kind: "array", items: v.map((i) => axValueFromJson(i, handleOf)) };
  if ("ref" in v) return { kind: "element", element: handleOf(v.ref) };
  if ("url" in v) return { kind: "url", value: v.url };
  if ("error" in v) {
    const status = AX_ERROR[v.error as AxErrorName] ?? AX_ERROR.kAXErrorFailure;
    return { kind: "none", status };
  }
  if ("location" in v) return { kind: "range", location: v.location, length: v.length };
  if ("x" in v && "w" in v) return { kind: "rect", x: v.x, y: v.y, w: v.w, h: v.h };
  if ("x" in v) return { kind: "point", x: v.x, y: v.y };
  return { kind: "size", w: v.w, h: v.h };
}

/** Parses and validates a fixture file's text. */
export function parseFixture(text: string, origin = "fixture"): FixtureDump {
  const parsed = FixtureDump.safeParse(JSON.parse(text));
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(
      `Cannot read ${origin}: ${first?.path.join(".") || "(root)"}: ${first?.message}`,
    );
  }
  return parsed.data;
}
