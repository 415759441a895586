/**
 * Reads one window's tree through an {@link AxSource}: one batched attribute call per
 * element, level by level with a bounded number of calls in flight, so the app's
 * accessibility thread always has the next request queued while IPC latency overlaps.
 *
 * @module
 */
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import { mapLimit } from "../../util/pool.ts";
import type { RawNode } from "../../model/engine.ts";
import { attributesOf, mapNode, READ_ATTRIBUTES } from "./node_map.ts";
import type { AxSource } from "./source.ts";

/** Calls in flight per walk: the app answers one at a time, so more would only queue. */
export const WALK_CONCURRENCY = 8;

/** Limits of one walk. */
export interface WalkOptions {
  /** Stop after this many nodes and say `truncated`. */
  maxElements: number;
  /** The request's deadline. */
  signal: AbortSignal;
  /** Messaging timeout per element. */
  timeoutMs: number;
  /** Told about each web area found, so the AXHub can subscribe it. */
  onWebArea?: (handle: string) => void;
}

/** A walked tree. */
export interface WalkResult {
  /** The window node. */
  root: RawNode;
  /** Nodes in the tree. */
  nodes: number;
  /** The budget cut the walk short. */
  truncated: boolean;
  /** Every handle the walk came across (kept or not), for the engine to release later. */
  seen: string[];
}

/** Throws `timeout` once the caller's deadline passed. */
export function checkDeadline(signal: AbortSignal, what: string): void {
  if (signal.aborted) {
    throw new DriverError("timeout", `The caller's deadline passed during ${what}`, { ms: 0 }, {
      cause: signal.reason,
    });
  }
}

interface Read {
  node: RawNode;
  children: string[];
}

async function readOne(source: AxSource, handle: string, timeoutMs: number): Promise<Read> {
  const values = await source.attributes(handle, READ_ATTRIBUTES, timeoutMs);
  return mapNode(handle, attributesOf(READ_ATTRIBUTES, values));
}

/**
 * Walks the tree under `window`.
 *
 * A node that vanished between its parent's read and its own is left out; a timeout, a
 * trust error or an app that quit fails the whole walk. An element listed twice (a cycle
 * or a node under two parents) is kept once, at its first place in level order.
 *
 * @throws {DriverError} `element_not_found` when the window itself is gone.
 */
export async function walkWindow(
  source: AxSource,
  window: string,
  options: WalkOptions,
): Promise<WalkResult> {
  const { maxElements, signal, timeoutMs } = options;
  checkDeadline(signal, "the window read");
  const first = await readOne(source, window, timeoutMs);
  const placed = new Set<string>([window]);
  const seen: string[] = [window];
  let level: Read[] = [first];
  let nodes = 1;
  let truncated = false;
  while (level.length > 0 && !truncated) {
    checkDeadline(signal, "the window read");
    const slots: { parent: RawNode; handle: string }[] = [];
    for (const { node, children } of level) {
      for (const handle of children) {
        seen.push(handle);
        if (placed.has(handle)) continue;
        if (nodes + slots.length >= maxElements) {
          truncated = true;
          continue;
        }
        placed.add(handle);
        slots.push({ parent: node, handle });
      }
    }
    const reads = await mapLimit(slots, WALK_CONCURRENCY, async ({ handle }) => {
      try {
        return await readOne(source, handle, timeoutMs);
      } catch (err) {
        if (isDriverError(err, "element_not_found")) return undefined;
        throw err;
      }
    });
    const next: Read[] = [];
    slots.forEach(({ parent }, i) => {
      const read = reads[i];
      if (!read) return;
      parent.children.push(read.node);
      if (read.node.role === "AXWebArea") options.onWebArea?.(read.node.handle);
      next.push(read);
    });
    nodes += next.length;
    level = next;
  }
  return { root: first.node, nodes, truncated, seen };
}
