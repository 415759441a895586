/**
 * The {@link AxSource} over the real frameworks (macOS only). Elements live in a table of
 * retained AXUIElementRefs keyed by handles made from the owner's pid and `CFHash`: the
 * hash of an AXUIElement is computed locally from its process and remote token, so the same
 * element read twice (or named by a notification) gets the same handle, and elements that
 * merely share a hash are told apart with `CFEqual` and a suffix.
 *
 * Every call that messages an app is a `nonblocking` symbol (a promise); the element is
 * retained for the call's duration so a concurrent {@link FfiSource.release} can't free it
 * mid-flight.
 *
 * @module
 */
import { AX_ERROR, axError, checkAx } from "../../ffi/macos/ax_error.ts";
import { AxCodec } from "../../ffi/macos/ax_values.ts";
import { Cf, outPointer, readOutPointer } from "../../ffi/macos/cf.ts";
import { loadMacFrameworks, type MacFrameworks } from "../../ffi/macos/load.ts";
import { NONE } from "../../ffi/macos/values.ts";
import { onScreenWindows } from "../../ffi/macos/window_list.ts";
import { runningApplications } from "../../ffi/macos/workspace.ts";
import type { AxRunningApp, AxSettable, AxSource, AxValue } from "./source.ts";

interface Entry {
  ref: Deno.PointerObject;
  /** Messaging timeout last set on this element (-1: the process default). */
  timeoutMs: number;
}

/** Reads and acts through ApplicationServices on a Mac. */
export class FfiSource implements AxSource {
  readonly kind = "ffi";
  readonly #fw: MacFrameworks;
  readonly #cf: Cf;
  readonly #codec: AxCodec;
  readonly #elements = new Map<string, Entry>();
  readonly #nameArrays = new Map<string, Deno.PointerObject>();
  /** Accessibility calls made so far. */
  calls = 0;

  /**
   * Loads the frameworks.
   *
   * @throws {DriverError} `driver_unavailable` (`wrong_os`) off macOS.
   */
  constructor(frameworks: MacFrameworks = loadMacFrameworks()) {
    this.#fw = frameworks;
    this.#cf = new Cf(frameworks.cf);
    this.#codec = new AxCodec(this.#cf, frameworks.ax);
  }

  trusted(): boolean {
    return this.#fw.ax.AXIsProcessTrusted() !== 0;
  }

  runningApps(): AxRunningApp[] {
    const byPid = new Map<number, AxRunningApp>();
    for (const a of runningApplications(this.#cf, this.#fw.objc)) {
      if (a.regular) byPid.set(a.pid, { pid: a.pid, name: a.name, active: a.active });
    }
    // The window server's list is always current: it catches apps NSWorkspace has not
    // reported yet, and its front-most normal window names the active app if none is.
    const windows = onScreenWindows(this.#cf, this.#fw.cg).filter((w) => w.layer === 0);
    for (const w of windows) {
      if (!byPid.has(w.pid)) byPid.set(w.pid, { pid: w.pid, name: w.owner, active: false });
    }
    const apps = [...byPid.values()];
    if (!apps.some((a) => a.active) && windows[0]) {
      const front = byPid.get(windows[0].pid);
      if (front) front.active = true;
    }
    return apps;
  }

  application(pid: number): string {
    const handle = `${pid}:app`;
    if (!this.#elements.has(handle)) {
      const ref = this.#fw.ax.AXUIElementCreateApplication(pid);
      if (ref === null) throw axError(AX_ERROR.kAXErrorFailure, `open app ${pid}`);
      this.#elements.set(handle, { ref, timeoutMs: -1 });
    }
    return handle;
  }

  /** The handle of a borrowed element (retained into the table when new). */
  #register(borrowed: Deno.PointerObject): string {
    const pidOut = new Int32Array(1);
    this.#fw.ax.AXUIElementGetPid(borrowed, pidOut);
    const base = `${pidOut[0] ?? 0}:${this.#fw.cf.CFHash(borrowed).toString(16)}`;
    for (let n = 0;; n++) {
      const key = n === 0 ? base : `${base}#${n}`;
      const e = this.#elements.get(key);
      if (!e) {
        this.#elements.set(key, { ref: this.#cf.retain(borrowed), timeoutMs: -1 });
        return key;
      }
      if (Deno.UnsafePointer.equals(e.ref, borrowed) || this.#fw.cf.CFEqual(e.ref, borrowed)) {
        return key;
      }
    }
  }

  /** Runs `call` with the element retained and its messaging timeout set. */
  async #with<T>(
    handle: string,
    timeoutMs: number,
    what: string,
    call: (ref: Deno.PointerObject) => Promise<T>,
  ): Promise<T> {
    const e = this.#elements.get(handle);
    if (!e) throw axError(AX_ERROR.kAXErrorInvalidUIElement, what);
    if (e.timeoutMs !== timeoutMs) {
      // Per element, not per app: AX applies a timeout only to the object it was set on.
      this.#fw.ax.AXUIElementSetMessagingTimeout(e.ref, timeoutMs / 1000);
      e.timeoutMs = timeoutMs;
    }
    const ref = this.#cf.retain(e.ref);
    this.calls++;
    try {
      return await call(ref);
    } finally {
      this.#cf.release(ref);
    }
  }

