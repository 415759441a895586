/**
 * docs/ops.md, written from the op table ({@link OPS}): each op's kind, summary, params
 * and result fields, so the docs list exactly the ops `hello` does, with the fields their
 * schemas take. `deno task docs` rewrites the file; a test fails when it is out of date.
 *
 * @module
 */
import type { z } from "zod";
import { OP_NAMES, OPS } from "./ops.ts";

/** Where the generated reference lives, from the repository root. */
export const OPS_DOC = "docs/ops.md";

/** The field names of an object schema (optional ones marked `?`); none for others. */
function fieldsOf(schema: z.ZodType): string[] {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (shape === undefined) return [];
  return Object.entries(shape).map(([key, field]) =>
    field.safeParse(undefined).success ? `${key}?` : key
  );
}

/** The markdown of docs/ops.md. */
export function opsMarkdown(): string {
  const lines = [
    "# Ops",
    "",
    "Written by `deno task docs` from the op table (`protocol/ops.ts`): the ops `hello` lists,",
    "with the fields their schemas take (`?`: optional). What each field means is in",
    "[protocol.md](protocol.md) and the schemas' own comments (`protocol/params.ts`,",
    "`protocol/results.ts`).",
    "",
  ];
  for (const name of OP_NAMES) {
    const spec = OPS[name];
    const params = fieldsOf(spec.params);
    const result = fieldsOf(spec.result);
    lines.push(`## ${name}`, "", `${spec.summary} (${spec.kind})`, "");
    lines.push(
      `- params: ${
        params.length > 0 ? params.map((f) => `\`${f}\``).join(", ") : "see the schema"
      }`,
    );
    lines.push(
      `- result: ${
        result.length > 0 ? result.map((f) => `\`${f}\``).join(", ") : "see the schema"
      }`,
    );
    lines.push("");
  }
  return lines.join("\n");
}

if (import.meta.main) {
  await Deno.writeTextFile(new URL(`../${OPS_DOC}`, import.meta.url), opsMarkdown());
}
