/**
 * `set_value` with a number on an element that holds one (AT-SPI `Value`): a slider, a
 * spin box, a scroll bar. Desktop toolkits take the number through `Value` and emit their
 * own value-changed, as for a user's change, and a spin box so needs no Return (which a
 * dialog takes as its default button). A page does not: Gecko and Chromium change the
 * number and fire no `input` or `change`, so the page never hears of it. There the element
 * is focused and stepped to the number by arrow keys, as a user does with the keyboard.
 * Either way what the element holds is read back: a range clamps and steps what it is
 * given, and a browser reports the new number a moment later.
 *
 * @module
 */
import type { ActOutcome, RawNode } from "../../model/engine.ts";
import { DriverError } from "../../protocol/errors.ts";
import { DBusError, Variant } from "../../platform/dbus/mod.ts";
import { pollUntil } from "../../util/poll.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import type { Known } from "./known.ts";
import { grabFocus, type Input, refused } from "./named_action.ts";

/** How long the number is waited for after it was set or stepped to. */
const READ_BACK_MS = 1_000;
/** Most arrow keys one set sends: a longer way is refused rather than typed for seconds. */
export const MAX_STEPS = 500;

/** Toolkits whose pages hear keys, not `Value`. */
const BROWSERS = new Set(["Gecko", "Chromium"]);

/** Is `ref`'s app a browser, whose pages hear no `Value` change? */
export const inBrowser = (known: Known, ref: Ref): boolean =>
  BROWSERS.has(known.toolkits.get(ref.bus) ?? "");

/** Does the element have a Value interface (as its read learnt, else asked)? */
export async function hasValue(
  client: AtspiClient,
  ref: Ref,
  limits: CallLimits,
  known: Known,
): Promise<boolean> {
  const fixed = known.get(ref)?.ifaces;
  if (fixed) return fixed.has("Value");
  const [ifaces] = (await client.call(ref, "Accessible", "GetInterfaces", limits)) as [string[]];
  return ifaces.includes("org.a11y.atspi.Value");
}

const numberOf = async (client: AtspiClient, ref: Ref, name: string, limits: CallLimits) =>
  Number(await client.prop(ref, "Value", name, limits));

/**
 * A bound or step of the element's Value, NaN when the toolkit has none to give: Gecko
 * and Chromium answer "Get failed" for a number field's MinimumIncrement.
 */
const optionalNumber = (client: AtspiClient, ref: Ref, name: string, limits: CallLimits) =>
  numberOf(client, ref, name, limits).catch((err) => {
    if (err instanceof DBusError && err.errorName === "org.freedesktop.DBus.Error.Failed") {
      return NaN;
    }
    throw err;
  });

/** Reads the element's number until it is `n` or the read-back time passes. */
async function readBack(
  client: AtspiClient,
  ref: Ref,
  n: number,
  limits: CallLimits,
  via: ActOutcome["via"],
): Promise<ActOutcome> {
  const same = (v: number) => Math.abs(v - n) < 1e-9;
  const now = await pollUntil(
    () => numberOf(client, ref, "CurrentValue", limits),
    same,
    READ_BACK_MS,
  );
  return same(now) ? { via } : { via, found: String(now) };
}

/** Sets the element's number to `n` through `Value` and reads back what it holds. */
export async function setNumber(
  client: AtspiClient,
  ref: Ref,
  n: number,
  limits: CallLimits,
): Promise<ActOutcome> {
  await client.call(ref, "org.freedesktop.DBus.Properties", "Set", limits, "ssv", [
    "org.a11y.atspi.Value",
    "CurrentValue",
    new Variant("d", n),
  ]);
  return await readBack(client, ref, n, limits, "action");
}

/**
 * Steps a page's ranged element (`<input type=range>`, a number field) to `n` by arrow
 * keys once it has the focus: the page hears each step. `undefined` when it holds no
 * number to step from, or `n` is more than {@link MAX_STEPS} keys away: the caller types
 * the number instead, or refuses.
 */
export async function stepByKeys(
  client: AtspiClient,
  input: Input,
  ref: Ref,
  node: RawNode,
  n: number,
  limits: CallLimits,
): Promise<ActOutcome | undefined> {
  const [now, min, max, inc] = await Promise.all(
    ["CurrentValue", "MinimumValue", "MaximumValue", "MinimumIncrement"].map((p) =>
      optionalNumber(client, ref, p, limits)
    ),
  );
  // A number field with no min or max says NaN, an infinity or 0 there (Chromium: NaN to
  // 0): a range bounds only when it is two numbers in order, not both 0 (a date's year part
  // limited to 2025 says 2025 to 2025).
  const bounded = Number.isFinite(min) && Number.isFinite(max) &&
    (min! < max! || (min === max && min !== 0));
  const low = bounded ? min! : -Infinity;
  const high = bounded ? max! : Infinity;
  if (!(n >= low && n <= high)) {
    throw new DriverError(
      "invalid_params",
      `Cannot set "${node.name || node.role}" to ${n}: it holds ${min} to ${max}`,
      { issues: [{ path: ["value"], message: `Expected ${min} to ${max}` }] },
    );
  }
  if (!Number.isFinite(now)) return undefined;
  const steps = keySteps(now!, n, low, high, inc);
  if (Math.abs(steps) > MAX_STEPS) return undefined;
  if (steps === 0) return await readBack(client, ref, n, limits, "keys");
  if (await grabFocus(client, ref, limits) === false) throw refused(node, "focus");
  // Up and Down step a number field and a slider alike (Left and Right move a caret).
  const key = steps > 0 ? "Up" : "Down";
  for (let i = 0; i < Math.abs(steps); i++) await input({ kind: "key", keys: key });
  return await readBack(client, ref, n, limits, "keys");
}

/**
 * Arrow keys from `now` to `n` (positive: Up) in steps of `inc` (1 when it says none).
 * An empty part (a date's year, 0 before anything is typed) is outside `low`..`high`: the
 * first key lands on the range's end, as a person's first Up lands on the minimum.
 */
export function keySteps(now: number, n: number, low: number, high: number, inc?: number): number {
  const step = inc! > 0 && Number.isFinite(inc) ? inc! : 1;
  const landing = now < low ? 1 : now > high ? -1 : 0;
  const from = landing > 0 ? low : landing < 0 ? high : now;
  return Math.round((n - from) / step) + landing;
}
