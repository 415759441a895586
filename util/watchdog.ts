/**
 * The driver's own watchdog: a worker thread that kills the process when the main event
 * loop stops turning. Apps that hang are bounded by call timeouts, but a driver bug that
 * spins the loop (seen once: 100% CPU, SIGTERM ignored, because Deno runs signal
 * listeners on that very loop) would leave every caller waiting for ever. Killed, the
 * driver is restarted by its service manager or its parent (install/SIDECAR.md), and
 * its socket file, left behind, is replaced by the next start.
 *
 * The main thread bumps a counter in shared memory on a timer; the worker, which has its
 * own loop, checks that the counter moves. The worker's code is inline so the bundle and
 * compiled binaries carry it without an extra module file.
 *
 * @module
 */

/** Watchdog settings. */
export interface WatchdogOptions {
  /** A loop that has not turned this long is stalled (ms). */
  stallMs: number;
  /** How often the main loop proves it turns (ms; default a tenth of `stallMs`). */
  beatMs?: number;
  /**
   * The process alarm (POSIX `alarm(2)`: seconds until SIGALRM ends the process, 0 to
   * cancel). With it, each beat pushes the alarm back and no worker is started; the
   * stall is then told by the exit signal (SIGALRM), not by a log line.
   */
  alarm?: (seconds: number) => void;
}

// Runs in the worker. Plain JavaScript, since a worker made from a Blob is not compiled.
const WORKER = `
self.onmessage = (e) => {
  const { buffer, stallMs, beatMs } = e.data;
  const beats = new Int32Array(buffer);
  let seen = Atomics.load(beats, 0);
  let since = performance.now();
  setInterval(() => {
    const now = Atomics.load(beats, 0);
    if (now !== seen) {
      seen = now;
      since = performance.now();
      return;
    }
    const stalled = Math.round(performance.now() - since);
    if (stalled < stallMs) return;
    const line = JSON.stringify({
      ts: new Date().toISOString(),
      level: "error",
      msg: "the event loop stopped turning; killing the driver so it is restarted",
      stalled_ms: stalled,
    }) + "\\n";
    try { Deno.stderr.writeSync(new TextEncoder().encode(line)); } catch { /* no stderr */ }
    Deno.kill(Deno.pid, "SIGKILL");
  }, Math.max(10, Math.min(beatMs, 1000)));
};
`;

/** Starts the watchdog; returns the function that stops it (call it before exiting). */
export function startWatchdog(options: WatchdogOptions): () => void {
  const beatMs = Math.max(10, options.beatMs ?? options.stallMs / 10);
  const alarm = options.alarm;
  if (alarm) {
    // Whole seconds, rounded up: a beat at most beatMs late never fires it early.
    const seconds = Math.ceil(options.stallMs / 1000);
    alarm(seconds);
    const beat = setInterval(() => alarm(seconds), beatMs);
    Deno.unrefTimer(beat);
    return () => {
      clearInterval(beat);
      alarm(0);
    };
  }
  const buffer = new SharedArrayBuffer(4);
  const beats = new Int32Array(buffer);
  const beat = setInterval(() => Atomics.add(beats, 0, 1), beatMs);
  Deno.unrefTimer(beat); // The watchdog never keeps a finished driver alive.
  const url = URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" }));
  const worker = new Worker(url, { type: "module" });
  worker.postMessage({ buffer, stallMs: options.stallMs, beatMs });
  return () => {
    clearInterval(beat);
    worker.terminate();
    URL.revokeObjectURL(url);
  };
}
