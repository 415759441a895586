/**
 * Patches: re-reading only the nodes a notification named (live map, "Patching"), each
 * with one `BuildUpdatedCache` call sized to what changed: the bounds, the node's own
 * properties, or its subtree. A node that is gone answers `null`.
 *
 * @module
 */
import { ComPtr, invoke, outPointer } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import { readRect, RECT_SIZE, rectBounds } from "../../ffi/windows/structs.ts";
import { isDriverError } from "../../protocol/errors.ts";
import type { NodeRequest, RawNode } from "../../model/engine.ts";
import type { CacheRequests } from "./cache.ts";
import { type OleLib, rawNodeOf, readFacts } from "./element_props.ts";
import type { WindowHandles } from "./handles.ts";
import { IUIAutomationElement as E } from "./interfaces.ts";
import { readCachedTree } from "./tree_read.ts";

/** What a patch needs. */
export interface PatchSetup {
  /** oleaut32. */
  ole: OleLib;
  /** Cache requests. */
  requests: CacheRequests;
  /** Counts each cross-process call. */
  countCall: () => void;
}

function updated(setup: PatchSetup, el: ComPtr, request: ComPtr): ComPtr {
  const out = outPointer();
  setup.countCall();
  el.call(E.BuildUpdatedCache, request.ptr, out);
  return ComPtr.expectOut(out, "IUIAutomationElement", "BuildUpdatedCache");
}

/** Re-reads one node of `table` as far as `request.scope` says. */
export function readPatch(
  setup: PatchSetup,
  table: WindowHandles,
  request: NodeRequest,
  el: ComPtr,
  max: number,
): RawNode | null {
  try {
    switch (request.scope) {
      case "bounds": {
        using fresh = updated(setup, el, setup.requests.bounds);
        const rect = new Uint8Array(RECT_SIZE);
        checkHr(
          invoke(fresh.ptr, E.get_CachedBoundingRectangle, rect),
          E.get_CachedBoundingRectangle.name,
        );
        // Only the bounds of this answer mean anything (engine.ts, NodeRequest).
        return {
          handle: request.handle,
          role: "",
          name: "",
          bounds: rectBounds(readRect(rect)),
          enabled: false,
          focused: false,
          actions: [],
          children: [],
        };
      }
      case "node": {
        const fresh = updated(setup, el, setup.requests.element);
        try {
          const node = rawNodeOf(readFacts(setup.ole, fresh), request.handle);
          table.set(request.handle, fresh);
          return node;
        } catch (err) {
          fresh.release();
          throw err;
        }
      }
      case "subtree": {
        // Without a subtree request the session patches with live properties instead.
        const subtree = setup.requests.subtree;
        if (!subtree) throw new Error("readPatch: no subtree cache request (a live read patches)");
        const fresh = updated(setup, el, subtree);
        table.dropDescendants(request.handle);
        return readCachedTree(setup.ole, fresh, max, table, request.handle).root;
      }
    }
  } catch (err) {
    if (isDriverError(err, "element_not_found")) return null;
    throw err;
  }
}
