/**
 * The variant value holder shared by the encoder and decoder.
 *
 * @module
 */

/**
 * A D-Bus variant (`v`): a value together with its own single-type signature. Decoded
 * variants come back as instances; values sent as `v` must be instances.
 */
export class Variant {
  /** Pairs `value` with the single complete type `signature` that describes it. */
  constructor(readonly signature: string, readonly value: unknown) {}
}
