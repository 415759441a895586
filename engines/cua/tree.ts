/**
 * A `get_window_state` answer turned into the raw tree the element map reads: AX roles,
 * names from Cua's `label`, bounds from `frame`, children from `parent_index`. Pure.
 *
 * Handles are per read: `c<read>.<element_index>`. Each read keeps, per handle, Cua's
 * address of that element in that read (its `element_token`, else index and snapshot) and
 * a structural key (role, name and sibling count down from the window) that finds the
 * same element in a later read.
 *
 * Cua lists only actionable elements, each under its nearest actionable ancestor, so a tree
 * read through real Cua lacks the plain containers and labels the native engine sees, and
 * ids below such containers differ from the native engine's. Given the same tree, the ids
 * are the same (the conformance double lists every node and tests exactly that).
 *
 * @module
 */
import type { ActionName, Bounds } from "../../protocol/element.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { NodeRequest, RawNode, WindowTree } from "../../model/engine.ts";
import { cuaRole, isWindowRole } from "./roles.ts";
import { type CuaElement, TOOL, type WindowStateAnswer } from "./tools.ts";

/**
 * Elements a degraded window's timer read should ask Cua for (design document); the engine
 * passes each read's `maxElements` to Cua as `max_elements`.
 */
export const CUA_DEGRADED_MAX_ELEMENTS = 200;

/** A read's tree, with Cua's reason when it called the read degraded. */
export interface CuaWindowTree extends WindowTree {
  /** Cua's `degraded_reason`, or `cua_tree_empty` for a tree with no element. */
  degradedReason?: string;
}

/** Where Cua finds an element of one read. */
export interface CuaAddress {
  /** `element_index` in that read. */
  index: number;
  /** `element_token`, when Cua gave one (native actions require it). */
  token?: string;
  /** `snapshot_id` of that read, when given. */
  snapshot?: string;
  /** Role, name and sibling count from the window down: the element across reads. */
  key: string;
}

/** One read's tree and the addresses behind its handles. */
export interface CuaTree {
  /** The window node. */
  root: RawNode;
  /** Nodes in the tree, the window included. */
  nodes: number;
  /** Handle → address, for every node but a window node Cua did not list. */
  addresses: Map<string, CuaAddress>;
}

/** The window a read belongs to, for a root Cua did not list itself. */
export interface WindowFacts {
  /** Title. */
  title: string;
  /** Screen points. */
  bounds: Bounds;
}

const EDITABLE = new Set(["AXTextField", "AXTextArea", "AXComboBox", "AXSearchField"]);
const VALUED = new Set(["AXSlider", "AXIncrementor"]);

/** What the engine can do with an element, from Cua's actions, its role and the tools. */
export function actionsFor(el: CuaElement, role: string, tools: ReadonlySet<string>): ActionName[] {
  const out: ActionName[] = [];
  if ((el.actions ?? []).some((a) => a.trim() !== "") && tools.has(TOOL.click)) {
    out.push("press", "click");
  }
  const editable = EDITABLE.has(role) && el.enabled !== false;
  if ((editable || VALUED.has(role)) && tools.has(TOOL.setValue)) out.push("set_value");
  if (editable && tools.has(TOOL.typeText)) out.push("type_text");
  return out;
}

function rawOf(el: CuaElement, handle: string, tools: ReadonlySet<string>): RawNode {
  const role = cuaRole(el.role);
  const f = el.frame;
  const node: RawNode = {
    handle,
    role,
    name: el.label ?? "",
    bounds: f ? { x: f.x, y: f.y, w: f.w, h: f.h } : { x: 0, y: 0, w: 0, h: 0 },
    enabled: el.enabled ?? true,
    focused: el.focused ?? false,
    actions: actionsFor(el, role, tools),
    children: [],
  };
  if (el.value !== undefined) node.value = String(el.value);
  return node;
}

