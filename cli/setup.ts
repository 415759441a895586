/**
 * Builds a driver and its dispatcher from the command line's data folder: shared by
 * `serve` and the in-process path of `call`.
 *
 * @module
 */
import { Dispatcher } from "../rpc/dispatcher.ts";
import { Driver } from "../driver/driver.ts";
import { loadConfig } from "./config_file.ts";
import { dataDir, type DriverPaths, driverPaths } from "../util/paths.ts";
import { releaseWhenQuiet } from "../util/memory.ts";
import { trimMalloc } from "../ffi/posix_libc.ts";
import { log } from "../util/log.ts";

/** A started driver with the dispatcher that serves it. */
export interface Assembled {
  /** Files in use. */
  paths: DriverPaths;
  /** The driver. */
  driver: Driver;
  /** Its dispatcher. */
  dispatcher: Dispatcher;
  /** Closes the driver and stops giving memory back. */
  close(): Promise<void>;
}

/**
 * Starts a driver on `dataDirOverride` (or the default data folder); `oneShot` for a
 * driver that serves one call and exits; `trace` records every op into that folder. A
 * driver that lives on gives its memory back when its requests pause (util/memory.ts).
 */
export async function assemble(
  dataDirOverride?: string,
  oneShot = false,
  trace?: string,
): Promise<Assembled> {
  const paths = driverPaths(dataDirOverride ?? dataDir());
  const config = await loadConfig(`${paths.driverDir}/config.jsonc`);
  const driver = await Driver.start({
    paths,
    config,
    oneShot,
    ...(trace !== undefined ? { trace } : {}),
  });
  const dispatcher = new Dispatcher(driver.handlers(), {
    defaultTimeoutMs: config.request_timeout_ms,
    onSessionEnd: (session) => driver.sessionEnded(session),
  });
  const stopRelease = oneShot ? () => {} : releaseWhenQuiet({
    activity: () => dispatcher.activity,
    // Windows has no POSIX C library to ask; V8's heap is still collected there.
    ...(Deno.build.os === "windows" ? {} : { trim: trimMalloc }),
    onRelease: ({ why, before, after, ms }) => {
      const mb = (m: Deno.MemoryUsage) =>
        [m.rss, m.heapTotal, m.heapUsed, m.external].map((b) => Math.round(b / 1e5) / 10);
      log("debug", "memory given back", {
        why,
        ms: Math.round(ms),
        // Each as [resident, V8 heap, of it in use, external], in MB.
        before_mb: mb(before),
        after_mb: mb(after),
      });
    },
  });
  return {
    paths,
    driver,
    dispatcher,
    async close() {
      stopRelease();
      await driver.close();
    },
  };
}
