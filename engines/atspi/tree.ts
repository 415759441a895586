/**
 * Turns a skeleton into the engine's {@link RawNode} tree for one window: prunes what is
 * not showing, applies the element budget, then reads bounds, text and values for the
 * kept nodes in one pipelined pass.
 *
 * @module
 */
import type { ActionName } from "../../protocol/element.ts";
import type { RawNode } from "../../model/engine.ts";
import { type AtspiClient, type CallLimits, handleOf } from "./client.ts";
import { atspiRoleName, axRole } from "./roles.ts";
import { type Skeleton, type SkeletonNode, visibilityState } from "./skeleton.ts";
import { STATE } from "./states.ts";
import { mapLimit } from "../../util/pool.ts";

/** Pending replies per app at once; stays under the bus's per-connection reply limit. */
const PIPELINE = 64;
/** Longest text read into `value`; longer documents are cut (agents page with find). */
const MAX_TEXT = 10_000;

const TEXT_ROLES = new Set([
  "text",
  "entry",
  "terminal",
  "document_text",
  "spin_button",
  "combo_box",
  "editbar",
  "autocomplete",
]);

/** The kept nodes of a window in document order, with parent links. */
interface Kept {
  node: SkeletonNode;
  raw: RawNode;
}

/** What the walk produced. */
export interface TreeResult {
  /** The window node. */
  root: RawNode;
  /** Nodes kept. */
  nodes: number;
  /** The budget cut the walk short. */
  truncated: boolean;
}

/** Builds the window's tree from `skeleton`, reading the extra attributes it needs. */
export async function buildTree(
  client: AtspiClient,
  skeleton: Skeleton,
  windowPath: string,
  max: number,
  limits: CallLimits,
  shown: number = visibilityState(skeleton, windowPath),
): Promise<TreeResult | undefined> {
  const top = skeleton.get(windowPath);
  if (!top) return undefined;
  const kept: Kept[] = [];
  let truncated = false;
  // Pre-order walk with an explicit stack (children pushed in reverse so they come out in
  // order). A cache caught mid-change can list a node under its own descendant or under
  // two parents: each path is kept once, at its first place in document order, so the
  // result is always a tree and no recursion depth depends on the app's data.
  const placed = new Set<string>();
  const stack: { node: SkeletonNode; parent: RawNode | undefined }[] = [{
    node: top,
    parent: undefined,
  }];
  while (stack.length > 0) {
    const { node, parent } = stack.pop()!;
    if (placed.has(node.ref.path)) continue;
    if (kept.length >= max) {
      truncated = true;
      break;
    }
    placed.add(node.ref.path);
    const raw = shell(node);
    kept.push({ node, raw });
    parent?.children.push(raw);
    for (let i = node.children.length - 1; i >= 0; i--) {
      const path = node.children[i]!;
      const child = placed.has(path) ? undefined : skeleton.get(path);
      // Hidden pages (stacks, collapsed menus) would show an agent things it can't reach.
      if (child && child.states.has(shown)) stack.push({ node: child, parent: raw });
    }
  }
  await mapLimit(kept, PIPELINE, (k) => enrich(client, k, limits));
  return { root: kept[0]!.raw, nodes: kept.length, truncated };
}

function shell(node: SkeletonNode): RawNode {
  const s = node.states;
  return {
    handle: handleOf(node.ref),
    role: axRole(node.role, {
      multiLine: s.has(STATE.MULTI_LINE),
      editable: s.has(STATE.EDITABLE),
    }),
    name: node.name,
    bounds: { x: 0, y: 0, w: 0, h: 0 },
    enabled: s.has(STATE.SENSITIVE) || s.has(STATE.ENABLED),
    focused: s.has(STATE.FOCUSED) || (s.has(STATE.ACTIVE) && atspiRoleName(node.role) === "frame"),
    actions: actionsOf(node),
    children: [],
    // -1: a manager that keeps its children out of the cache; its count means nothing.
    ...(node.childCount >= 0 ? { childCount: node.childCount } : {}),
  };
}

/** What {@link AtspiEngine.act} can do with a node, from its interfaces and states. */
export function actionsOf(node: SkeletonNode): ActionName[] {
  const s = node.states;
  const out: ActionName[] = [];
  if (node.ifaces.has("Action")) out.push("press", "click");
  if (s.has(STATE.FOCUSABLE)) out.push("focus");
  const editable = node.ifaces.has("EditableText") && s.has(STATE.EDITABLE) &&
    !s.has(STATE.READ_ONLY);
  if (editable || node.ifaces.has("Value")) out.push("set_value");
  if (editable) out.push("type_text");
  if (s.has(STATE.SELECTABLE)) out.push("select");
  if (s.has(STATE.EXPANDABLE)) out.push("expand", "collapse");
  if (s.has(STATE.HAS_POPUP)) out.push("show_menu");
  if (s.has(STATE.SELECTABLE) && node.ifaces.has("Component")) out.push("scroll_into_view");
  return out;
}

async function enrich(client: AtspiClient, { node, raw }: Kept, limits: CallLimits): Promise<void> {
  const ref = node.ref;
  const role = atspiRoleName(node.role);
  const jobs: Promise<void>[] = [];
  if (node.ifaces.has("Action")) {
    // GTK 4 puts the Action interface on every widget; only a non-zero count means the
    // element really can be pressed.
    jobs.push(
      client.prop(ref, "Action", "NActions", limits).then((n) => {
        if (Number(n) === 0) {
          raw.actions = raw.actions.filter((a) => a !== "press" && a !== "click");
        }
      }),
    );
  }
  if (node.ifaces.has("Component")) {
    jobs.push(
      client.extents(ref, limits).then(([x, y, w, h]) => {
        raw.bounds = { x, y, w, h };
      }),
    );
  }
  // Password fields never have their text read.
  if (node.ifaces.has("Text") && TEXT_ROLES.has(role) && role !== "password_text") {
    jobs.push(
      client.call(ref, "Text", "GetText", limits, "ii", [0, -1]).then(([t]) => {
        const text = String(t ?? "");
        raw.value = text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) : text;
      }),
    );
  } else if (node.ifaces.has("Value")) {
    jobs.push(
      client.prop(ref, "Value", "CurrentValue", limits).then((v) => {
        if (typeof v === "number") raw.value = String(Math.round(v * 1e6) / 1e6);
      }),
    );
  }
  // One vanished node must not fail the whole read: it keeps its skeleton data.
  const results = await Promise.allSettled(jobs);
  const failed = results.find((r) => r.status === "rejected");
  if (failed && failed.status === "rejected") {
    const err = failed.reason as { code?: string };
    if (err.code === "timeout" || err.code === "app_not_running") throw failed.reason;
  }
}
