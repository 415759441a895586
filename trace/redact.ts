/**
 * Keeps secrets out of traces. Answers never hold them (the driver leaves a secret's
 * value out of every answer); params do: the text of a `set_value` or `type_text` marked
 * `secret` or aimed at a password field, and `clipboard_set`'s text. Those are replaced by
 * {@link SECRET_MARKER} before a line is written. When it cannot be told whether an
 * element was a password field (the op failed, and no map of the window was recorded),
 * the text is treated as a secret: a missing value costs a reader less than a leaked one.
 *
 * @module
 */
import { SECURE_ROLE } from "../map/snapshot.ts";
import type { ElementIndex } from "./elements.ts";
import { SECRET_MARKER } from "./format.ts";

/** Is the text of this element step a secret? */
function secretStep(
  step: Record<string, unknown>,
  window: string | undefined,
  elements: ElementIndex,
  answered: Record<string, unknown> | undefined,
): boolean {
  if (step.secret === true || answered?.secret === true) return true;
  const id = typeof step.id === "string" ? step.id : undefined;
  const known = window !== undefined && id !== undefined ? elements.find(window, id) : undefined;
  if (known) return known.role === SECURE_ROLE;
  // Unknown element: only an answer that took the step, with no secret flag, clears it.
  return answered === undefined || answered.error !== undefined;
}

/** A step with its text replaced when it is a secret's. */
function redactStep(
  step: Record<string, unknown>,
  window: string | undefined,
  elements: ElementIndex,
  answered: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (typeof step.value !== "string") return step;
  return secretStep(step, window, elements, answered) ? { ...step, value: SECRET_MARKER } : step;
}

/**
 * `params` of `op` as a trace may hold them. `answer` is the op's answer (undefined when
 * it failed); `elements` what is known of the window's elements before the op ran.
 */
export function redactParams(
  op: string,
  params: Record<string, unknown>,
  answer: Record<string, unknown> | undefined,
  elements: ElementIndex,
): Record<string, unknown> {
  const window = typeof params.window === "string" ? params.window : undefined;
  if (op === "clipboard_set") {
    return typeof params.text === "string" ? { ...params, text: SECRET_MARKER } : params;
  }
  if (op === "act") return redactStep(params, window, elements, answer);
  if (op === "run_batch" && Array.isArray(params.steps)) {
    const results = Array.isArray(answer?.results) ? answer.results : [];
    const steps = params.steps.map((s: unknown, i: number) => {
      if (typeof s !== "object" || s === null || "op" in s) return s;
      const r = results[i];
      const answered = typeof r === "object" && r !== null && r.skipped !== true
        ? r as Record<string, unknown>
        : undefined;
      return redactStep(s as Record<string, unknown>, window, elements, answered);
    });
    return { ...params, steps };
  }
  return params;
}
