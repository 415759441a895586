/**
 * Pointer and keyboard input through CoreGraphics events posted at the HID tap, in global
 * points (CG and AX share the top-left origin of the main display). Every event this
 * module creates is released after posting; every key or button pressed is released on
 * every path out.
 *
 * @module
 */
import { CG, type CoreGraphics } from "../../ffi/macos/core_graphics.ts";
import type { Cf } from "../../ffi/macos/cf.ts";
import { encodeCGPoint, type Point } from "../../ffi/macos/marshal.ts";
import { DriverError } from "../../protocol/errors.ts";
import type { PixelInput } from "../../model/engine.ts";
import { flagsOf, macChords, type MacKey } from "./mac_keys.ts";

const CLICK_GAP_MS = 40;
const DRAG_STEPS = 8;
const DRAG_PAUSE_MS = 30;
/** `CGEventKeyboardSetUnicodeString` takes at most 20 UTF-16 units per event. */
const UNICODE_CHUNK = 20;
const RETURN = 0x24;
const TAB = 0x30;

const BUTTONS = {
  left: { down: CG.leftMouseDown, up: CG.leftMouseUp, button: CG.buttonLeft },
  right: { down: CG.rightMouseDown, up: CG.rightMouseUp, button: CG.buttonRight },
  middle: { down: CG.otherMouseDown, up: CG.otherMouseUp, button: CG.buttonCenter },
} as const;

/** UTF-16 units of `text` in chunks of at most `size`, never splitting a surrogate pair. */
export function utf16Chunks(text: string, size: number): Uint16Array<ArrayBuffer>[] {
  const out: Uint16Array<ArrayBuffer>[] = [];
  let i = 0;
  while (i < text.length) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && end - i > 1 && last >= 0xd800 && last <= 0xdbff) end--;
    const units = new Uint16Array(end - i);
    for (let k = i; k < end; k++) units[k - i] = text.charCodeAt(k);
    out.push(units);
    i = end;
  }
  return out;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}

/** Posts CGEvents. */
export class CgInput {
  readonly #cg: CoreGraphics;
  readonly #cf: Cf;

  /** Uses loaded CoreGraphics and CoreFoundation. */
  constructor(cg: CoreGraphics, cf: Cf) {
    this.#cg = cg;
    this.#cf = cf;
  }

