import assert from "node:assert/strict";
import { DriverError, isDriverError } from "../../protocol/errors.ts";
import { HR, hresultError } from "../../ffi/windows/hresult.ts";
import type { EngineEvent } from "../../model/engine.ts";
import { WorkerClient, type WorkerPort } from "./worker_client.ts";
import { fromWire, toWire, type WorkerMessage, type WorkerRequest } from "./worker_protocol.ts";

/** A client over a MessageChannel whose other end the test plays the worker on. */
function pair(): {
  client: WorkerClient;
  worker: MessagePort;
  requests: WorkerRequest[];
  close(): void;
} {
  const channel = new MessageChannel();
  const requests: WorkerRequest[] = [];
  channel.port2.onmessage = (e: MessageEvent<WorkerRequest>) => requests.push(e.data);
  const client = new WorkerClient(channel.port1 as unknown as WorkerPort);
  return {
    client,
    worker: channel.port2,
    requests,
    close: () => {
      client.close();
      channel.port1.close();
      channel.port2.close();
    },
  };
}

async function until(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 1));
  }
}

const reply = (port: MessagePort, m: WorkerMessage) => port.postMessage(m);
const never = new AbortController().signal;

Deno.test("WorkerClient matches replies to calls by id, in any order", async () => {
  const t = pair();
  try {
    const a = t.client.call("focused", { timeoutMs: 100 }, never);
    const b = t.client.call("childCount", { window: "w1", hwnd: "1", timeoutMs: 100 }, never);
    await until(() => t.requests.length === 2);
    const [ra, rb] = t.requests;
    assert.equal(ra!.op, "focused");
    reply(t.worker, { id: rb!.id, ok: true, result: 12, calls: 3 });
    reply(t.worker, { id: ra!.id, ok: true, result: "16.1", calls: 4 });
    assert.equal(await b, 12);
    assert.equal(await a, "16.1");
    assert.equal(t.client.calls, 4);
  } finally {
    t.close();
  }
});

Deno.test("worker errors come back as DriverErrors with their cause", async () => {
  const t = pair();
  try {
    const p = t.client.call("act", {
      window: "w1",
      handle: "h",
      target: { name: "7", role: "AXButton", actions: [] },
      action: "press",
      timeoutMs: 100,
    }, never);
    await until(() => t.requests.length === 1);
    const err = hresultError(HR.UIA_E_ELEMENTNOTAVAILABLE, "IUIAutomationInvokePattern::Invoke");
    reply(t.worker, { id: t.requests[0]!.id, ok: false, error: toWire(err), calls: 0 });
    await assert.rejects(p, (e: unknown) => {
      assert.ok(isDriverError(e, "element_not_found"));
      assert.equal(e.data.hresult, "0x80040201");
      assert.ok(e.cause instanceof Error);
      assert.equal(e.cause.name, "HResultError");
      assert.match(e.cause.message, /UIA_E_ELEMENTNOTAVAILABLE/);
      return true;
    });
  } finally {
    t.close();
  }
});

Deno.test("a call whose deadline passes answers timeout; the late reply is dropped", async () => {
  const t = pair();
  try {
    const p = t.client.call("read", {
      window: "w1",
      hwnd: "1",
      maxElements: 10,
      timeoutMs: 50,
      budgetMs: 50,
    }, AbortSignal.timeout(20));
    await assert.rejects(p, (e: unknown) => {
      assert.ok(isDriverError(e, "timeout"));
      assert.equal(typeof e.data.ms, "number");
      return true;
    });
    reply(t.worker, { id: t.requests[0]!.id, ok: true, result: {}, calls: 9 });
    await until(() => t.client.calls === 9);
  } finally {
    t.close();
  }
});

Deno.test("events go to the listener; close() fails pending calls and refuses new ones", async () => {
  const t = pair();
  try {
    const seen: EngineEvent[] = [];
    t.client.onEvent = (e) => seen.push(e);
    reply(t.worker, { event: { app: "p1", kind: "focus", handle: "h" } });
    await until(() => seen.length === 1);
    const pending = t.client.call("subscribe", {}, never);
    t.client.close("worker_crashed");
    await assert.rejects(
      pending,
      (e: unknown) => isDriverError(e, "driver_unavailable") && e.data.reason === "worker_crashed",
    );
    await assert.rejects(t.client.call("focused", { timeoutMs: 1 }, never), DriverError);
  } finally {
    t.close();
  }
});

Deno.test("toWire() wraps unexpected throws as internal; fromWire() restores the code", () => {
  const w = toWire(new TypeError("boom"));
  assert.equal(w.code, "internal");
  assert.equal(w.message, "UIA worker failed: boom");
  assert.equal(fromWire(w).cause instanceof Error, true);
  assert.equal(fromWire(toWire(new DriverError("timeout", "slow", { ms: 5 }))).data.ms, 5);
});
