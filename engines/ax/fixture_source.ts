/**
 * An {@link AxSource} over fixture dumps (`fixtures/*.json`), so the AX engine's own code
 * (walk, node mapping, window ids, actions, the element map on top) runs in tests on any
 * OS. It answers like the Accessibility API does: unknown handles are
 * `kAXErrorInvalidUIElement`, missing attributes come back as AXError values in their slot,
 * a quit app's elements answer `kAXErrorCannotComplete`, and an untrusted process gets
 * `kAXErrorAPIDisabled`. Sets and actions are recorded; sets also change the node, so a
 * later read sees them.
 *
 * @module
 */
import { AX_ERROR, axError } from "../../ffi/macos/ax_error.ts";
import {
  axValueFromJson,
  type FixtureDump,
  type FixtureNode,
  type JsonAxValue,
  parseFixture,
} from "./fixture_schema.ts";
import type { AxRunningApp, AxSettable, AxSource, AxValue } from "./source.ts";

interface App {
  dump: FixtureDump;
  nodes: Map<string, FixtureNode>;
  running: boolean;
}

/** One recorded set or action. */
export interface FixtureCall {
  /** Element handle. */
  handle: string;
  /** `set <attribute>` or the action name. */
  what: string;
  /** The value set, for sets. */
  value?: AxSettable;
}

function index(node: FixtureNode, into: Map<string, FixtureNode>): void {
  if (into.has(node.id)) throw new Error(`Fixture id "${node.id}" appears twice`);
  into.set(node.id, node);
  for (const c of node.children ?? []) index(c, into);
}

/** Reads fixtures in tests: the same engine code as on a Mac, over recorded data. */
export class FixtureSource implements AxSource {
  readonly kind = "fixture";
  readonly #apps = new Map<number, App>();
  #trusted = true;
  /** Calls answered so far (the engine's `stats().calls` on this source). */
  calls = 0;
  /** Sets and actions performed, in order. */
  readonly performed: FixtureCall[] = [];
  /** Handles the engine released, in order. */
  readonly released: string[] = [];

  /** Serves the given dumps (deep-copied: variants never touch the caller's objects). */
  constructor(dumps: readonly FixtureDump[]) {
    for (const d of dumps) {
      const dump = structuredClone(d);
      const nodes = new Map<string, FixtureNode>();
      index(dump.root, nodes);
      this.#apps.set(dump.app.pid, { dump, nodes, running: true });
    }
  }

  /** Loads fixture files. */
  static async load(...paths: (string | URL)[]): Promise<FixtureSource> {
    const dumps = await Promise.all(
      paths.map(async (p) => parseFixture(await Deno.readTextFile(p), String(p))),
    );
    return new FixtureSource(dumps);
  }

  /** Makes the process (un)trusted, as toggling System Settings > Accessibility would. */
  setTrusted(trusted: boolean): void {
    this.#trusted = trusted;
  }

