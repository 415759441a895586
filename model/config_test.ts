import assert from "node:assert/strict";
import { defaultConfig, parseConfig } from "./config.ts";

Deno.test("parseConfig() takes comments and keeps design-document defaults", () => {
  const cfg = parseConfig(`{
    // keep more history
    "versions": 12,
  }`);
  assert.equal(cfg.versions, 12);
  assert.equal(cfg.watch_limit, 8);
  assert.equal(cfg.probe_ms, 2000);
  assert.deepEqual(defaultConfig().no_reaction_ms, 600);
});

Deno.test("parseConfig() names the line of a syntax error and unknown keys", () => {
  assert.throws(() => parseConfig(`{\n"versions": 3,\n "x" 1}`), /line 3/);
  assert.throws(() => parseConfig(`{"verions": 3}`), /Cannot use/);
  assert.throws(() => parseConfig(`{"versions": 1}`), /versions/);
});

Deno.test("parseConfig(): an emptied file means defaults; a bad value names its line", () => {
  assert.deepEqual(parseConfig(""), defaultConfig());
  assert.deepEqual(parseConfig("// nothing set\n/* yet */\n"), defaultConfig());
  assert.throws(() => parseConfig(`{\n"probe_ms": 5,\n"watchdog_ms": 1}`), /line 2: probe_ms/);
  assert.throws(() => parseConfig(`{\n\n"watchdog_ms": 1}`), /line 3: watchdog_ms: must be 0/);
  assert.equal(parseConfig(`{"watchdog_ms": 0}`).watchdog_ms, 0);
});
