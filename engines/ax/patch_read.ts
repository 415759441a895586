/**
 * Re-reads the nodes a patch names, each as far as its scope says: `bounds` is one
 * batched call for AXPosition and AXSize, `node` one call for the element's attributes,
 * `subtree` a walk from the element (budgeted like a window read).
 *
 * @module
 */
import { isDriverError } from "../../protocol/errors.ts";
import { mapLimit } from "../../util/pool.ts";
import type { NodeRequest, RawNode, ReadBudget } from "../../model/engine.ts";
import { attributesOf, boundsOf, mapNode, READ_ATTRIBUTES } from "./node_map.ts";
import type { AxSource } from "./source.ts";
import { WALK_CONCURRENCY, walkWindow } from "./walk.ts";

/** What a patch read found. */
export interface PatchRead {
  /** Handle -> the node read again, `null` when it is gone. */
  reads: Map<string, RawNode | null>;
  /** Handles met on the way (for the engine's ledger). */
  seen: string[];
}

/** Reads every request; a vanished element answers `null`, other failures throw. */
export async function readRequests(
  source: AxSource,
  requests: readonly NodeRequest[],
  budget: ReadBudget,
  timeoutMs: number,
): Promise<PatchRead> {
  const reads = new Map<string, RawNode | null>();
  const seen: string[] = [];
  await mapLimit(requests, WALK_CONCURRENCY, async ({ handle, scope }) => {
    try {
      if (scope === "bounds") {
        const names = ["AXPosition", "AXSize"] as const;
        const a = attributesOf(names, await source.attributes(handle, names, timeoutMs));
        // Only `bounds` means anything in a bounds answer.
        reads.set(handle, {
          handle,
          role: "",
          name: "",
          bounds: boundsOf(a),
          enabled: false,
          focused: false,
          actions: [],
          children: [],
        });
      } else if (scope === "node") {
        const values = await source.attributes(handle, READ_ATTRIBUTES, timeoutMs);
        reads.set(handle, mapNode(handle, attributesOf(READ_ATTRIBUTES, values)).node);
      } else {
        const walk = await walkWindow(source, handle, {
          maxElements: budget.maxElements,
          signal: budget.signal,
          timeoutMs,
        });
        seen.push(...walk.seen);
        reads.set(handle, walk.root);
      }
    } catch (err) {
      if (!isDriverError(err, "element_not_found")) throw err;
      reads.set(handle, null);
    }
  });
  return { reads, seen };
}
