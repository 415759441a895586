/**
 * What the engine remembers of an accessible object between reads: its role, interfaces
 * and action count. They are fixed for an object's life (a toolkit that changes an
 * element's role makes a new object, with a new path: Chromium, Gecko), and every toolkit
 * here names its objects by a counter, so a path never comes back for another object. A
 * re-read then asks each node only what can change: its name, states, children, bounds
 * and text. pyatspi (libatspi) keeps the same things for the same reason.
 *
 * @module
 */
import type { Ref } from "./client.ts";
import type { Skeleton } from "./skeleton.ts";

/** The fixed attributes of one object. */
export interface Fixed {
  /** AtspiRole number. */
  role: number;
  /** Interface names without the `org.a11y.atspi.` prefix. */
  ifaces: Set<string>;
  /** `Action.NActions`, once read. */
  actions?: number;
  /** A toggle button that opens the list of a combo box beside it (drop_down.ts). */
  dropDown?: true;
  /** A table cell that names a "toggle" action (a list's tick box), once asked. */
  toggle?: boolean;
}

/**
 * Objects remembered at most (a few MB); past it the memory starts again, and reads stay
 * correct, only slower once. A bus name is never reused: what is known of an app that
 * left the bus is dropped when a listing no longer finds it ({@link Known.keep}).
 */
const MAX_KNOWN = 50_000;

/** Fixed attributes by object, and how each app is best read, across reads. */
export class Known {
  /** By app (bus name), then by object path. */
  readonly #apps = new Map<string, Map<string, Fixed>>();
  #size = 0;
  /**
   * Apps (bus names) read by walking: their cache proved no use for their windows (Qt,
   * LibreOffice), or their toolkit's cache holds the whole app (GTK 3).
   */
  readonly walkOnly = new Set<string>();
  /** Each app's toolkit (`Application.ToolkitName`), once asked. */
  readonly toolkits = new Map<string, string>();
  /** Apps whose `Collection` does not answer `GetMatches`: their children are listed. */
  readonly noCollection = new Set<string>();
  /** Apps whose `EditableText` answered true and changed nothing (Gecko): typed into. */
  readonly editableTextFails = new Set<string>();
  /**
   * Apps whose toolkit takes no `Component.GrabFocus` (GTK 4 answers `NotSupported`): only
   * their text fields offer `focus` (clicked into).
   */
  readonly noFocusRequest = new Set<string>();
  /**
   * Apps whose focus cannot be read back (browsers: a page moves its focus, but FOCUSED
   * shows only while the browser holds the window's keyboard).
   */
  readonly focusUnseen = new Set<string>();
  /**
   * Apps whose combo boxes never say their popup shows (Gecko: a page's drop-down opens in
   * the browser's own process, and the page's combo stays unexpanded).
   */
  readonly popupUnseen = new Set<string>();
  /**
   * Apps whose buttons and menu items are pressed by a click where they show (GTK 3): its
   * `DoAction` runs the widget's handler inside the call, and a handler that opens a modal
   * dialog (`gtk_dialog_run`) runs the dialog's loop there. The call then holds the app's
   * accessibility bridge, and the next key sent to the app stalled it for 16 s or more. A
   * click is handled in the app's own event loop, as a person's is.
   */
  readonly clicksFirst = new Set<string>();
  /** Apps whose extents are relative to their window, not the screen (GTK 4). */
  readonly windowRelative = new Set<string>();
  /**
   * Apps whose answers are known whole: Gecko answers a page's objects in part until its
   * caches filled (first_read.ts); other toolkits always whole.
   */
  readonly filled = new Set<string>();
  /**
   * A Gecko app's cache as its warm-up read it (`at`: when, `performance.now()`), kept for
   * the app's first read once the fill landed (first_read.ts): a read soon after starts
   * from it rather than asking again.
   */
  readonly warm = new Map<string, { skeleton: Skeleton; at: number }>();
  /**
   * The object each app last announced focus on (`Event.Focus`), and when
   * (`performance.now()`). An in-place cell editor (Qt's) is reachable no other way: it is
   * in no table's children.
   */
  readonly lastFocus = new Map<string, { path: string; at: number }>();
  /** The engine hears focus announcements (its notifications are subscribed). */
  focusHeard = false;

  /** What is known of `ref`. */
  get(ref: Ref): Fixed | undefined {
    return this.#apps.get(ref.bus)?.get(ref.path);
  }

  /** Remembers `fixed` for `ref`. */
  set(ref: Ref, fixed: Fixed): void {
    if (this.#size >= MAX_KNOWN) {
      this.#apps.clear();
      this.#size = 0;
    }
    let objects = this.#apps.get(ref.bus);
    if (!objects) this.#apps.set(ref.bus, objects = new Map());
    const before = objects.size;
    objects.set(ref.path, fixed);
    this.#size += objects.size - before;
  }

  /** Forgets every object of app `bus` (what it answered is not to be trusted). */
  forget(bus: string): void {
    this.#size -= this.#apps.get(bus)?.size ?? 0;
    this.#apps.delete(bus);
  }

  /**
   * Forgets everything about the apps not in `present` (the registry's apps): they left
   * the bus, and their names never come back.
   */
  keep(present: ReadonlySet<string>): void {
    // Every per-app field of this class: one added above belongs here too.
    const perApp = [
      this.walkOnly,
      this.toolkits,
      this.noCollection,
      this.editableTextFails,
      this.noFocusRequest,
      this.focusUnseen,
      this.popupUnseen,
      this.clicksFirst,
      this.windowRelative,
      this.filled,
      this.warm,
      this.lastFocus,
    ];
    for (const entries of perApp) {
      for (const bus of [...entries.keys()]) if (!present.has(bus)) entries.delete(bus);
    }
    for (const bus of [...this.#apps.keys()]) if (!present.has(bus)) this.forget(bus);
  }

  /** Objects remembered. */
  get size(): number {
    return this.#size;
  }
}
