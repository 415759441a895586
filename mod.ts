/**
 * The Allternit Driver as a library: a typed client for a running driver, the protocol's
 * schemas and types, and the error type its calls reject with.
 *
 * ```ts
 * import { DriverClient } from "./mod.ts";
 * const driver = await DriverClient.connect({ socket: "/run/allternit/driver.sock" });
 * const ui = await driver.call("read_ui", { app: "gnome-calculator" });
 * await driver.call("act", { window: ui.window, version: ui.version, id: "…", action: "press" });
 * await driver.close();
 * ```
 *
 * @module
 */
export { type ClientTarget, DriverClient } from "./rpc/client.ts";
export { DriverError, type ErrorCode } from "./protocol/errors.ts";
export { OP_NAMES, type OpName, OPS, type ParamsOf, type ResultOf } from "./protocol/ops.ts";
export { ActionName, Bounds, Element } from "./protocol/element.ts";
export { NAME, PROTOCOL, VERSION } from "./model/version.ts";
