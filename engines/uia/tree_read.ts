/**
 * Builds a window's {@link RawNode} tree from elements UIA already cached: the `subtree`
 * cache request brought every on-screen control-view descendant over in one call, and
 * `GetCachedChildren` walks them here without another cross-process round trip. The
 * element budget stops the walk; everything not kept is released.
 *
 * @module
 */
import { ComPtr, invoke, outPointer } from "../../ffi/windows/com.ts";
import { checkHr } from "../../ffi/windows/hresult.ts";
import type { RawNode } from "../../model/engine.ts";
import {
  type ElementFacts,
  handleOfRuntimeId,
  type OleLib,
  rawNodeOf,
  readFacts,
} from "./element_props.ts";
import type { WindowHandles } from "./handles.ts";
import { IUIAutomationElement as E, IUIAutomationElementArray as A } from "./interfaces.ts";

/** A walk's result. */
export interface TreeRead {
  /** The root node. */
  root: RawNode;
  /** Nodes kept. */
  nodes: number;
  /** The budget cut the walk short. */
  truncated: boolean;
}

/** The elements of an `IUIAutomationElementArray`, each owned; the array is released. */
export function arrayElements(array: ComPtr): ComPtr[] {
  try {
    const length = new Int32Array(1);
    checkHr(invoke(array.ptr, A.get_Length, length), A.get_Length.name);
    return collectOwned((push) => {
      for (let i = 0; i < length[0]!; i++) {
        const slot = outPointer();
        checkHr(invoke(array.ptr, A.GetElement, i, slot), A.GetElement.name);
        const el = ComPtr.fromOut(slot, "IUIAutomationElement");
        if (el) push(el);
      }
    });
  } finally {
    array.release();
  }
}

/** The cached children of `el` (none when the request did not cache children). */
export function cachedChildren(el: ComPtr): ComPtr[] {
  const out = outPointer();
  checkHr(invoke(el.ptr, E.GetCachedChildren, out), E.GetCachedChildren.name);
  const array = ComPtr.fromOut(out, "IUIAutomationElementArray");
  return array ? arrayElements(array) : [];
}

/**
 * Registers `el` under `handle` (by default a fresh one from its runtime id) and returns
 * its node; the table owns `el` afterwards.
 */
export function keep(
  ole: OleLib,
  el: ComPtr,
  table: WindowHandles,
  facts: ElementFacts = readFacts(ole, el),
  handle: string = table.unique(
    facts.runtimeId.length ? handleOfRuntimeId(facts.runtimeId) : "x",
  ),
): RawNode {
  table.set(handle, el);
  return rawNodeOf(facts, handle);
}

/** Where a walk gets each element's facts and children. */
export interface TreeSource<R extends { facts: ElementFacts }> {
  /** Reads `el` (throws on failure; the walk releases it). */
  read(el: ComPtr): R;
  /** Leaves `el` and its subtree out (an off-screen element); the root is always kept. */
  skip?(read: R): boolean;
  /** `el`'s children, each owned, at most about `budget` of them. */
  children(el: ComPtr, read: R, budget: number): ComPtr[];
}

/**
 * Walks the subtree under `root` pre-order, keeping at most `max` nodes in `table`, until
 * `deadline` (performance.now()) when given. Takes ownership of `root`. Elements the
 * budget cut are released. `rootHandle` keeps a patched node's handle.
 */
export function readTree<R extends { facts: ElementFacts }>(
  ole: OleLib,
  root: ComPtr,
  max: number,
  table: WindowHandles,
  source: TreeSource<R>,
  opts: { rootHandle?: string | undefined; deadline?: number } = {},
): TreeRead {
  const stack: { el: ComPtr; parent: RawNode | undefined }[] = [{ el: root, parent: undefined }];
  const deadline = opts.deadline ?? Infinity;
  let top: RawNode | undefined;
  let nodes = 0;
  let truncated = false;
  try {
    while (stack.length > 0) {
      const { el, parent } = stack.pop()!;
      if (top && (nodes >= Math.max(1, max) || performance.now() > deadline)) {
        truncated = true;
        el.release();
        continue;
      }
      let read: R;
      try {
        read = source.read(el);
      } catch (err) {
        el.release();
        throw err;
      }
      if (top && source.skip?.(read)) {
        el.release();
        continue;
      }
      const node = el === root && opts.rootHandle !== undefined
        ? keep(ole, el, table, read.facts, opts.rootHandle)
        : keep(ole, el, table, read.facts);
      nodes++;
      top ??= node;
      parent?.children.push(node);
      const kids = source.children(el, read, Math.max(1, max - nodes - stack.length));
      for (let i = kids.length - 1; i >= 0; i--) stack.push({ el: kids[i]!, parent: node });
    }
  } finally {
    for (const { el } of stack) el.release();
  }
  for (const n of walkOrder(top!)) table.setChildren(n.handle, n.children.map((c) => c.handle));
  return { root: top!, nodes, truncated };
}

/** Walks the cached subtree under `root` (see {@link readTree}). */
export function readCachedTree(
  ole: OleLib,
  root: ComPtr,
  max: number,
  table: WindowHandles,
  rootHandle?: string,
): TreeRead {
  return readTree(ole, root, max, table, {
    read: (el) => ({ facts: readFacts(ole, el) }),
    children: (el) => cachedChildren(el),
  }, { rootHandle });
}

/** Collects owned elements from `fill`; when it throws, releases them and rethrows. */
export function collectOwned(fill: (push: (el: ComPtr) => void) => void): ComPtr[] {
  const out: ComPtr[] = [];
  try {
    fill((el) => out.push(el));
  } catch (err) {
    for (const el of out) el.release();
    throw err;
  }
  return out;
}

/** Every node under (and including) `root`. */
export function* walkOrder(root: RawNode): Generator<RawNode> {
  const stack = [root];
  while (stack.length) {
    const n = stack.pop()!;
    yield n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
}