  #names(names: readonly string[]): Deno.PointerObject {
    const key = names.join("\n");
    let arr = this.#nameArrays.get(key);
    // Interned strings live for the process, so an array that does not retain them is safe.
    if (!arr) {
      this.#nameArrays.set(
        key,
        arr = this.#cf.createArray(names.map((n) => this.#cf.constant(n))),
      );
    }
    return arr;
  }

  attributes(handle: string, names: readonly string[], timeoutMs: number): Promise<AxValue[]> {
    const what = `read ${names.length} attributes`;
    return this.#with(handle, timeoutMs, what, async (ref) => {
      const out = outPointer();
      const status = await this.#fw.ax.AXUIElementCopyMultipleAttributeValues(
        ref,
        this.#names(names),
        0,
        out,
      );
      checkAx(status, what, { timeoutMs });
      return this.#cf.using(readOutPointer(out), (arr) => {
        if (arr === null) return names.map(() => NONE);
        return this.#cf.arrayItems(arr).map((v) =>
          this.#codec.decode(v, (el) => this.#register(el))
        );
      });
    });
  }

  count(handle: string, attribute: string, timeoutMs: number): Promise<number> {
    const what = `count "${attribute}"`;
    return this.#with(handle, timeoutMs, what, async (ref) => {
      const out = new BigInt64Array(1);
      const status = await this.#fw.ax.AXUIElementGetAttributeValueCount(
        ref,
        this.#cf.constant(attribute),
        out,
      );
      checkAx(status, what, { timeoutMs });
      return Number(out[0] ?? 0n);
    });
  }

  actionNames(handle: string, timeoutMs: number): Promise<string[]> {
    return this.#with(handle, timeoutMs, "list actions", async (ref) => {
      const out = outPointer();
      const status = await this.#fw.ax.AXUIElementCopyActionNames(ref, out);
      if (status === AX_ERROR.kAXErrorNoValue) return [];
      checkAx(status, "list actions", { timeoutMs });
      return this.#cf.using(
        readOutPointer(out),
        (arr) =>
          arr === null
            ? []
            : this.#cf.arrayItems(arr).flatMap((s) => (s === null ? [] : [this.#cf.string(s)])),
      );
    });
  }

  setAttribute(
    handle: string,
    attribute: string,
    value: AxSettable,
    timeoutMs: number,
  ): Promise<void> {
    const what = `set "${attribute}"`;
    return this.#with(
      handle,
      timeoutMs,
      what,
      (ref) =>
        this.#cf.usingAsync(this.#codec.encode(value), async (cfValue) => {
          const status = await this.#fw.ax.AXUIElementSetAttributeValue(
            ref,
            this.#cf.constant(attribute),
            cfValue,
          );
          checkAx(status, what, { timeoutMs });
        }),
    );
  }

  perform(handle: string, action: string, timeoutMs: number): Promise<void> {
    const what = `perform "${action}"`;
    return this.#with(handle, timeoutMs, what, async (ref) => {
      const status = await this.#fw.ax.AXUIElementPerformAction(ref, this.#cf.constant(action));
      checkAx(status, what, { timeoutMs });
    });
  }

  pidOf(handle: string): number {
    return Number(handle.slice(0, handle.indexOf(":")));
  }

  windowNumber(handle: string): number | undefined {
    const get = this.#fw.ax._AXUIElementGetWindow;
    const e = this.#elements.get(handle);
    if (!get || !e) return undefined;
    const out = new Uint32Array(1);
    return get(e.ref, out) === AX_ERROR.kAXErrorSuccess ? out[0] : undefined;
  }

  transfer(handle: string): bigint | undefined {
    const e = this.#elements.get(handle);
    return e ? Deno.UnsafePointer.value(this.#cf.retain(e.ref)) : undefined;
  }

  release(handles: Iterable<string>): void {
    for (const h of handles) {
      const e = this.#elements.get(h);
      if (!e) continue;
      this.#elements.delete(h);
      this.#cf.release(e.ref);
    }
  }

  releaseApp(pid: number): void {
    const prefix = `${pid}:`;
    this.release([...this.#elements.keys()].filter((h) => h.startsWith(prefix)));
  }

  close(): void {
    this.release([...this.#elements.keys()]);
    for (const arr of this.#nameArrays.values()) this.#cf.release(arr);
    this.#nameArrays.clear();
  }
}
