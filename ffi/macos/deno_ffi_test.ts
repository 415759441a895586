/**
 * The Deno FFI behaviours the macOS bindings rely on, checked here against glibc (the
 * frameworks themselves can't be loaded off macOS): pointer statics, by-value structs,
 * `nonblocking` calls with out-parameters, aliased symbols, and a callback run
 * synchronously inside a foreign call on a worker's thread (how the AXHub receives
 * observer callbacks inside `CFRunLoopRunInMode`).
 */
import assert from "node:assert/strict";
import { outPointer, readOutPointer, readStatic } from "./cf.ts";
import { CF_RANGE } from "./core_foundation.ts";
import { CG_POINT } from "./core_graphics.ts";
import { cString, decodeCFRange, encodeCGPoint } from "./marshal.ts";

const LIBC = "libc.so.6";
const linux = Deno.build.os === "linux";

Deno.test({
  name: "a pointer static is the variable's address: readStatic() reads its value",
  ignore: !linux,
  fn() {
    const lib = Deno.dlopen(LIBC, { program_invocation_short_name: { type: "pointer" } });
    try {
      const value = readStatic(lib.symbols.program_invocation_short_name);
      assert.ok(value);
      assert.equal(Deno.UnsafePointerView.getCString(value), "deno");
      assert.equal(readStatic(null), null);
    } finally {
      lib.close();
    }
  },
});

Deno.test({
  name: "a struct of two longs returned by value decodes with the CFRange layout",
  ignore: !linux,
  fn() {
    // ldiv_t ldiv(long numerator, long denominator): {long quot; long rem;}, like CFRange.
    const lib = Deno.dlopen(LIBC, { ldiv: { parameters: ["isize", "isize"], result: CF_RANGE } });
    try {
      const bytes = lib.symbols.ldiv(47n, 5n);
      assert.deepEqual(decodeCFRange(bytes), { location: 9, length: 2 });
    } finally {
      lib.close();
    }
  },
});

Deno.test({
  name: "two doubles passed by value use the CGPoint layout",
  ignore: !linux,
  fn() {
    // double cabs(double complex z): a complex double travels like struct {double; double;}.
    const lib = Deno.dlopen("libm.so.6", { cabs: { parameters: [CG_POINT], result: "f64" } });
    try {
      assert.equal(lib.symbols.cabs(encodeCGPoint({ x: 3, y: 4 })), 5);
    } finally {
      lib.close();
    }
  },
});

Deno.test({
  name: "a nonblocking call fills an out-pointer slot; aliased entries share one symbol",
  ignore: !linux,
  async fn() {
    const lib = Deno.dlopen(LIBC, {
      // long strtol(const char *nptr, char **endptr, int base);
      strtol: { parameters: ["buffer", "buffer", "i32"], result: "isize", nonblocking: true },
      // The same symbol under a second typed entry, as objc_msgSend's variants are.
      strtolSync: { name: "strtol", parameters: ["buffer", "buffer", "i32"], result: "i64" },
    });
    try {
      const text = cString("1234xyz");
      const end = outPointer();
      assert.equal(await lib.symbols.strtol(text, end, 10), 1234n);
      const rest = readOutPointer(end);
      assert.ok(rest);
      assert.equal(Deno.UnsafePointerView.getCString(rest), "xyz");
      assert.equal(lib.symbols.strtolSync(cString("-77"), null, 10), -77n);
    } finally {
      lib.close();
    }
  },
});

Deno.test({
  name: "a callback runs synchronously inside a foreign call on a worker's own thread",
  ignore: !linux,
  async fn() {
    // The worker sorts with qsort and a JavaScript comparator: the callback is entered from
    // inside the blocking foreign call, on the worker's thread, as AXObserver callbacks are
    // entered from inside CFRunLoopRunInMode in the AXHub's worker; the callback itself
    // makes another foreign call.
    const code = `
      const lib = Deno.dlopen("${LIBC}", {
        qsort: { parameters: ["buffer", "usize", "usize", "function"], result: "void" },
        abs: { parameters: ["i32"], result: "i32" },
      });
      let calls = 0;
      const cb = new Deno.UnsafeCallback(
        { parameters: ["pointer", "pointer"], result: "i32" },
        (a, b) => {
          // A foreign call from inside the callback, as the observer callback decodes
          // the notification's CFString with CoreFoundation.
          calls += lib.symbols.abs(-1);
          return new Deno.UnsafePointerView(a).getInt32() - new Deno.UnsafePointerView(b).getInt32();
        },
      );
      const data = new Int32Array([5, 3, 9, 1, 7]);
      lib.symbols.qsort(data, 5n, 4n, cb.pointer);
      cb.close();
      lib.close();
      self.postMessage({ sorted: [...data], calls });
    `;
    const url = URL.createObjectURL(new Blob([code], { type: "application/javascript" }));
    const worker = new Worker(url, { type: "module" });
    try {
      const result = await new Promise<{ sorted: number[]; calls: number }>((resolve, reject) => {
        worker.onmessage = (e) => resolve(e.data);
        worker.onerror = (e) => {
          e.preventDefault();
          reject(new Error(e.message));
        };
      });
      assert.deepEqual(result.sorted, [1, 3, 5, 7, 9]);
      assert.ok(result.calls > 0);
    } finally {
      worker.terminate();
      URL.revokeObjectURL(url);
    }
  },
});