  #post(event: Deno.PointerValue, flags?: bigint): void {
    if (event === null) {
      throw new DriverError("internal", "Cannot create an input event: CoreGraphics said no");
    }
    try {
      if (flags !== undefined) this.#cg.CGEventSetFlags(event, flags);
      this.#cg.CGEventPost(CG.hidEventTap, event);
    } finally {
      this.#cf.release(event);
    }
  }

  #mouse(type: number, at: Point, button: number, clicks?: number): void {
    const ev = this.#cg.CGEventCreateMouseEvent(null, type, encodeCGPoint(at), button);
    if (ev !== null && clicks !== undefined) {
      this.#cg.CGEventSetIntegerValueField(ev, CG.mouseEventClickState, BigInt(clicks));
    }
    this.#post(ev);
  }

  #key(code: number, down: boolean, flags: bigint): void {
    this.#post(this.#cg.CGEventCreateKeyboardEvent(null, code, down), flags);
  }

  /** Sends one input. */
  async send(input: PixelInput, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    switch (input.kind) {
      case "move":
        return this.#mouse(CG.mouseMoved, input, CG.buttonLeft);
      case "click":
        return await this.#click(input, signal);
      case "drag":
        return await this.#drag(input.from, input.to, signal);
      case "scroll":
        return this.#scroll(input);
      case "type":
        return this.#type(input.text, signal);
      case "key":
        return await this.#chords(input.keys, "keys", 0, signal);
      case "hold":
        return await this.#chords(input.key, "key", input.ms, signal);
    }
  }

  async #click(
    input: Extract<PixelInput, { kind: "click" }>,
    signal: AbortSignal,
  ): Promise<void> {
    const b = BUTTONS[input.button];
    this.#mouse(CG.mouseMoved, input, CG.buttonLeft);
    // The click state (1, 2, 3) is what makes apps see a double or triple click.
    for (let n = 1; n <= Math.max(1, Math.floor(input.count)); n++) {
      if (n > 1) await delay(CLICK_GAP_MS, signal);
      this.#mouse(b.down, input, b.button, n);
      this.#mouse(b.up, input, b.button, n);
    }
  }

  async #drag(from: Point, to: Point, signal: AbortSignal): Promise<void> {
    this.#mouse(CG.mouseMoved, from, CG.buttonLeft);
    await delay(DRAG_PAUSE_MS, signal);
    this.#mouse(CG.leftMouseDown, from, CG.buttonLeft, 1);
    let at = from;
    try {
      for (let step = 1; step <= DRAG_STEPS; step++) {
        await delay(DRAG_PAUSE_MS / 2, signal);
        const t = step / DRAG_STEPS;
        at = { x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t };
        this.#mouse(CG.leftMouseDragged, at, CG.buttonLeft);
      }
      await delay(DRAG_PAUSE_MS, signal);
    } finally {
      this.#mouse(CG.leftMouseUp, at, CG.buttonLeft, 1);
    }
  }

  #scroll(input: Extract<PixelInput, { kind: "scroll" }>): void {
    const create = this.#cg.CGEventCreateScrollWheelEvent2;
    if (!create) {
      throw new DriverError(
        "driver_unavailable",
        "Cannot scroll: this macOS has no CGEventCreateScrollWheelEvent2",
        {
          reason: "scroll_unavailable",
        },
      );
    }
    if (input.x !== undefined && input.y !== undefined) {
      this.#mouse(CG.mouseMoved, { x: input.x, y: input.y }, CG.buttonLeft);
    }
    // Protocol: dy > 0 scrolls down. A positive wheel value scrolls content up (towards
    // the top), so both axes are negated; units are lines, like a wheel's notches.
    const dy = -Math.round(input.dy);
    const dx = -Math.round(input.dx);
    this.#post(create(null, CG.scrollUnitLine, 2, dy, dx, 0));
  }

  #type(text: string, signal: AbortSignal): void {
    // Return and Tab go as their keys (apps treat them as commands, not characters);
    // everything else as Unicode strings on a neutral key, so any layout types it right.
    for (const part of text.replace(/\r\n?/g, "\n").split(/([\n\t])/)) {
      signal.throwIfAborted();
      if (part === "\n" || part === "\t") {
        const code = part === "\n" ? RETURN : TAB;
        this.#key(code, true, 0n);
        this.#key(code, false, 0n);
        continue;
      }
      for (const units of utf16Chunks(part, UNICODE_CHUNK)) {
        for (const down of [true, false]) {
          const ev = this.#cg.CGEventCreateKeyboardEvent(null, 0, down);
          if (ev !== null) {
            this.#cg.CGEventKeyboardSetUnicodeString(ev, BigInt(units.length), units);
          }
          this.#post(ev, 0n);
        }
      }
    }
  }

  async #chords(keys: string, path: string, holdMs: number, signal: AbortSignal): Promise<void> {
    for (const chord of macChords(keys, path)) {
      const held: MacKey[] = [];
      const pressed: MacKey[] = [];
      try {
        for (const m of chord.modifiers) {
          held.push(m);
          this.#key(m.code, true, flagsOf(held));
        }
        for (const k of chord.keys) {
          this.#key(k.code, true, flagsOf(held, k));
          pressed.push(k);
        }
        if (holdMs > 0) await delay(holdMs, signal);
      } finally {
        for (const k of pressed.reverse()) this.#key(k.code, false, flagsOf(held, k));
        while (held.length > 0) {
          const m = held.pop()!;
          this.#key(m.code, false, flagsOf(held));
        }
      }
    }
  }
}
