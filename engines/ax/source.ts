/**
 * The "AX source": the small surface the AX engine reads and acts through. The engine's
 * logic (which attributes to fetch, how values become {@link RawNode}s, walking, window
 * ids, action choice) is written once against this interface; `ffi_source.ts` implements
 * it over the real frameworks on macOS, `fixture_source.ts` over a JSON dump so the same
 * logic runs in tests anywhere.
 *
 * Elements are named by string handles the source hands out; raw pointers never leave
 * it. A handle stays valid until {@link AxSource.release} is called with it.
 *
 * @module
 */
import type { AxSettable, AxValue } from "../../ffi/macos/values.ts";

/** Attribute values as the engine sees them (elements are handles). */
export type { AxSettable, AxValue };

/** A running application as the source lists it. */
export interface AxRunningApp {
  /** Process id. */
  pid: number;
  /** Localized name, as a caller would type it. */
  name: string;
  /** Frontmost app. */
  active: boolean;
}

/** What the AX engine needs from macOS accessibility (or a recording of it). */
export interface AxSource {
  /** `ffi` on a Mac, `fixture` in tests. */
  readonly kind: "ffi" | "fixture";
  /** Accessibility calls answered so far (the engine's `stats().calls`). */
  readonly calls: number;
  /** `AXIsProcessTrusted()`: may this process use the accessibility API at all? */
  trusted(): boolean;
  /** Regular apps and apps with on-screen windows. */
  runningApps(): AxRunningApp[];
  /** Handle of the app's element (`AXUIElementCreateApplication`). */
  application(pid: number): string;
  /**
   * Several attributes of one element in one call (`AXUIElementCopyMultipleAttributeValues`).
   * An attribute the element lacks comes back as `{kind: "none", status}`.
   *
   * @param timeoutMs Messaging timeout for this element (`AXUIElementSetMessagingTimeout`).
   * @throws {DriverError} `element_not_found`, `timeout`, `driver_unavailable`, ...
   *   (`ffi/macos/ax_error.ts`) when the whole call fails.
   */
  attributes(handle: string, names: readonly string[], timeoutMs: number): Promise<AxValue[]>;
  /** Item count of an array attribute (`AXUIElementGetAttributeValueCount`). */
  count(handle: string, attribute: string, timeoutMs: number): Promise<number>;
  /** Action names the element offers (`AXUIElementCopyActionNames`). */
  actionNames(handle: string, timeoutMs: number): Promise<string[]>;
  /** Sets an attribute (`AXUIElementSetAttributeValue`). */
  setAttribute(
    handle: string,
    attribute: string,
    value: AxSettable,
    timeoutMs: number,
  ): Promise<void>;
  /** Performs an action (`AXUIElementPerformAction`). */
  perform(handle: string, action: string, timeoutMs: number): Promise<void>;
  /** The process that owns the element. */
  pidOf(handle: string): number;
  /** The window server's id of a window element, when it can be known. */
  windowNumber(handle: string): number | undefined;
  /**
   * The element's address with one extra retain, for the AXHub's worker to own and release
   * (web-area subscriptions). Only the FFI source has one.
   */
  transfer?(handle: string): bigint | undefined;
  /** Forgets handles the engine no longer needs (releases their elements). */
  release(handles: Iterable<string>): void;
  /** Forgets every handle of an app that quit, its app element included. */
  releaseApp(pid: number): void;
  /** Releases everything; idempotent. */
  close(): void;
}
