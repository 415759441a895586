import assert from "node:assert/strict";
import { ComPtr, invoke, IUnknown, type Params, vtableEntry } from "../../ffi/windows/com.ts";
import { HR } from "../../ffi/windows/hresult.ts";
import { writePointer } from "../../ffi/windows/memory.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { FakeClass } from "../../ffi/windows/_fake_class.ts";
import { type FakeNode, FakeUia } from "./_testing.ts";
import type { CacheRequests } from "./cache.ts";
import { handleOfRuntimeId } from "./element_props.ts";
import { UiaEvents } from "./events.ts";
import { EVENT, PROP, STRUCTURE_CHANGE } from "./ids.ts";

/** What the fake IUIAutomation was asked to register. */
interface Registry {
  handlers: Map<string, Deno.PointerObject>;
  log: string[];
}

/** An IUIAutomation that holds handlers the way UIA does: one reference per registration. */
function fakeAutomation(uia: FakeUia, reg: Registry): FakeClass<null> {
  const hold = (what: string, handler: Deno.PointerValue) => {
    invoke(handler!, IUnknown.AddRef);
    reg.handlers.set(what, handler!);
    reg.log.push(`add ${what}`);
    return HR.S_OK;
  };
  const drop = (what: string) => {
    const h = reg.handlers.get(what);
    if (h) invoke(h, IUnknown.Release);
    reg.handlers.delete(what);
    reg.log.push(`remove ${what}`);
    return HR.S_OK;
  };
  type Slot = [Params, (s: null, ...a: never[]) => number];
  const p = "pointer" as const;
  return new FakeClass<null>([], {
    5: [
      [p],
      ((
        _: null,
        out: Deno.PointerValue,
      ) => (writePointer(out, uia.element(uia.root)), HR.S_OK)) as never,
    ] as Slot,
    32: [
      ["i32", p, "i32", p, p],
      ((_: null, id: number, _e: unknown, _s: number, _r: unknown, h: Deno.PointerValue) =>
        hold(`automation ${id}`, h)) as never,
    ] as Slot,
    33: [["i32", p, p], ((_: null, id: number) => drop(`automation ${id}`)) as never] as Slot,
    34: [
      [p, "i32", p, p, p, "i32"],
      ((
        _: null,
        _e: unknown,
        _s: number,
        _r: unknown,
        h: Deno.PointerValue,
        _a: unknown,
        n: number,
      ) => hold(`property x${n}`, h)) as never,
    ] as Slot,
    36: [
      [p, p],
      (() => drop([...reg.handlers.keys()].find((k) => k.startsWith("property"))!)) as never,
    ] as Slot,
    37: [
      [p, "i32", p, p],
      ((_: null, _e: unknown, _s: number, _r: unknown, h: Deno.PointerValue) =>
        hold("structure", h)) as never,
    ] as Slot,
    38: [[p, p], (() => drop("structure")) as never] as Slot,
    39: [
      [p, p],
      ((_: null, _r: unknown, h: Deno.PointerValue) => hold("focus", h)) as never,
    ] as Slot,
    41: [
      [],
      (() => {
        for (const k of [...reg.handlers.keys()]) drop(k);
        return HR.S_OK;
      }) as never,
    ] as Slot,
  });
}

/** Calls a handler's method (slot 3) from another thread, as UIA's event threads do. */
async function raise(
  handler: Deno.PointerObject,
  parameters: Params,
  ...args: unknown[]
): Promise<number> {
  const fn = new Deno.UnsafeFnPointer(
    vtableEntry(handler, 3) as Deno.PointerObject<Omit<Deno.ForeignFunction, "nonblocking">>,
    {
      parameters: ["pointer", ...parameters],
      result: "i32",
      nonblocking: true,
    } as Deno.ForeignFunction,
  );
  return await (fn.call as (...a: unknown[]) => Promise<number>)(handler, ...args);
}

Deno.test("UIA event handlers built in memory turn events from other threads into EngineEvents", async () => {
  const button: FakeNode = { name: "Seven", controlType: 50000, pid: 4242, runtimeId: [42, 77] };
  const root: FakeNode = { name: "Calculator", controlType: 50032, pid: 4242, children: [button] };
  const uia = new FakeUia(root);
  const reg: Registry = { handlers: new Map(), log: [] };
  const automationClass = fakeAutomation(uia, reg);
  const automation = new ComPtr(automationClass.create(null), "IUIAutomation2");
  const placeholder = new ComPtr(uia.walker(), "IUIAutomationCacheRequest");
  const requests = {
    subtree: placeholder,
    element: placeholder,
    bounds: placeholder,
    events: placeholder,
  } as CacheRequests;
  const seen: EngineEvent[] = [];
  const events = new UiaEvents({ ole: uia.ole, automation, requests }, (e) => seen.push(e));
  const sender = uia.element(button);
  try {
    await events.start();
    assert.deepEqual(reg.log, [
      "add focus",
      `add automation ${EVENT.Window_WindowOpened}`,
      `add automation ${EVENT.MenuOpened}`,
    ]);
    using window = new ComPtr(uia.element(root), "IUIAutomationElement");
    await events.watch("w1", window);
    assert.ok(reg.handlers.has("structure") && reg.handlers.has("property x10"));

    const handle = handleOfRuntimeId([42, 77]);
    assert.equal(await raise(reg.handlers.get("focus")!, ["pointer"], sender), HR.S_OK);
    assert.equal(
      await raise(
        reg.handlers.get("property x10")!,
        ["pointer", "i32", "pointer"],
        sender,
        PROP.IsOffscreen,
        null,
      ),
      HR.S_OK,
    );
    await raise(
      reg.handlers.get("structure")!,
      ["pointer", "i32", "pointer"],
      sender,
      STRUCTURE_CHANGE.ChildAdded,
      null,
    );
    await raise(
      reg.handlers.get("structure")!,
      ["pointer", "i32", "pointer"],
      sender,
      STRUCTURE_CHANGE.ChildRemoved,
      null,
    );
    await raise(
      reg.handlers.get(`automation ${EVENT.Text_TextChanged}`)!,
      ["pointer", "i32"],
      sender,
      EVENT.Text_TextChanged,
    );
    assert.deepEqual(seen, [
      { app: "p4242", kind: "focus", handle },
      { app: "p4242", kind: "state", handle, detail: "showing" },
      { app: "p4242", kind: "structure" },
      { app: "p4242", kind: "structure", handle },
      { app: "p4242", kind: "text", handle },
    ]);
    assert.equal(uia.ole.live, 0, "handlers freed the runtime ids they read");

    await events.unwatch("w1");
    assert.ok(!reg.handlers.has("structure"));
    await events.stop();
    assert.equal(reg.handlers.size, 0, "RemoveAllEventHandlers released UIA's references");
  } finally {
    invoke(sender, IUnknown.Release);
    placeholder.release();
    automation.release();
    uia.close();
    automationClass.close();
  }
  assert.deepEqual(uia.live(), { elements: 0, arrays: 0, patterns: 0 });
});
