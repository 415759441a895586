/**
 * Test helpers for the X11 tests: run X tools, start apps and stop them by pid, poll
 * with a deadline, and watch root-window events through `xev`.
 *
 * @module
 */

/** Runs `cmd` to completion and returns its stdout; throws with stderr on failure. */
export async function run(cmd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped" }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")}: ${text.decode(out.stderr)}`);
  return text.decode(out.stdout);
}

/** Polls `probe` until it returns something other than undefined, or fails at the deadline. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (let pause = 10;; pause = Math.min(pause * 2, 200)) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) {
      throw new Error(`Timed out waiting for ${what}`, { cause: last });
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** A started app; {@link stop} kills it by pid and reaps it. */
export interface App {
  /** Process id. */
  pid: number;
  /** Everything it wrote to stdout so far. */
  output(): string;
  /** SIGTERM, then wait for exit. Idempotent. */
  stop(): Promise<void>;
}

/** Starts `cmd` with stdout collected and stderr discarded. */
export function start(cmd: string, ...args: string[]): App {
  const child = new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).spawn();
  let text = "";
  const decoder = new TextDecoder();
  const reading = child.stdout.pipeTo(
    new WritableStream({
      write: (chunk) => void (text += decoder.decode(chunk, { stream: true })),
    }),
  ).catch(() => {});
  let stopped: Promise<void> | undefined;
  return {
    pid: child.pid,
    output: () => text,
    stop: () => {
      stopped ??= (async () => {
        try {
          child.kill("SIGTERM");
        } catch {
          // Already exited.
        }
        await child.status;
        await reading;
      })();
      return stopped;
    },
  };
}

/**
 * Starts `xev` on the root window for button and key events and waits until the server
 * reports its selection, so events sent afterwards are seen.
 */
export async function watchRoot(): Promise<App> {
  const app = start("xev", "-root", "-event", "button", "-event", "keyboard");
  await waitFor("xev to select root events", async () => {
    const events = await run("xwininfo", "-root", "-events");
    return /ButtonPress/.test(events) && /KeyPress/.test(events) ? true : undefined;
  });
  return app;
}

/** Waits for mousepad's first visible window; returns its id. */
export async function mousepadWindow(pid: number): Promise<number> {
  const out = await waitFor("a mousepad window", async () => {
    const ids = await run("xdotool", "search", "--onlyvisible", "--pid", String(pid));
    return ids.trim() ? ids : undefined;
  }, 20_000);
  return Number(out.trim().split("\n")[0]);
}

/** One event as xev printed it. */
export interface XEvent {
  /** `ButtonPress`, `KeyRelease`, ... */
  type: string;
  /** Root x of the pointer. */
  x: number;
  /** Root y of the pointer. */
  y: number;
  /** Button number, for button events. */
  button?: number;
  /** Keysym name, for key events. */
  key?: string;
}

/** Parses xev's blocks ("ButtonPress event, ...\n    root 0x..., (x,y), root:(x,y), ..."). */
export function parseXev(text: string): XEvent[] {
  return text.split(/\n\s*\n/).flatMap((block) => {
    const type = /^(\w+) event/m.exec(block)?.[1];
    const at = /root:\((-?\d+),(-?\d+)\)/.exec(block);
    if (!type || !at) return [];
    const event: XEvent = { type, x: Number(at[1]), y: Number(at[2]) };
    const button = /button (\d+)/.exec(block);
    if (button) event.button = Number(button[1]);
    const key = /keysym 0x[0-9a-f]+, (\S+)\)/.exec(block);
    if (key) event.key = key[1]!;
    return [event];
  });
}

/** Waits until `xev` printed at least `count` events; returns them all. */
export function waitForEvents(xev: App, count: number): Promise<XEvent[]> {
  return waitFor(`${count} X events`, () => {
    const events = parseXev(xev.output());
    return events.length >= count ? events : undefined;
  });
}
