/**
 * The per-launch token for loopback TCP: generated from the OS RNG and compared in
 * constant time. Never logged.
 *
 * @module
 */

/** 32 random bytes as 64 hex digits. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

const encoder = new TextEncoder();

/**
 * Compares `given` with `expected` in time independent of where they differ. Both are
 * padded to the expected length so a length mismatch takes the same path.
 */
export function tokenMatches(given: unknown, expected: string): boolean {
  if (typeof given !== "string") return false;
  const a = encoder.encode(given);
  const b = encoder.encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= (a[i] ?? 0) ^ b[i]!;
  return diff === 0;
}