  /** Applies a named variant of the app with `pid` (values, removals, insertions). */
  applyVariant(pid: number, name: string): void {
    const app = this.#app(pid);
    const patches = app.dump.variants[name];
    if (!patches) throw new Error(`Fixture "${app.dump.app.name}" has no variant "${name}"`);
    for (const p of patches) {
      if ("set" in p) {
        Object.assign(this.#node(app, p.id).attributes, structuredClone(p.set));
      } else if ("remove" in p) {
        for (const n of app.nodes.values()) {
          n.children = n.children?.filter((c) => c.id !== p.id);
        }
        app.nodes.delete(p.id);
      } else {
        const parent = this.#node(app, p.parent);
        const kids = parent.children ??= [];
        kids.splice(p.at ?? kids.length, 0, structuredClone(p.insert));
        index(kids[p.at ?? kids.length - 1]!, app.nodes);
      }
    }
  }

  /** The app quits: its elements stop answering. */
  quit(pid: number): void {
    this.#app(pid).running = false;
  }

  trusted(): boolean {
    return this.#trusted;
  }

  runningApps(): AxRunningApp[] {
    return [...this.#apps.values()].filter((a) => a.running).map((a) => ({ ...a.dump.app }));
  }

  application(pid: number): string {
    return `${pid}:${this.#app(pid).dump.root.id}`;
  }

  attributes(handle: string, names: readonly string[]): Promise<AxValue[]> {
    const { node, pid } = this.#resolve(handle, "read attributes");
    return Promise.resolve(names.map((name) => this.#value(node, pid, name)));
  }

  count(handle: string, attribute: string): Promise<number> {
    const { node, pid } = this.#resolve(handle, `count "${attribute}"`);
    const v = this.#value(node, pid, attribute);
    return Promise.resolve(v.kind === "array" ? v.items.length : 0);
  }

  actionNames(handle: string): Promise<string[]> {
    return Promise.resolve([...(this.#resolve(handle, "list actions").node.actions ?? [])]);
  }

  setAttribute(handle: string, attribute: string, value: AxSettable): Promise<void> {
    const { node } = this.#resolve(handle, `set "${attribute}"`);
    const text = node.attributes.AXValue;
    if (attribute === "AXSelectedText" && typeof text === "string") {
      node.attributes.AXValue = text + String(value.value);
    } else if (attribute in node.attributes) {
      node.attributes[attribute] = value.value as JsonAxValue;
    } else {
      throw axError(AX_ERROR.kAXErrorAttributeUnsupported, `set "${attribute}"`);
    }
    this.performed.push({ handle, what: `set ${attribute}`, value });
    return Promise.resolve();
  }

  perform(handle: string, action: string): Promise<void> {
    const { node } = this.#resolve(handle, `perform "${action}"`);
    if (!(node.actions ?? []).includes(action)) {
      throw axError(AX_ERROR.kAXErrorActionUnsupported, `perform "${action}"`, {
        actions: node.actions ?? [],
      });
    }
    this.performed.push({ handle, what: action });
    return Promise.resolve();
  }

  pidOf(handle: string): number {
    return Number(handle.slice(0, handle.indexOf(":")));
  }

  windowNumber(handle: string): number | undefined {
    return this.#resolve(handle, "get the window number").node.window_number;
  }

  release(handles: Iterable<string>): void {
    this.released.push(...handles);
  }

  releaseApp(pid: number): void {
    this.released.push(`${pid}:*`);
  }

  close(): void {}

  #app(pid: number): App {
    const app = this.#apps.get(pid);
    if (!app) throw new Error(`No fixture app with pid ${pid}`);
    return app;
  }

  #node(app: App, id: string): FixtureNode {
    const node = app.nodes.get(id);
    if (!node) throw new Error(`Fixture "${app.dump.app.name}" has no element "${id}"`);
    return node;
  }

  #resolve(handle: string, what: string): { node: FixtureNode; pid: number } {
    this.calls++;
    if (!this.#trusted) throw axError(AX_ERROR.kAXErrorAPIDisabled, what);
    const pid = this.pidOf(handle);
    const app = this.#apps.get(pid);
    if (app && !app.running) throw axError(AX_ERROR.kAXErrorCannotComplete, what);
    const node = app?.nodes.get(handle.slice(handle.indexOf(":") + 1));
    if (!node) throw axError(AX_ERROR.kAXErrorInvalidUIElement, what);
    return { node, pid };
  }

  #value(node: FixtureNode, pid: number, name: string): AxValue {
    const ref = (id: string) => `${pid}:${id}`;
    if (name === "AXChildren") {
      const kids = node.children ?? [];
      return { kind: "array", items: kids.map((c) => ({ kind: "element", element: ref(c.id) })) };
    }
    const v = node.attributes[name];
    if (v === undefined) return { kind: "none", status: AX_ERROR.kAXErrorAttributeUnsupported };
    return axValueFromJson(v, ref);
  }
}
