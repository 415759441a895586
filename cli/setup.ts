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

/** A started driver with the dispatcher that serves it. */
export interface Assembled {
  /** Files in use. */
  paths: DriverPaths;
  /** The driver. */
  driver: Driver;
  /** Its dispatcher. */
  dispatcher: Dispatcher;
}

/**
 * Starts a driver on `dataDirOverride` (or the default data folder); `oneShot` for a
 * driver that serves one call and exits; `trace` records every op into that folder.
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
  return { paths, driver, dispatcher };
}
