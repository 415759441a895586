/**
 * `allternit-driver call OP [json]`: one op against the running driver, or against a
 * driver started in this process when none runs. Prints the result as JSON on stdout;
 * an error is printed there too, as `{"error": …}`, and the exit code is 1. Stdout holds
 * exactly one JSON value either way: logs go to stderr and never mix with it.
 *
 * @module
 */
import { DriverClient } from "../rpc/client.ts";
import { DriverError, isDriverError, toRpcError } from "../protocol/errors.ts";
import { resolveTarget, type TargetOptions } from "./target.ts";
import { type SyncWriter, writeAllSync } from "../util/write.ts";
import { moduleUrl } from "../util/lazy.ts";

/** Runs one op; resolves with the exit code. */
export async function callOnce(
  op: string,
  paramsJson: string | undefined,
  options: TargetOptions & { inProcess?: boolean },
): Promise<number> {
  try {
    const params = parseParams(paramsJson);
    const result = await run(op, params, options);
    print(Deno.stdout, result);
    return 0;
  } catch (err) {
    print(Deno.stdout, { error: toRpcError(err) });
    return 1;
  }
}

async function run(
  op: string,
  params: unknown,
  options: TargetOptions & { inProcess?: boolean },
): Promise<unknown> {
  if (!options.inProcess) {
    let client: DriverClient | undefined;
    try {
      client = await DriverClient.connect(resolveTarget(options));
    } catch (err) {
      if (!isDriverError(err, "driver_unavailable")) throw err;
    }
    if (client) {
      try {
        return await client.request(op, params);
      } finally {
        await client.close();
      }
    }
  }
  // The whole driver loads only here: a call to a running one needs none of it.
  const { assemble }: typeof import("./setup.ts") = await import(
    moduleUrl("cli/setup")
  );
  const { driver, dispatcher } = await assemble(options.dataDir, true);
  try {
    return await dispatcher.call(op, params);
  } finally {
    await driver.close();
  }
}

function parseParams(text: string | undefined): unknown {
  if (text === undefined || text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new DriverError("parse_error", `Cannot parse params as JSON: ${(err as Error).message}`);
  }
}

function print(to: SyncWriter, value: unknown): void {
  writeAllSync(to, JSON.stringify(value, null, 2) + "\n");
}
