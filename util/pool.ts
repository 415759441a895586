/**
 * Bounded concurrency: keeps at most `limit` calls in flight. Used to pipeline many calls
 * to one app without exceeding the bus's per-connection limit on pending replies.
 *
 * @module
 */

/** Maps `items` through `fn` with at most `limit` pending at once; order is preserved. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
