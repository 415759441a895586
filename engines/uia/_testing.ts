/**
 * Fake UIA objects for unit tests on machines without UIAutomationCore (this Linux one):
 * elements, element arrays, a tree walker and control patterns, built as real COM objects
 * in memory (shared vtables of `Deno.UnsafeCallback`s, per-object reference counts) over
 * a tree of plain {@link FakeNode}s. The engine's reading and acting code calls them
 * through the same vtable slots it uses on Windows, and tests check that every reference
 * it took was released. Never used outside tests.
 *
 * @module
 */
import { HR } from "../../ffi/windows/hresult.ts";
import { writeBytes, writeI32, writePointer } from "../../ffi/windows/memory.ts";
import { FakeOleAut } from "../../ffi/windows/_testing.ts";
import { IID } from "./interfaces.ts";
import { FakeClass, type FakeSlot } from "../../ffi/windows/_fake_class.ts";
import { fakeAutomation } from "./_fake_automation.ts";
import { fakePatterns } from "./_fake_patterns.ts";
import { writeProperty } from "./_fake_properties.ts";

/** A node of the fake tree. */
export interface FakeNode {
  name: string;
  controlType: number;
  /** [left, top, right, bottom]. */
  rect?: [number, number, number, number];
  runtimeId?: number[];
  pid?: number;
  enabled?: boolean;
  focused?: boolean;
  focusable?: boolean;
  offscreen?: boolean;
  password?: boolean;
  framework?: string;
  value?: string;
  valueReadOnly?: boolean;
  range?: number;
  /** ToggleState: 0 off, 1 on, 2 indeterminate. */
  toggle?: number;
  /** Toggle() leaves the state as it was (a broken provider). */
  toggleStuck?: boolean;
  /** PATTERNIDs the element supports. */
  patterns?: number[];
  children?: FakeNode[];
}

interface ElementState {
  node: FakeNode;
  parent: FakeNode | undefined;
}

/** How the fake IUIAutomation behaves. */
export interface FakeOptions {
  /** Windows by HWND, for ElementFromHandleBuildCache. */
  hwnds?: Map<bigint, FakeNode>;
  /** Subtree cache requests time out (a window too big for one call). */
  subtreeTimesOut?: boolean;
  /** The node GetFocusedElementBuildCache answers. */
  focused?: FakeNode;
}

/** A fake UIA over `root`. */
export class FakeUia {
  /** oleaut32 double with allocation tracking. */
  readonly ole: FakeOleAut = new FakeOleAut();
  /** Pattern and element calls that reach the app, in order (`Invoke(7)`, `SetFocus(7)`). */
  readonly calls: string[] = [];
  readonly #parents = new Map<FakeNode, FakeNode | undefined>();
  readonly #elements: FakeClass<ElementState>;
  readonly #arrays: FakeClass<Deno.PointerObject[]>;
  readonly #walker: FakeClass<null>;
  readonly #requests: FakeClass<unknown>;
  readonly #conditions: FakeClass<null>;
  readonly #automation: FakeClass<null>;
  readonly #patterns: Map<number, FakeClass<FakeNode>>;
  #nextId = 1;