/** Builds read number `seq` of a window from Cua's answer. */
export function buildTree(
  answer: WindowStateAnswer,
  window: WindowFacts,
  seq: number,
  tools: ReadonlySet<string>,
): CuaTree {
  const els = answer.elements;
  const nodes = new Map<number, RawNode>();
  const handleOf = (index: number) => `c${seq}.${index}`;
  for (const el of els) {
    if (nodes.has(el.element_index)) {
      throw new DriverError(
        "internal",
        `Cua Driver listed element_index ${el.element_index} twice in one read`,
        { tool: TOOL.getWindowState, issues: [{ path: "elements", message: "duplicate index" }] },
      );
    }
    nodes.set(el.element_index, rawOf(el, handleOf(el.element_index), tools));
  }
  // A parent must come earlier in the depth-first list: that rules out cycles.
  const seen = new Set<number>();
  const parentOf = new Map<number, number | undefined>();
  for (const el of els) {
    const p = el.parent_index ?? undefined;
    parentOf.set(el.element_index, p !== undefined && seen.has(p) ? p : undefined);
    seen.add(el.element_index);
  }
  const tops = els.filter((el) => parentOf.get(el.element_index) === undefined);
  const first = tops[0] && nodes.get(tops[0].element_index);
  const listedRoot = tops.length === 1 && first && isWindowRole(first.role) ? first : undefined;
  const root: RawNode = listedRoot ?? {
    handle: `c${seq}.w`,
    role: "AXWindow",
    name: window.title,
    bounds: window.bounds,
    enabled: true,
    focused: false,
    actions: [],
    children: [],
  };
  for (const el of els) {
    const node = nodes.get(el.element_index)!;
    if (node === root) continue;
    const p = parentOf.get(el.element_index);
    (p === undefined ? root : nodes.get(p)!).children.push(node);
  }
  const addresses = new Map<string, CuaAddress>();
  const byHandle = new Map(els.map((el) => [handleOf(el.element_index), el]));
  walkKeys(root, "", (node, key) => {
    const el = byHandle.get(node.handle);
    if (!el) return;
    const address: CuaAddress = { index: el.element_index, key };
    if (el.element_token !== undefined) address.token = el.element_token;
    if (answer.snapshot_id !== undefined) address.snapshot = answer.snapshot_id;
    addresses.set(node.handle, address);
  });
  return { root, nodes: nodes.size + (listedRoot ? 0 : 1), addresses };
}

/** Calls `visit` with every node and its structural key, parents first. */
export function walkKeys(
  root: RawNode,
  rootKey: string,
  visit: (node: RawNode, key: string) => void,
): void {
  const stack: [RawNode, string][] = [[root, rootKey]];
  while (stack.length) {
    const [node, key] = stack.pop()!;
    visit(node, key);
    const count = new Map<string, number>();
    const kids: [RawNode, string][] = node.children.map((child) => {
      const own = `${child.role}\u0001${child.name}`;
      const n = count.get(own) ?? 0;
      count.set(own, n + 1);
      return [child, `${key}/${own}\u0001${n}`];
    });
    stack.push(...kids.reverse());
  }
}

/** Every node of `root` by structural key. */
export function byKey(root: RawNode): Map<string, RawNode> {
  const out = new Map<string, RawNode>();
  walkKeys(root, "", (node, key) => out.set(key, node));
  return out;
}

/**
 * Nodes of an older read found again in a new one by their keys (`undefined`: the old read
 * aged out), as a patch wants them: the subtree, or the node alone; `null` when gone.
 */
export function findAgain(
  root: RawNode,
  requests: readonly (NodeRequest & { key: string | undefined })[],
): Map<string, RawNode | null> {
  const found = byKey(root);
  const out = new Map<string, RawNode | null>();
  for (const { handle, scope, key } of requests) {
    const node = key === undefined ? undefined : found.get(key);
    out.set(handle, node ? (scope === "subtree" ? node : { ...node, children: [] }) : null);
  }
  return out;
}

/** What a read says beyond its tree: cut short, and why Cua calls it degraded. */
export function readFacts(
  answer: WindowStateAnswer,
  maxElements: number,
): { truncated: boolean; why?: string } {
  const why = answer.degraded_reason ?? (answer.degraded ? "cua_degraded" : undefined) ??
    (answer.elements.length === 0 ? "cua_tree_empty" : undefined);
  const truncated = answer.truncated === true || answer.elements.length >= maxElements ||
    (answer.total_element_count ?? 0) > answer.elements.length;
  return why === undefined ? { truncated } : { truncated, why };
}
