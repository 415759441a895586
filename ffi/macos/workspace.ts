/**
 * Running applications from NSWorkspace, through the Objective-C runtime.
 *
 * NSWorkspace updates `runningApplications` from notifications delivered on the main
 * thread's run loop; a process that never runs it keeps the list it saw first, and apps
 * launched later are missing (the design document's `app_not_running` lesson). The engine
 * therefore pumps the main run loop (`engines/ax/hub/main_run_loop.ts`) and also merges the
 * window server's list, which is always current.
 *
 * Every call runs inside its own autorelease pool: the objects Cocoa hands back are
 * autoreleased, and a thread with no pool would leak them.
 *
 * @module
 */
import type { Cf } from "./cf.ts";
import { cString } from "./marshal.ts";
import { ACTIVATION_POLICY_REGULAR, type ObjcRuntime } from "./objc.ts";

/** One running application. */
export interface RunningApp {
  /** Process id. */
  pid: number;
  /** Localized name ("TextEdit", "Calculator"). */
  name: string;
  /** Bundle identifier, "" when none. */
  bundleId: string;
  /** A regular app (Dock icon, windows), not an agent or background process. */
  regular: boolean;
  /** Frontmost. */
  active: boolean;
  /** Hidden with Cmd-H. */
  hidden: boolean;
}

/** Sends Objective-C messages with selectors cached by name. */
class Messenger {
  readonly #rt: ObjcRuntime;
  readonly #sels = new Map<string, Deno.PointerValue>();

  constructor(rt: ObjcRuntime) {
    this.#rt = rt;
  }

  sel(name: string): Deno.PointerValue {
    let s = this.#sels.get(name);
    if (s === undefined) this.#sels.set(name, s = this.#rt.sel_registerName(cString(name)));
    return s;
  }
}

/**
 * Lists running applications.
 *
 * @param cf CoreFoundation wrappers (NSString is toll-free bridged to CFString).
 * @param rt The Objective-C runtime, with AppKit loaded.
 * @returns Every app NSWorkspace knows, regular or not; `[]` when NSWorkspace is missing.
 */
export function runningApplications(cf: Cf, rt: ObjcRuntime): RunningApp[] {
  const m = new Messenger(rt);
  const pool = rt.objc_autoreleasePoolPush();
  try {
    const cls = rt.objc_getClass(cString("NSWorkspace"));
    if (cls === null) return [];
    const ws = rt.msgSendId(cls, m.sel("sharedWorkspace"));
    const apps = ws && rt.msgSendId(ws, m.sel("runningApplications"));
    if (!apps) return [];
    const count = Number(rt.msgSendUsize(apps, m.sel("count")));
    const out: RunningApp[] = [];
    for (let i = 0; i < count; i++) {
      const app = rt.msgSendIdAtIndex(apps, m.sel("objectAtIndex:"), BigInt(i));
      if (app === null || rt.msgSendBool(app, m.sel("isTerminated")) !== 0) continue;
      const name = rt.msgSendId(app, m.sel("localizedName"));
      const bundle = rt.msgSendId(app, m.sel("bundleIdentifier"));
      out.push({
        pid: rt.msgSendI32(app, m.sel("processIdentifier")),
        name: name === null ? "" : cf.string(name),
        bundleId: bundle === null ? "" : cf.string(bundle),
        regular: rt.msgSendIsize(app, m.sel("activationPolicy")) === ACTIVATION_POLICY_REGULAR,
        active: rt.msgSendBool(app, m.sel("isActive")) !== 0,
        hidden: rt.msgSendBool(app, m.sel("isHidden")) !== 0,
      });
    }
    return out;
  } finally {
    rt.objc_autoreleasePoolPop(pool);
  }
}
