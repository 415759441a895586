/**
 * `clipboard_get` and `clipboard_set`: the desktop's clipboard and primary selection, read
 * and owned by the engine itself (on X, as a selection requestor and owner: no xclip).
 * The text is never logged: the audit log records the op, not what was copied.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import type { HandlerResultOf, ParamsOf } from "../../protocol/ops.ts";
import type { CallContext } from "../../rpc/dispatcher.ts";
import type { DriverCore } from "../core.ts";

/** Default most bytes a read answers. */
const MAX_BYTES = 1024 * 1024;

/** Serves `clipboard_get`. */
export async function clipboardGet(
  core: DriverCore,
  p: ParamsOf<"clipboard_get">,
  ctx: CallContext,
): Promise<HandlerResultOf<"clipboard_get">> {
  const engine = core.engine(ctx.engine);
  if (!engine.clipboardGet) {
    throw new DriverError("action_not_supported", `The ${engine.name} engine has no clipboard`);
  }
  const selection = p.selection ?? "clipboard";
  const got = await engine.clipboardGet(selection, p.max_bytes ?? MAX_BYTES, ctx.signal);
  return {
    selection,
    text: got?.text ?? null,
    ...(got?.truncated ? { truncated: true } : {}),
    engine: engine.name,
  };
}

/** Serves `clipboard_set`. */
export async function clipboardSet(
  core: DriverCore,
  p: ParamsOf<"clipboard_set">,
  ctx: CallContext,
): Promise<HandlerResultOf<"clipboard_set">> {
  const engine = core.engine(ctx.engine);
  if (!engine.clipboardSet) {
    throw new DriverError("action_not_supported", `The ${engine.name} engine has no clipboard`);
  }
  const selection = p.selection ?? "clipboard";
  await engine.clipboardSet(selection, p.text, ctx.signal);
  return {
    ok: true,
    selection,
    bytes: new TextEncoder().encode(p.text).length,
    engine: engine.name,
  };
}
