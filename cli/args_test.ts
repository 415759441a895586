import assert from "node:assert/strict";
import { parseFlags } from "./args.ts";

const SPEC = { help: "boolean", socket: "string", tcp: "boolean" } as const;

Deno.test("parseFlags() reads values, booleans, -h, = forms and positionals", () => {
  const p = parseFlags(["read_ui", "--socket", "/s", "--tcp", "{}", "-h", "--socket=/t"], SPEC);
  assert.deepEqual(p.values, { socket: "/t", tcp: true, help: true });
  assert.deepEqual(p.positionals, ["read_ui", "{}"]);
  assert.deepEqual(parseFlags(["--", "--tcp"], SPEC).positionals, ["--tcp"]);
});

Deno.test("parseFlags() refuses unknown flags, missing values and values on booleans", () => {
  assert.throws(() => parseFlags(["--nope"], SPEC), /Unknown option "--nope"/);
  assert.throws(() => parseFlags(["--socket"], SPEC), /needs a value/);
  assert.throws(() => parseFlags(["--tcp=1"], SPEC), /does not take a value/);
  assert.throws(() => parseFlags(["-x"], SPEC), /Unknown option "-x"/);
});
