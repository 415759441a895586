/**
 * AT-SPI state sets: `GetState` and the cache answer two 32-bit words of AtspiStateType
 * bits (atspi-constants.h numbering).
 *
 * @module
 */

/** The AtspiStateType numbers the driver reads. */
export const STATE = {
  ACTIVE: 1,
  CHECKED: 4,
  COLLAPSED: 5,
  DEFUNCT: 6,
  EDITABLE: 7,
  ENABLED: 8,
  EXPANDABLE: 9,
  EXPANDED: 10,
  FOCUSABLE: 11,
  FOCUSED: 12,
  ICONIFIED: 15,
  MODAL: 16,
  MULTI_LINE: 17,
  PRESSED: 20,
  SELECTABLE: 22,
  SELECTED: 23,
  SENSITIVE: 24,
  SHOWING: 25,
  SINGLE_LINE: 26,
  VISIBLE: 30,
  MANAGES_DESCENDANTS: 31,
  INDETERMINATE: 32,
  CHECKABLE: 41,
  HAS_POPUP: 42,
  READ_ONLY: 43,
} as const;

/** A decoded state set. */
export class StateSet {
  readonly #lo: number;
  readonly #hi: number;

  /** From the wire's `au` (missing words count as 0). */
  constructor(words: readonly number[]) {
    this.#lo = words[0] ?? 0;
    this.#hi = words[1] ?? 0;
  }

  /** Is state `n` set? */
  has(n: number): boolean {
    return n < 32 ? ((this.#lo >>> n) & 1) === 1 : ((this.#hi >>> (n - 32)) & 1) === 1;
  }
}
