/**
 * Test helpers for the AX engine (not part of the public API): the hand-written fixtures,
 * a fake AXHub and a desktop that records input instead of posting it.
 *
 * @module
 */
import type { HubEvent } from "./hub/ax_hub.ts";
import type { Capture, PixelInput } from "../../model/engine.ts";
import type { AxDesktop, AxNotifier } from "./desktop.ts";
import { AxEngine } from "./engine.ts";
import { FixtureSource } from "./fixture_source.ts";

/** The TextEdit fixture's pid. */
export const TEXTEDIT_PID = 4101;
/** The Calculator fixture's pid. */
export const CALCULATOR_PID = 4202;

/** Both hand-written fixtures in one source. */
export function fixtures(): Promise<FixtureSource> {
  return FixtureSource.load(
    new URL("./fixtures/textedit.json", import.meta.url),
    new URL("./fixtures/calculator.json", import.meta.url),
  );
}

/** A hub that starts at once and emits what the test tells it to. */
export class FakeHub implements AxNotifier {
  /** Pids being observed. */
  readonly watched = new Set<number>();
  /** Web areas handed over, as (pid, address). */
  readonly webAreas: [number, bigint][] = [];
  readonly #listeners = new Set<(e: HubEvent) => void>();
  /** `start()` was called. */
  started = false;
  /** `close()` was called. */
  closed = false;

  start(): Promise<void> {
    this.started = true;
    return Promise.resolve();
  }
  watch(pid: number): void {
    this.watched.add(pid);
  }
  unwatch(pid: number): void {
    this.watched.delete(pid);
  }
  watchWebArea(pid: number, element: bigint): void {
    this.webAreas.push([pid, element]);
  }
  onEvent(listener: (e: HubEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
  /** Delivers one notification as the worker would. */
  emit(e: HubEvent): void {
    for (const l of this.#listeners) l(e);
  }
  close(): Promise<void> {
    this.closed = true;
    return Promise.resolve();
  }
}

/** Records input; captures are a blank image of the asked area. */
export class RecordingDesktop implements AxDesktop {
  /** Input sent, in order. */
  readonly inputs: PixelInput[] = [];
  /** Captures asked for, in order. */
  readonly captures: { area?: unknown; windowNumber?: number | undefined }[] = [];

  input(input: PixelInput): Promise<void> {
    this.inputs.push(input);
    return Promise.resolve();
  }
  capture(area = { x: 0, y: 0, w: 4, h: 4 }, windowNumber?: number): Capture {
    this.captures.push({ area, windowNumber });
    const width = Math.max(1, Math.round(area.w));
    const height = Math.max(1, Math.round(area.h));
    return {
      width,
      height,
      scale: 1,
      origin: { x: area.x, y: area.y },
      rgba: new Uint8Array(width * height * 4),
    };
  }
}

/** An engine over both fixtures with a fake hub and a recording desktop. */
export async function fixtureEngine(): Promise<{
  engine: AxEngine;
  source: FixtureSource;
  hub: FakeHub;
  desktop: RecordingDesktop;
}> {
  const source = await fixtures();
  const hub = new FakeHub();
  const desktop = new RecordingDesktop();
  return { engine: new AxEngine({ source, hub, desktop }), source, hub, desktop };
}

/** A budget for tests. */
export function budget(maxElements = 5_000): { maxElements: number; signal: AbortSignal } {
  return { maxElements, signal: new AbortController().signal };
}
