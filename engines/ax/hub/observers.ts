/**
 * One AXObserver per watched app, all on the calling thread's run loop (the AXHub
 * worker's). The observer callback is the only JavaScript the run loop calls: it decodes
 * the notification name and the element's hash (CoreFoundation, local) and queues them;
 * it makes no accessibility call and never throws (design document, "Safety").
 *
 * @module
 */
import { AX_ERROR, axError, axErrorName } from "../../../ffi/macos/ax_error.ts";
import {
  type ApplicationServices,
  AX_OBSERVER_CALLBACK,
} from "../../../ffi/macos/application_services.ts";
import { Cf, outPointer, readOutPointer, readStatic } from "../../../ffi/macos/cf.ts";
import type { CoreFoundation } from "../../../ffi/macos/core_foundation.ts";
import type { NotificationQueue } from "./hub_messages.ts";
import {
  APP_NOTIFICATIONS,
  decodeTag,
  encodeTag,
  WEB_AREA_NOTIFICATIONS,
} from "./notifications.ts";

/** Web areas subscribed per app at most; the oldest is dropped beyond this. */
export const WEB_AREAS_PER_APP = 16;
/** Messaging timeout (s) for registrations: a hung app must not stall the hub. */
const REGISTER_TIMEOUT_S = 1;

interface Watch {
  observer: Deno.PointerObject;
  app: Deno.PointerObject;
  source: Deno.PointerObject;
  webAreas: Deno.PointerObject[];
}

/** The observers of one run-loop thread. */
export class Observers {
  readonly #cf: Cf;
  readonly #ax: ApplicationServices;
  readonly #runLoop: Deno.PointerObject;
  readonly #mode: Deno.PointerObject;
  readonly #callback: Deno.UnsafeCallback<typeof AX_OBSERVER_CALLBACK>;
  readonly #watches = new Map<number, Watch>();
  #closed = false;

