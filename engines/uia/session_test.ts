import assert from "node:assert/strict";
import { formatGuid } from "../../ffi/windows/guid.ts";
import { HR } from "../../ffi/windows/hresult.ts";
import { isDriverError } from "../../protocol/errors.ts";
import { type FakeNode, type FakeOptions, FakeUia } from "./_testing.ts";
import { PATTERN } from "./ids.ts";
import { type SessionLibs, UiaSession } from "./session.ts";

function notepad(): FakeNode {
  return {
    name: "Untitled - Notepad",
    controlType: 50032,
    rect: [100, 100, 900, 700],
    children: [
      {
        name: "Text editor",
        controlType: 50030,
        value: "",
        focusable: true,
        patterns: [PATTERN.Value],
      },
      { name: "File", controlType: 50011, patterns: [PATTERN.ExpandCollapse] },
    ],
  };
}

/** A session over a fake UIA: ole32 answers CoCreateInstance with the fake automation. */
function open(root: FakeNode, options: Omit<FakeOptions, "hwnds"> = {}) {
  const uia = new FakeUia(root, { hwnds: new Map([[0x1234n, root]]), ...options });
  const com = { init: 0, uninit: 0, created: "" };
  const libs: SessionLibs = {
    ole: uia.ole,
    // The fake answers every UIA call, so the Win32 messages of the live read are never sent.
    user32: {} as SessionLibs["user32"],
    ole32: {
      CoInitializeEx: (_r, mode) => (com.init++, mode === 0 ? HR.S_OK : HR.E_INVALIDARG),
      CoUninitialize: () => void com.uninit++,
      CoCreateInstance: (clsid, _outer, _ctx, iid, out) => {
        com.created = `${formatGuid(clsid as Uint8Array)} as ${formatGuid(iid as Uint8Array)}`;
        (out as BigUint64Array)[0] = Deno.UnsafePointer.value(uia.automation());
        return HR.S_OK;
      },
    },
  };
  return { uia, com, session: UiaSession.open(libs) };
}

const read = { window: "w1234", hwnd: "1234", maxElements: 100, timeoutMs: 900, budgetMs: 5_000 };

Deno.test("UiaSession joins the MTA, creates CUIAutomation8 and reads a window in one call", async () => {
  const { uia, com, session } = open(notepad());
  try {
    assert.equal(com.init, 1);
    assert.equal(
      com.created,
      "e22ad333-b25f-460c-83d0-0581107395c9 as 34723aff-0c9d-49d0-9896-7ab52df8cd8a",
    );
    const tree = await session.read(read);
    assert.equal(tree.nodes, 3);
    assert.deepEqual(tree.root.children.map((c) => c.role), ["AXTextArea", "AXMenuItem"]);
    assert.deepEqual(uia.calls, [
      "ConnectionTimeout(900)",
      "TransactionTimeout(900)",
      "ElementFromHandleBuildCache(scope 7)",
    ]);
    const editor = tree.root.children[0]!;
    const reply = session.act({
      window: "w1234",
      handle: editor.handle,
      target: { name: editor.name, role: editor.role, actions: editor.actions },
      action: "type_text",
      value: "hi",
      timeoutMs: 900,
    });
    assert.deepEqual(reply, { keyboard: "hi" });
    assert.equal(session.childCount({ window: "w1234", hwnd: "1234", timeoutMs: 900 }), 2);
    const patched = session.readNodes({
      window: "w1234",
      requests: [{ handle: editor.handle, scope: "node" }, { handle: "gone", scope: "node" }],
      maxElements: 100,
      timeoutMs: 900,
    });
    assert.deepEqual(patched.map(([h, n]) => [h, n?.name ?? null]), [
      [editor.handle, "Text editor"],
      ["gone", null],
    ]);
    assert.equal(session.focused({ timeoutMs: 900 }), null, "no focused element is an answer");
  } finally {
    await session.close();
  }
  assert.equal(com.uninit, 1);
  assert.deepEqual(uia.live(), { elements: 0, arrays: 0, patterns: 0 });
  assert.equal(uia.liveHelpers(), 0, "cache requests, conditions, walker, automation released");
  assert.equal(uia.ole.live, 0);
  uia.close();
});

Deno.test("a window too big for one call is walked within the budget and marked truncated", async () => {
  const root = notepad();
  root.children!.push(
    ...Array.from({ length: 50 }, (_, i) => ({ name: `row ${i}`, controlType: 50007 })),
  );
  const { uia, session } = open(root, { subtreeTimesOut: true });
  try {
    const tree = await session.read({ ...read, maxElements: 10 });
    assert.equal(tree.nodes, 10);
    assert.equal(tree.truncated, true);
    assert.deepEqual(uia.calls.filter((c) => c.startsWith("Element")), [
      "ElementFromHandleBuildCache(scope 7)",
      "ElementFromHandleBuildCache(scope 1)",
    ]);
    await session.read({ ...read, maxElements: 10 });
    assert.equal(
      uia.calls.filter((c) => c === "ElementFromHandleBuildCache(scope 7)").length,
      1,
      "the next read goes straight to the bounded walk",
    );
  } finally {
    await session.close();
    uia.close();
  }
});

Deno.test("reading a window that is gone answers window_not_found", async () => {
  const { uia, session } = open(notepad());
  try {
    await assert.rejects(
      session.read({ ...read, window: "w99", hwnd: "99" }),
      (e: unknown) => isDriverError(e, "window_not_found") && e.message === 'Window "w99" is gone',
    );
    assert.throws(
      () =>
        session.act({
          window: "w99",
          handle: "x",
          target: { name: "", role: "AXButton", actions: [] },
          action: "press",
          timeoutMs: 900,
        }),
      (e: unknown) => isDriverError(e, "element_not_found"),
    );
  } finally {
    await session.close();
    uia.close();
  }
});
