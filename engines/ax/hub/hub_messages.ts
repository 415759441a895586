/**
 * What the AXHub's main side and its run-loop worker say to each other, and the queue the
 * observer callback fills. Pure: the queue is what the callback may touch (design
 * document: the callback counts, queues and returns; no accessibility call).
 *
 * @module
 */

/** Main thread -> worker. */
export type HubCommand =
  | { type: "watch"; pid: number }
  | { type: "unwatch"; pid: number }
  /** `element`: an AXUIElementRef address retained once for the worker, which releases it. */
  | { type: "watch_web"; pid: number; element: bigint }
  | { type: "stop" };

/** One coalesced notification: `count` posts of `note` on one element since the last flush. */
export interface HubNotification {
  /** Posting app. */
  pid: number;
  /** Notification name (`AXValueChanged`). */
  note: string;
  /** `<pid>:<CFHash hex>` of the element named, the same key the engine's source uses. */
  handle?: string;
  /** Posted on a web area subscription. */
  web: boolean;
  /** Posts coalesced into this entry. */
  count: number;
}

/** Worker -> main thread. */
export type HubReport =
  /** `runLoop`: the worker's CFRunLoopRef address, for `CFRunLoopStop` from the main side. */
  | { type: "ready"; runLoop: bigint }
  | { type: "error"; message: string; reason: string }
  | { type: "watching"; pid: number; notifications: number; unsupported: string[] }
  | { type: "watch_failed"; pid: number; message: string }
  /** `dropped`: posts per pid beyond the queue's limit; `faults`: posts not decodable. */
  | { type: "events"; events: HubNotification[]; dropped: [number, number][]; faults: number }
  | { type: "stopped" };

/** Distinct entries held between flushes; a burst beyond this is counted, not queued. */
export const QUEUE_LIMIT = 2_000;

/** The callback's queue: coalesces repeats, bounds memory, never throws. */
export class NotificationQueue {
  #entries = new Map<string, HubNotification>();
  #dropped = new Map<number, number>();
  #faults = 0;
  #total = 0;

  /** Notifications pushed since the queue was made. */
  get total(): number {
    return this.#total;
  }

  /** Entries waiting. */
  get size(): number {
    return this.#entries.size;
  }

  /** Records one post. */
  push(pid: number, note: string, handle: string | undefined, web: boolean): void {
    this.#total++;
    const key = `${pid}\n${note}\n${handle ?? ""}`;
    const e = this.#entries.get(key);
    if (e) {
      e.count++;
    } else if (this.#entries.size < QUEUE_LIMIT) {
      const entry: HubNotification = { pid, note, web, count: 1 };
      if (handle !== undefined) entry.handle = handle;
      this.#entries.set(key, entry);
    } else {
      this.#dropped.set(pid, (this.#dropped.get(pid) ?? 0) + 1);
    }
  }

  /** A post the callback could not even decode (counted so nothing is silently lost). */
  fault(): void {
    this.#total++;
    this.#faults++;
  }

  /** Takes everything queued, in first-post order, with the overflow counts. */
  drain(): { events: HubNotification[]; dropped: [number, number][]; faults: number } {
    const out = {
      events: [...this.#entries.values()],
      dropped: [...this.#dropped],
      faults: this.#faults,
    };
    this.#entries = new Map();
    this.#dropped = new Map();
    this.#faults = 0;
    return out;
  }
}