  /** Observers for the current thread's run loop, feeding `queue`. */
  constructor(cf: CoreFoundation, ax: ApplicationServices, queue: NotificationQueue) {
    this.#cf = new Cf(cf);
    this.#ax = ax;
    const runLoop = cf.CFRunLoopGetCurrent();
    const mode = readStatic(cf.kCFRunLoopDefaultMode);
    if (runLoop === null || mode === null) throw new Error("Cannot get this thread's run loop");
    this.#runLoop = runLoop;
    this.#mode = mode;
    const decode = this.#cf;
    this.#callback = new Deno.UnsafeCallback(
      AX_OBSERVER_CALLBACK,
      (_obs, element, note, refcon) => {
        try {
          const { pid, web } = decodeTag(Deno.UnsafePointer.value(refcon));
          const name = note === null ? "" : decode.string(note);
          const handle = element === null ? undefined : `${pid}:${cf.CFHash(element).toString(16)}`;
          queue.push(pid, name, handle, web);
        } catch {
          queue.fault();
        }
      },
    );
  }

  /** This thread's CFRunLoopRef address (for `CFRunLoopStop` from another thread). */
  get runLoopAddress(): bigint {
    return Deno.UnsafePointer.value(this.#runLoop);
  }

  /** `kCFRunLoopDefaultMode`, the mode observers are added in and the hub pumps. */
  get mode(): Deno.PointerObject {
    return this.#mode;
  }

  /** Apps watched. */
  get size(): number {
    return this.#watches.size;
  }

  /**
   * Starts observing `pid` with {@link APP_NOTIFICATIONS}. Idempotent.
   *
   * @returns The notifications the app refused (it may not post them all).
   * @throws {DriverError} When no observer can be made or the app accepts none.
   */
  watch(pid: number): string[] {
    if (this.#watches.has(pid)) return [];
    const out = outPointer();
    const status = this.#ax.AXObserverCreate(pid, this.#callback.pointer, out);
    const observer = readOutPointer(out);
    if (status !== AX_ERROR.kAXErrorSuccess || observer === null) {
      throw axError(status || AX_ERROR.kAXErrorFailure, `observe app ${pid}`);
    }
    const app = this.#ax.AXUIElementCreateApplication(pid);
    if (app === null) {
      this.#cf.release(observer);
      throw axError(AX_ERROR.kAXErrorFailure, `observe app ${pid}`);
    }
    this.#ax.AXUIElementSetMessagingTimeout(app, REGISTER_TIMEOUT_S);
    const registered: string[] = [];
    const refused: string[] = [];
    let lastError = 0;
    for (const note of APP_NOTIFICATIONS) {
      const st = this.#add(observer, app, note, encodeTag(pid, false));
      if (
        st === AX_ERROR.kAXErrorSuccess || st === AX_ERROR.kAXErrorNotificationAlreadyRegistered
      ) {
        registered.push(note);
      } else {
        refused.push(`${note}: ${axErrorName(st)}`);
        lastError = st;
        // A hung app would cost the whole timeout per notification: give up on it now.
        if (st === AX_ERROR.kAXErrorCannotComplete) break;
      }
    }
    if (registered.length === 0 || lastError === AX_ERROR.kAXErrorCannotComplete) {
      this.#cf.release(app);
      this.#cf.release(observer);
      throw axError(lastError || AX_ERROR.kAXErrorFailure, `observe app ${pid}`);
    }
    // A Get function: the source belongs to the observer.
    const source = this.#ax.AXObserverGetRunLoopSource(observer);
    if (source === null) throw axError(AX_ERROR.kAXErrorFailure, `observe app ${pid}`);
    this.#cf.lib.CFRunLoopAddSource(this.#runLoop, source, this.#mode);
    this.#watches.set(pid, { observer, app, source, webAreas: [] });
    return refused;
  }

  /**
   * Subscribes a web area of `pid` with {@link WEB_AREA_NOTIFICATIONS}, taking ownership of
   * `element` (already retained once for us).
   */
  watchWebArea(pid: number, element: Deno.PointerObject): void {
    let w = this.#watches.get(pid);
    if (!w) {
      this.watch(pid);
      w = this.#watches.get(pid)!;
    }
    if (w.webAreas.some((e) => this.#cf.lib.CFEqual(e, element) !== 0)) {
      this.#cf.release(element);
      return;
    }
    if (w.webAreas.length >= WEB_AREAS_PER_APP) this.#dropWebArea(w, w.webAreas.shift()!);
    this.#ax.AXUIElementSetMessagingTimeout(element, REGISTER_TIMEOUT_S);
    for (const note of WEB_AREA_NOTIFICATIONS) {
      this.#add(w.observer, element, note, encodeTag(pid, true));
    }
    w.webAreas.push(element);
  }

  /** Stops observing `pid` and releases its observer, app element and web areas. No
   * accessibility call: it is safe for an app that quit or hangs. */
  unwatch(pid: number): void {
    const w = this.#watches.get(pid);
    if (!w) return;
    this.#watches.delete(pid);
    // No per-notification removal (a message to the app each, and the app may be gone or
    // hung): once its source is off the run loop and it is released, the observer is done.
    this.#cf.lib.CFRunLoopRemoveSource(this.#runLoop, w.source, this.#mode);
    for (const e of w.webAreas) this.#cf.release(e);
    this.#cf.release(w.app);
    this.#cf.release(w.observer);
  }

  /** Unwatches everything and frees the callback; idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const pid of [...this.#watches.keys()]) this.unwatch(pid);
    this.#callback.close();
  }

  #add(observer: Deno.PointerObject, el: Deno.PointerObject, note: string, tag: bigint): number {
    return this.#ax.AXObserverAddNotification(
      observer,
      el,
      this.#cf.constant(note),
      Deno.UnsafePointer.create(tag),
    );
  }

  #dropWebArea(w: Watch, element: Deno.PointerObject): void {
    for (const note of WEB_AREA_NOTIFICATIONS) {
      this.#ax.AXObserverRemoveNotification(w.observer, element, this.#cf.constant(note));
    }
    this.#cf.release(element);
  }
}
