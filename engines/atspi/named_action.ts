/**
 * An element's own actions by name (AT-SPI `Action`), and the point a pixel click aims at
 * when it has none: what every AT-SPI action path shares.
 *
 * @module
 */
import { DriverError } from "../../protocol/errors.ts";
import { DBusError } from "../../platform/dbus/mod.ts";
import type { PixelInput, RawNode } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import { STATE } from "./states.ts";

/** Sends pixel input (the engine's X11 backend). */
export type Input = (input: PixelInput) => Promise<void>;

/** Most actions one element is asked the names of. */
const MAX_ACTIONS = 16;

/**
 * `action_not_supported` for `node`, saying `why`; by default, what the element does offer,
 * so the sentence ends with what the caller can do instead.
 */
export function refused(node: RawNode, action: string, why?: string): DriverError {
  const offers = node.actions.length > 0
    ? `its actions are ${node.actions.join(", ")}`
    : "it offers no action";
  return new DriverError(
    "action_not_supported",
    `Cannot ${action} "${node.name || node.role}": ${why ?? offers}`,
    { actions: node.actions },
  );
}

/** The centre of the node's (visible) bounds; refused when it has no area. */
export function centre(node: RawNode): { x: number; y: number } {
  const b = node.bounds;
  if (b.w <= 0 || b.h <= 0) {
    throw new DriverError("action_not_supported", `Element "${node.name}" has no on-screen area`, {
      actions: node.actions,
    });
  }
  return { x: Math.round(b.x + b.w / 2), y: Math.round(b.y + b.h / 2) };
}

/**
 * The element's action names, by index. Asked one by one (`GetName`), as libatspi does:
 * Gecko answers the bulk `GetActions` with ";;" for every field, so a press found no
 * "press" and fell back to a pixel click.
 */
export async function actionNames(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<string[]> {
  const n = Math.min(Number(await client.prop(ref, "Action", "NActions", limits)), MAX_ACTIONS);
  return await Promise.all(
    Array.from({ length: Math.max(0, n) }, async (_, i) => {
      const [name] = await client.call(ref, "Action", "GetName", limits, "i", [i]);
      return String(name ?? "").toLowerCase();
    }),
  );
}

/** Throws `element_not_found` when the object behind `ref` is gone or defunct. */
export async function alive(client: AtspiClient, ref: Ref, limits: CallLimits): Promise<void> {
  if ((await client.states(ref, limits)).has(STATE.DEFUNCT)) {
    throw new DriverError("element_not_found", `Element "${ref.path}" is gone`);
  }
}

/**
 * Does the first of `prefs` the element names among its actions; false when it has none
 * of them (or no Action interface at all), so the caller can fall back.
 */
export async function doNamedAction(
  client: AtspiClient,
  ref: Ref,
  node: RawNode,
  prefs: readonly string[],
  limits: CallLimits,
): Promise<boolean> {
  // No Action interface, or one with no action (GTK 4 puts it on every widget): the tree
  // read said so, and asking again would only fail.
  if (!node.actions.includes("press")) return false;
  return await doActionNamed(client, ref, prefs, limits);
}

/**
 * Does the first of `prefs` that object `ref` names among its actions, for an object the
 * map has not read (a combo box above an option); false when it has none of them.
 */
export async function doActionNamed(
  client: AtspiClient,
  ref: Ref,
  prefs: readonly string[],
  limits: CallLimits,
): Promise<boolean> {
  let names: string[];
  try {
    names = await actionNames(client, ref, limits);
  } catch (err) {
    if (!(err instanceof DriverError && err.code === "element_not_found")) throw err;
    // The bus says the same for an object without the interface and for one that is gone
    // (Gecko replaces a disclosure's object when it opens): a gone one is the caller's to
    // find again, not a reason to click where it used to be.
    await alive(client, ref, limits);
    return false;
  }
  for (const want of prefs) {
    // GTK 4 names actions by their widget's action group: "listitem.expand".
    const i = names.findIndex((name) => name === want || name.endsWith(`.${want}`));
    if (i >= 0) return await doAction(client, ref, i, limits);
  }
  return false;
}

/**
 * How long a `DoAction` reply is waited for. Qt answers only when the slot it ran returns,
 * and a slot that opens a modal dialog returns when the dialog closes: the action was
 * done, the reply is just never coming while the dialog shows.
 */
const DO_ACTION_MS = 1_500;

async function doAction(
  client: AtspiClient,
  ref: Ref,
  index: number,
  limits: CallLimits,
): Promise<boolean> {
  try {
    // On a connection of its own: the action may run a modal dialog's loop inside the
    // call (client.ts, callAlone).
    const [ok] = await client.callAlone(
      ref,
      "Action",
      "DoAction",
      {
        ...limits,
        timeoutMs: Math.min(limits.timeoutMs, DO_ACTION_MS),
      },
      "i",
      [index],
    );
    return ok !== false;
  } catch (err) {
    // Sent and not answered: done as far as anyone can tell; what it did (a dialog) is
    // for the settle that follows to see.
    if (err instanceof DriverError && err.code === "timeout") return true;
    throw err;
  }
}

/**
 * Asks the toolkit to move the keyboard focus to `ref` (`Component.GrabFocus`): its
 * answer, or `unsupported` when the toolkit takes no such request (GTK 4 answers D-Bus
 * `NotSupported`, which left a raw bus error in the agent's answer).
 */
export async function grabFocus(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
): Promise<boolean | "unsupported"> {
  try {
    const [ok] = await client.call(ref, "Component", "GrabFocus", limits);
    return ok !== false;
  } catch (err) {
    const name = err instanceof DBusError ? err.errorName : "";
    if (name === "org.freedesktop.DBus.Error.NotSupported") return "unsupported";
    throw err;
  }
}

/**
 * Readies element `ref` for keys: it takes the focus, and the pointer rests on it at `at`
 * (with no window manager, X sends keys to the window under the pointer). A toolkit that
 * takes no focus request (GTK 4) has the element clicked into there, as a user does.
 */
export async function focusForKeys(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  at: { x: number; y: number },
  limits: CallLimits,
): Promise<void> {
  const grabbed = await grabFocus(client, ref, limits);
  await input(
    grabbed === "unsupported"
      ? { kind: "click", ...at, button: "left", count: 1 }
      : { kind: "move", ...at, keyboard: true },
  );
}
