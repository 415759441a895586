/**
 * One driver process plus a client to it, for integration tests.
 *
 * @module
 */
import { DriverClient } from "../../rpc/client.ts";
import type { Element } from "../../protocol/element.ts";
import type { ResultOf } from "../../protocol/ops.ts";
import { type DriverProcess, startDriver } from "./driver_process.ts";
import type { App } from "./apps.ts";

/** A served driver and a connected client. */
export interface Session {
  /** The `serve` process. */
  proc: DriverProcess;
  /** Client on its socket. */
  client: DriverClient;
  /** Closes the client and stops the process. */
  close(): Promise<void>;
}

/** Starts `serve` (with `config.jsonc` contents when given) and connects to it. */
export async function session(
  env: Record<string, string> = {},
  config?: Record<string, unknown>,
): Promise<Session> {
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-test-" });
  if (config) {
    await Deno.mkdir(`${dataDir}/computer-use/driver`, { recursive: true });
    await Deno.writeTextFile(`${dataDir}/computer-use/driver/config.jsonc`, JSON.stringify(config));
  }
  const proc = await startDriver(["serve"], { env, dataDir });
  const client = await DriverClient.connect({ socket: proc.ready.socket! });
  return {
    proc,
    client,
    async close() {
      await client.close();
      await proc.stop();
    },
  };
}

/** The centre of an element, in screen points. */
export function centre(e: Element): { x: number; y: number } {
  return { x: e.bounds.x + e.bounds.w / 2, y: e.bounds.y + e.bounds.h / 2 };
}

/** The element whose role is `role` and whose name or label child reads `label`. */
export function byLabel(elements: readonly Element[], role: string, label: string): Element {
  const exact = elements.find((e) => e.role === role && e.name === label);
  if (exact) return exact;
  // GTK 4 calculator buttons are named "7 7" (label + tooltip); match the first word.
  const loose = elements.find((e) => e.role === role && e.name.split(" ")[0] === label);
  if (!loose) throw new Error(`No ${role} labelled "${label}"`);
  return loose;
}

/**
 * Reads `window` until the driver answers it from memory: the app has gone quiet (a page
 * that just loaded keeps announcing for a while). Returns that read.
 */
export async function quiet(
  client: DriverClient,
  window: string,
  timeoutMs = 10_000,
): Promise<ResultOf<"read_ui">> {
  const deadline = performance.now() + timeoutMs;
  while (true) {
    const r = await client.call("read_ui", { window });
    if (r.cached || performance.now() > deadline) return r;
    await new Promise((ok) => setTimeout(ok, 50));
  }
}

/**
 * Starts an app (its files, when it writes any, listed in `files` and removed after),
 * reads its window with a new driver session, and runs `fn`; stops all of it after.
 */
export async function withApp(
  start: (files: string[]) => Promise<App>,
  fn: (client: DriverClient, app: App, window: string) => Promise<void>,
): Promise<void> {
  const files: string[] = [];
  const app = await start(files);
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: app.pid });
    await fn(s.client, app, r.window);
  } finally {
    await s.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
}