  constructor(readonly root: FakeNode, readonly options: FakeOptions = {}) {
    const index = (n: FakeNode, parent: FakeNode | undefined) => {
      n.runtimeId ??= [42, this.#nextId++];
      this.#parents.set(n, parent);
      for (const c of n.children ?? []) index(c, n);
    };
    index(root, undefined);
    const ole = this.ole;
    const int = (get: (n: FakeNode) => number | boolean | undefined) =>
      [["pointer"], (s: ElementState, out: Deno.PointerValue) => {
        writeI32(out, Number(get(s.node) ?? 0));
        return HR.S_OK;
      }] as FakeSlot<ElementState>;
    const str = (get: (n: FakeNode) => string | undefined) =>
      [["pointer"], (s: ElementState, out: Deno.PointerValue) => {
        writePointer(out, ole.bstr(get(s.node) ?? ""));
        return HR.S_OK;
      }] as FakeSlot<ElementState>;
    const has = (n: FakeNode, p: number) => (n.patterns ?? []).includes(p);
    this.#arrays = new FakeClass<Deno.PointerObject[]>([], {
      3: [
        ["pointer"],
        ((
          items: Deno.PointerObject[],
          out: Deno.PointerValue,
        ) => (writeI32(out, items.length), HR.S_OK)) as never,
      ],
      4: [
        ["i32", "pointer"],
        ((items: Deno.PointerObject[], i: number, out: Deno.PointerValue) => {
          const el = items[i]!;
          this.#elements.instances.get(Deno.UnsafePointer.value(el))!.refs++;
          writePointer(out, el);
          return HR.S_OK;
        }) as never,
      ],
    }, (items) => {
      for (const el of items) this.#release(el);
    });
    const patternOut = (
      s: ElementState,
      id: number,
      _riid: Deno.PointerValue,
      out: Deno.PointerValue,
    ) => {
      const cls = this.#patterns.get(id);
      if (!cls || !has(s.node, id)) {
        writePointer(out, null);
        return HR.UIA_E_NOTSUPPORTED;
      }
      writePointer(out, cls.create(s.node));
      return HR.S_OK;
    };
    this.#elements = new FakeClass<ElementState>([
      IID.IUIAutomationElement,
      IID.IUIAutomationElement3,
    ], {
      3: [
        [],
        ((
          s: ElementState,
        ) => (this.calls.push(`SetFocus(${s.node.name})`),
          s.node.focusable ? HR.S_OK : HR.UIA_E_NOTSUPPORTED)) as never,
      ],
      6: [
        ["i32", "pointer", "pointer"],
        ((s: ElementState, _scope: number, _cond: Deno.PointerValue, out: Deno.PointerValue) => {
          const kids = (s.node.children ?? []).map((c) => this.element(c));
          writePointer(out, this.#arrays.create(kids));
          return HR.S_OK;
        }) as never,
      ],
      9: [
        ["pointer", "pointer"],
        ((s: ElementState, _req: Deno.PointerValue, out: Deno.PointerValue) => {
          writePointer(out, this.element(s.node));
          return HR.S_OK;
        }) as never,
      ],
      12: [
        ["i32", "pointer"],
        ((s: ElementState, prop: number, v: Deno.PointerValue) => {
          writeProperty(this.ole, s.node, prop, v);
          return HR.S_OK;
        }) as never,
      ],
      14: [["i32", "pointer", "pointer"], patternOut as never],
      15: [["i32", "pointer", "pointer"], patternOut as never],
      19: [
        ["pointer"],
        ((s: ElementState, out: Deno.PointerValue) => {
          const kids = (s.node.children ?? []).map((c) => this.element(c));
          writePointer(out, this.#arrays.create(kids));
          return HR.S_OK;
        }) as never,
      ],
      52: int((n) => n.pid ?? 1234),
      53: int((n) => n.controlType),
      55: str((n) => n.name),
      58: int((n) => n.focused),
      59: int((n) => n.focusable),
      60: int((n) => n.enabled ?? true),
      67: int((n) => n.password),
      70: int((n) => n.offscreen),
      72: str((n) => n.framework ?? "Win32"),
      75: [
        ["pointer"],
        ((s: ElementState, out: Deno.PointerValue) => {
          writeBytes(out, new Uint8Array(new Int32Array(s.node.rect ?? [0, 0, 0, 0]).buffer));
          return HR.S_OK;
        }) as never,
      ],
      91: [
        [],
        ((
          s: ElementState,
        ) => (this.calls.push(`ShowContextMenu(${s.node.name})`), HR.S_OK)) as never,
      ],
    }, () => {});
    const sibling = (n: FakeNode, step: number) => {
      const parent = this.#parents.get(n);
      const list = parent?.children ?? [];
      return list[list.indexOf(n) + step];
    };
    const walk = (pick: (n: FakeNode) => FakeNode | undefined) =>
      [
        ["pointer", "pointer", "pointer"],
        ((_: null, el: Deno.PointerValue, _req: Deno.PointerValue, out: Deno.PointerValue) => {
          const next = pick(this.#elements.instances.get(Deno.UnsafePointer.value(el))!.state.node);
          writePointer(out, next ? this.element(next) : null);
          return HR.S_OK;
        }) as never,
      ] as FakeSlot<null>;
    this.#walker = new FakeClass<null>([], {
      10: walk((n) => n.children?.[0]),
      12: walk((n) => sibling(n, 1)),
    });
    const parts = fakeAutomation(this, this.#walker);
    this.#requests = parts.requests;
    this.#conditions = parts.conditions;
    this.#automation = parts.automation;
    this.#patterns = fakePatterns(ole, this.calls);
  }

  #release(el: Deno.PointerObject): void {
    const inst = this.#elements.instances.get(Deno.UnsafePointer.value(el))!;
    inst.refs--;
  }

  /** A new element object for `node` with one reference (the caller's). */
  element(node: FakeNode): Deno.PointerObject {
    // Nodes a test adds later get their runtime ids and parent links here.
    node.runtimeId ??= [42, this.#nextId++];
    for (const c of node.children ?? []) this.#parents.set(c, node);
    return this.#elements.create({ node, parent: this.#parents.get(node) });
  }

  /** A new IUIAutomation2 object (what CoCreateInstance(CUIAutomation8) answers). */
  automation(): Deno.PointerObject {
    return this.#automation.create(null);
  }

  /** Cache requests, conditions, walkers and automation objects still referenced. */
  liveHelpers(): number {
    return [this.#requests, this.#conditions, this.#walker, this.#automation]
      .reduce((n, c) => n + (c as FakeClass<unknown>).live(), 0);
  }

  /** A control-view tree walker. */
  walker(): Deno.PointerObject {
    return this.#walker.create(null);
  }

  /** Objects still referenced by someone: elements, arrays, patterns. */
  live(): { elements: number; arrays: number; patterns: number } {
    return {
      elements: this.#elements.live(),
      arrays: this.#arrays.live(),
      patterns: [...this.#patterns.values()].reduce((n, c) => n + c.live(), 0),
    };
  }

  /** Frees every callback. */
  close(): void {
    for (
      const c of [
        this.#elements,
        this.#arrays,
        this.#walker,
        this.#requests,
        this.#conditions,
        this.#automation,
        ...this.#patterns.values(),
      ]
    ) {
      (c as FakeClass<unknown>).close();
    }
  }
}
