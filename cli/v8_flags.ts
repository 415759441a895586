/**
 * The V8 flags every launch of the driver carries: `deno compile` bakes them into the
 * executables, and each `deno run` of the source or the bundle (tasks, service launchers,
 * the MCP client configuration in the docs, the tests) passes them on its command line,
 * because V8 sizes its heap when it starts and no flag set later changes that.
 *
 * `--max-semi-space-size=1` (MB): V8 lets the young generation grow to tens of MB while
 * a process allocates fast, and a driver answering reads in a tight loop allocates
 * fast and briefly: each answer is garbage by the next. A 1 MB nursery held a tight read
 * loop's peak resident set at 90 MB where the default reached 116 MB, at the same rate of
 * reads (issue 48; `deno task bench soak` measures it). tests/v8_flags_test.ts holds
 * every launcher to this list.
 *
 * @module
 */

/** The flags, one per entry. */
export const V8_FLAGS = ["--max-semi-space-size=1"] as const;

/** The flags as `deno run` and `deno compile` take them. */
export const V8_FLAGS_ARG = `--v8-flags=${V8_FLAGS.join(",")}`;
