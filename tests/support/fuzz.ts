/**
 * Fuzzed requests for every op, for the reliability test and bench: params built from
 * each op's own field names with random JSON values (mostly wrong types, now and then a
 * valid call), plus params that are not objects at all. Seeded, so a failure replays.
 *
 * @module
 */
import fc from "fast-check";
import { OP_NAMES, OPS } from "../../protocol/ops.ts";

/** One request to send. */
export interface FuzzRequest {
  /** JSON-RPC id. */
  id: number;
  /** Op name. */
  method: string;
  /** Whatever the fuzzer made. */
  params: unknown;
}

/** A deadline every fuzzed call carries: a valid-by-chance `hold_key` must not hold 60 s. */
const DEADLINE = { timeout_ms: 2_000 };

/** The field names of an op's params (its zod object's shape). */
function fieldsOf(op: (typeof OP_NAMES)[number]): string[] {
  const shape = (OPS[op].params as unknown as { shape?: Record<string, unknown> }).shape;
  return Object.keys(shape ?? {}).filter((k) => k !== "timeout_ms");
}

/** `perOp` fuzzed requests for each op, ids from 1, the same for the same `seed`. */
export function fuzzedRequests(perOp: number, seed: number): FuzzRequest[] {
  const out: FuzzRequest[] = [];
  for (const [i, op] of OP_NAMES.entries()) {
    const fields = fieldsOf(op);
    const keys = fc.constantFrom(...fields, "extra");
    const objects = fc.dictionary(keys, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 })
      .map((p) => ({ ...p, ...DEADLINE }));
    const params = fc.oneof(
      { weight: 8, arbitrary: objects },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
    );
    for (const p of fc.sample(params, { numRuns: perOp, seed: seed + i })) {
      out.push({ id: out.length + 1, method: op, params: p });
    }
  }
  return out;
}
