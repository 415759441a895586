/**
 * The bounded walk, for windows too large to cache in one call (a list with a hundred
 * thousand realised rows makes the subtree request time out): a control-view tree
 * walker fetches one element per call, with its properties cached, and the walk stops at
 * the element budget or the deadline, whichever comes first, answering `truncated`.
 *
 * @module
 */
import { ComPtr, invoke, outPointer } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import type { RawNode } from "../../model/engine.ts";
import { type OleLib, readFacts } from "./element_props.ts";
import type { WindowHandles } from "./handles.ts";
import { IUIAutomationTreeWalker as W } from "./interfaces.ts";
import { keep, type TreeRead, walkOrder } from "./tree_read.ts";

/** What the walk needs besides the root. */
export interface WalkSetup {
  /** oleaut32. */
  ole: OleLib;
  /** A control-view `IUIAutomationTreeWalker`. */
  walker: ComPtr;
  /** The `element` cache request. */
  request: ComPtr;
  /** Counts each cross-process call. */
  countCall: () => void;
}

/** One level being enumerated: its node, its element, and the last child seen. */
interface Frame {
  node: RawNode;
  el: ComPtr;
  prev: ComPtr | undefined;
  /** `prev` is ours to release (the table did not keep it). */
  prevOwned: boolean;
}

function step(
  setup: WalkSetup,
  m: typeof W.GetFirstChildElementBuildCache,
  from: ComPtr,
): ComPtr | null {
  const out = outPointer();
  setup.countCall();
  checkHr(invoke(setup.walker.ptr, m, from.ptr, setup.request.ptr, out), m.name);
  return ComPtr.fromOut(out, "IUIAutomationElement");
}

/**
 * Walks pre-order under `root` (cached with the `element` request; ownership passes to
 * the table) until `max` nodes are kept or `deadline` (performance.now()) passes.
 */
export function walkBounded(
  setup: WalkSetup,
  root: ComPtr,
  max: number,
  deadline: number,
  table: WindowHandles,
): TreeRead {
  const top = keep(setup.ole, root, table);
  const frames: Frame[] = [{ node: top, el: root, prev: undefined, prevOwned: false }];
  let nodes = 1;
  let truncated = false;
  const drop = (f: Frame) => {
    if (f.prevOwned) f.prev?.release();
  };
  try {
    while (frames.length > 0) {
      if (nodes >= max || performance.now() > deadline) {
        truncated = true;
        break;
      }
      const f = frames.at(-1)!;
      const next = f.prev
        ? step(setup, W.GetNextSiblingElementBuildCache, f.prev)
        : step(setup, W.GetFirstChildElementBuildCache, f.el);
      drop(f);
      f.prev = undefined;
      if (!next) {
        frames.pop();
        continue;
      }
      let facts;
      try {
        facts = readFacts(setup.ole, next);
      } catch (err) {
        next.release();
        throw err;
      }
      if (facts.offscreen) {
        // Not shown: skipped with its subtree, but still the place to continue from.
        f.prev = next;
        f.prevOwned = true;
        continue;
      }
      const node = keep(setup.ole, next, table, facts);
      nodes++;
      f.node.children.push(node);
      f.prev = next;
      f.prevOwned = false;
      frames.push({ node, el: next, prev: undefined, prevOwned: false });
    }
  } finally {
    for (const f of frames) drop(f);
  }
  for (const n of walkOrder(top)) table.setChildren(n.handle, n.children.map((c) => c.handle));
  return { root: top, nodes, truncated };
}
