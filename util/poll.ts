/**
 * Reading a value until it is what an action should have made it: the toolkits change
 * state from their own main loop, or another process, some time after they answer.
 *
 * @module
 */

/**
 * Calls `read` until `done` says yes of its value or `ms` pass, `stepMs` apart.
 *
 * @returns The last value read (the caller tells a miss by `done` again).
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  ms: number,
  stepMs = 25,
): Promise<T> {
  const until = performance.now() + ms;
  while (true) {
    const value = await read();
    if (done(value) || performance.now() >= until) return value;
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
