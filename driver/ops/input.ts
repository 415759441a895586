/**
 * `pixel_*` and `hold_key`: screen-wide pointer and keyboard input.
 *
 * @module
 */
import type { PixelInput } from "../../model/engine.ts";
import type { BatchStep } from "../../protocol/params.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";

/** A pixel op's params, tagged with the op name (as in a batch step). */
export type PixelStep =
  | Exclude<BatchStep, { id: string }>
  | ({ op: "hold_key" } & ParamsOf<"hold_key">);

/** Turns a pixel op's params into the engine's input description. */
export function pixelInputOf(step: PixelStep): PixelInput {
  switch (step.op) {
    case "pixel_click":
      return {
        kind: "click",
        x: step.x,
        y: step.y,
        button: step.button ?? "left",
        count: step.count ?? 1,
      };
    case "pixel_move":
      return { kind: "move", x: step.x, y: step.y };
    case "pixel_drag":
      return { kind: "drag", from: step.from, to: step.to };
    case "pixel_scroll":
      return {
        kind: "scroll",
        dx: step.dx,
        dy: step.dy,
        ...(step.x !== undefined ? { x: step.x } : {}),
        ...(step.y !== undefined ? { y: step.y } : {}),
      };
    case "pixel_type_text":
      return { kind: "type", text: step.text };
    case "pixel_key":
      return { kind: "key", keys: step.keys };
    case "hold_key":
      return { kind: "hold", key: step.key, ms: step.ms };
  }
}

/** Serves one pixel op. */
export async function pixel(
  core: DriverCore,
  step: PixelStep,
  ctx: CallContext,
): Promise<HandlerResultOf<"pixel_click">> {
  const engine = core.engine(ctx.engine);
  const window = "window" in step ? step.window : undefined;
  await engine.input(pixelInputOf(step), ctx.signal, window);
  return { ok: true, engine: engine.name };
}
