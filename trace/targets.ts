/**
 * The elements an op acts on, for a trace line: an `act`'s element, a batch's element
 * steps, each with its role, name and bounds as the trace last saw them (the viewer
 * outlines them on the screenshots).
 *
 * @module
 */
import type { ElementIndex } from "./elements.ts";
import type { OpLine } from "./format.ts";

/** The elements an op acts on, with their bounds as the trace last saw them. */
export function targetsOf(
  elements: ElementIndex,
  op: string,
  params: Record<string, unknown>,
  window: string | undefined,
): NonNullable<OpLine["targets"]> {
  const ids = op === "act" && typeof params.id === "string"
    ? [params.id]
    : op === "run_batch" && Array.isArray(params.steps)
    ? params.steps.flatMap((s: unknown) =>
      typeof s === "object" && s !== null && typeof (s as { id?: unknown }).id === "string"
        ? [(s as { id: string }).id]
        : []
    )
    : [];
  return ids.map((id) => {
    const known = window !== undefined ? elements.find(window, id) : undefined;
    return known
      ? { id: known.id, bounds: known.bounds, role: known.role, name: known.name }
      : { id };
  });
}
