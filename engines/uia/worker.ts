/**
 * The COM worker: a Deno Worker whose thread joins the process's multithreaded apartment
 * and makes every UIA call (the design document's "one MTA thread"). It serves one
 * request at a time, in order, and posts events as UIA delivers them.
 *
 * Started by `UiaEngine` with `new Worker(new URL("./worker.ts", import.meta.url))`.
 *
 * @module
 */
import { loadWindows } from "../../ffi/windows/load.ts";
import { UiaSession } from "./session.ts";
import {
  toWire,
  type WorkerCalls,
  type WorkerMessage,
  type WorkerOp,
  type WorkerRequest,
} from "./worker_protocol.ts";

/** The worker global, typed for what this module uses of it. */
const port = self as unknown as {
  postMessage(m: WorkerMessage): void;
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  close(): void;
};

let session: UiaSession | undefined;
let queue: Promise<void> = Promise.resolve();

function open(): UiaSession {
  if (!session) throw new Error("init was not called");
  return session;
}

type Handlers = {
  [K in WorkerOp]: (
    p: WorkerCalls[K]["params"],
  ) => WorkerCalls[K]["result"] | Promise<WorkerCalls[K]["result"]>;
};

const ok = { ok: true } as const;

const handlers: Handlers = {
  init: () => {
    if (session) return ok;
    const libs = loadWindows();
    session = UiaSession.open({
      ole32: libs.ole32,
      ole: libs.oleaut32,
      user32: { ...libs.user32, GetCurrentThreadId: libs.kernel32.GetCurrentThreadId },
    });
    return ok;
  },
  fallbacks: () => open().fallbacks,
  read: (p) => open().read(p),
  readNodes: (p) => open().readNodes(p),
  childCount: (p) => open().childCount(p),
  focused: (p) => open().focused(p),
  act: (p) => open().act(p),
  subscribe: async () => {
    await open().subscribe((event) => port.postMessage({ event }));
    return ok;
  },
  unsubscribe: async () => {
    await open().unsubscribe();
    return ok;
  },
  close: async () => {
    await session?.close();
    session = undefined;
    return ok;
  },
};

async function serve(req: WorkerRequest): Promise<void> {
  const calls = () => session?.calls ?? 0;
  try {
    const handler = handlers[req.op] as (p: unknown) => unknown;
    const result = await handler(req.params);
    port.postMessage({ id: req.id, ok: true, result, calls: calls() });
  } catch (err) {
    port.postMessage({ id: req.id, ok: false, error: toWire(err), calls: calls() });
  }
}

port.onmessage = (e) => {
  // One request at a time, in arrival order: UIA state (timeouts, handles) is per call.
  queue = queue.then(() => serve(e.data));
};
