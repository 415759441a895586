/**
 * Reading `<data>/computer-use/driver/config.jsonc`: the file's I/O, kept out of the
 * config schema (model/config.ts) so the model stays free of I/O.
 *
 * @module
 */
import { defaultConfig, type DriverConfig, parseConfig } from "../model/config.ts";

/** Reads the config file when there is one, else the defaults. */
export async function loadConfig(path: string): Promise<DriverConfig> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return defaultConfig();
    throw new Error(`Cannot read "${path}"`, { cause: err });
  }
  return parseConfig(text, path);
}
