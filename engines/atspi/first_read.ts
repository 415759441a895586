/**
 * Gecko's first answers to a client. Firefox keeps what it answers over AT-SPI about a
 * page in a cache of "domains" (names, bounds, actions, text…) that its content processes
 * fill only once some client asked for them: the first questions get a partial answer (on
 * 3 of 4 fresh starts measured, 19 of a form page's 33 names empty, some action counts 0;
 * extents of (-1, -1, -1, -1), so that none of a long table's rows seemed in view) and no
 * notification follows when the rest arrives. So an app's first read of a page is read
 * again, everything asked anew, until two reads in a row agree on what they say. Its own
 * windows (menus, toolbars) Firefox answers itself, whole.
 *
 * The domains are the app's, kept for its life: once any question filled them, every
 * later answer is whole. So the engine asks a Gecko app to fill them as soon as it lists
 * the app ({@link askToFill}: its cache, as libatspi asks of every app it meets, then one
 * property of each other domain a read uses, then the showing pages' extents) and watches
 * the fill land: a content process sends what was asked in the order it was asked, so
 * once a page's bounds, asked last, are known, the names, states, actions, texts and
 * values asked before them are in too. A first read after that needs no second read. When
 * the landing cannot be seen (the bounds were known before the ask: another client had
 * asked), a first read that starts {@link FILL_MAX_MS} after the answer needs none either.
 *
 * @module
 */
import type { RawNode, WindowTree } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import type { Known } from "./known.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { judgeCache, type Skeleton, skeletonFromCache, type SkeletonNode } from "./skeleton.ts";
import { STATE } from "./states.ts";

const DOCUMENT_WEB = ATSPI_ROLES.indexOf("document_web");
/** The most showing nodes counted per window when the warm-up judges the cache. */
const JUDGED_MAX = 20_000;
/**
 * A property of each interface a read asks Gecko for that is not in its cache's answer
 * (`GetItems`): asking it makes Firefox fill that interface's domain.
 */
const DOMAIN_ASKS = [
  ["Action", "NActions"],
  ["Text", "CharacterCount"],
  ["Value", "CurrentValue"],
  ["Table", "NRows"],
] as const;
/** How long a page's bounds are asked again as soon as answered (fills took 1 to 25 ms). */
export const FILL_EAGER_MS = 25;
/** Between two looks at a page's bounds after {@link FILL_EAGER_MS}. */
export const FILL_POLL_MS = 5;

/**
 * What a warm-up found: `none`, no page to fill (a page that comes later is read cold);
 * `landed`, the fill seen arriving; `asked`, the fill asked for but its arrival not seen.
 */
export type Fill = "none" | "landed" | "asked";

type Sleep = (ms: number) => Promise<void>;
const sleepMs: Sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks Gecko app `bus` to fill every cache domain a read uses, and watches it land.
 * `GetItems` fills names and states, not the rest: a read that relied on it alone gave 22
 * of a form page's 52 elements the extents (-1, -1, -1, -1), found none of a long table's
 * rows in view, and gave a button no action. Firefox fills a domain for every page once
 * any page object was asked for it, so one object's property does for each domain; each
 * showing page is asked its extents last (each window's may live in a content process of
 * its own), and again until they are known (1 to 25 ms measured).
 */
export async function askToFill(
  client: AtspiClient,
  bus: string,
  windows: readonly Ref[],
  limits: CallLimits,
  known: Known,
  sleep: Sleep = sleepMs,
): Promise<Fill> {
  const cached = await skeletonFromCache(client, bus, limits);
  const at = performance.now();
  if (!cached) return "none";
  // The answer is paid for: a cache too big for the app's windows is not asked again.
  for (const w of windows) judgeCache(cached, w, known, JUDGED_MAX);
  const pages = [...cached.values()].filter((n) => n.role === DOCUMENT_WEB);
  const showing = pages.filter((n) => n.states.has(STATE.SHOWING));
  const asked = showing.length > 0 ? showing : pages.slice(0, 1);
  if (asked.length === 0) return "none";
  // Each of these asks a domain of its own (a button read with no actions at all when
  // only names and bounds were asked), on the first page object that has the interface;
  // all go before the bounds, which are asked last.
  const inPage = pageObjects(cached, asked[0]!);
  await Promise.all(DOMAIN_ASKS.map(([iface, prop]) => {
    const on = inPage.find((n) => n.ifaces.has(iface));
    return on && client.prop(on.ref, iface, prop, limits).catch(() => undefined);
  }));
  const fill = await boundsLanded(client, asked.map((n) => n.ref), limits, sleep);
  if (fill === "landed") known.warm.set(bus, { skeleton: cached, at });
  return fill;
}

/** The objects of `page` in `cached`, the page first, at most {@link JUDGED_MAX}. */
function pageObjects(cached: Skeleton, page: SkeletonNode): SkeletonNode[] {
  const out: SkeletonNode[] = [];
  const stack = [page];
  while (stack.length > 0 && out.length < JUDGED_MAX) {
    const n = stack.pop()!;
    out.push(n);
    for (const c of n.children) {
      const kid = cached.get(c);
      if (kid) stack.push(kid);
    }
  }
  return out;
}

/**
 * Asks each page in `pages` for its extents until all are known: `landed` when some were
 * unknown at first and all came in within {@link FILL_MAX_MS}; `asked` when all were known
 * at once (the domain was on before: nothing shows when the rest lands) or some never came.
 * For the first {@link FILL_EAGER_MS} each ask follows the last one's answer (one at a time,
 * so the app never has two waiting): a timer's millisecond took 2 ms here, and asking at
 * once made a first read 1.5 ms faster (medians of 10, interleaved). Then one ask every
 * {@link FILL_POLL_MS}.
 */
async function boundsLanded(
  client: AtspiClient,
  pages: readonly Ref[],
  limits: CallLimits,
  sleep: Sleep,
): Promise<Fill> {
  const unknown = async (refs: readonly Ref[]) => {
    const extents = await Promise.all(refs.map((r) => client.extents(r, limits)));
    return refs.filter((_, i) => extents[i]![2] < 0);
  };
  const start = performance.now();
  let left = await unknown(pages);
  if (left.length === 0) return "asked";
  while (left.length > 0) {
    const spent = performance.now() - start;
    if (spent >= FILL_MAX_MS) return "asked";
    if (spent >= FILL_EAGER_MS) await sleep(FILL_POLL_MS);
    left = await unknown(left);
  }
  return "landed";
}

/** Whether `tree` holds a page (whose objects Gecko answers from its caches). */
export function hasPage(tree: WindowTree): boolean {
  const stack: RawNode[] = [tree.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.role === "AXWebArea") return true;
    stack.push(...n.children);
  }
  return false;
}

/** Between two reads of a first read. */
export const FILL_STEP_MS = 25;
/** Past this, the last read stands (the fill took 50 ms at most when measured). */
export const FILL_MAX_MS = 150;
/**
 * A first read starts at least this long after the warm-up's answer. Firefox answers the
 * bus before it takes in the fill its content processes send back for that `GetItems`: a
 * read sent on the answer's heels got the old answers in 6 of 8 tries (and so cost a third
 * read), none of 20 sent 0 to 2 ms later or more.
 */
export const FILL_FIRST_MS = 5;

/**
 * What a read says of each node, in tree order: its role, name, text, actions, and whether
 * its bounds are known (Gecko answers (-1, -1, -1, -1) until it filled them). Not the
 * bounds themselves (a page may still be laying out), nor the objects' paths (LibreOffice
 * makes its cells anew for each read).
 */
export function sayOf(tree: WindowTree): string {
  const out: string[] = [];
  const stack: RawNode[] = [tree.root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const { role, name, value, actions, bounds } = n;
    out.push(`${role}|${name}|${value ?? ""}|${actions.join(",")}|${bounds.w < 0}`);
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out.join("\n");
}

/**
 * Reads again (`again`, which asks everything anew) every {@link FILL_STEP_MS} until a read
 * says what the one before it said, or {@link FILL_MAX_MS} passed.
 *
 * @param first The app's first read.
 * @param again A read that asks the app everything again.
 * @param sleep Waits (tests pass their own).
 * @returns The last read.
 */
export async function untilFilled(
  first: WindowTree,
  again: () => Promise<WindowTree>,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<WindowTree> {
  let last = first;
  let said = sayOf(first);
  for (let waited = 0; waited < FILL_MAX_MS; waited += FILL_STEP_MS) {
    await sleep(FILL_STEP_MS);
    last = await again();
    const says = sayOf(last);
    if (says === said) return last;
    said = says;
  }
  return last;
}

/**
 * When each app's caches were asked to fill, and whether the fill was seen landing (see
 * the module's note), by bus name. `now` is injectable for tests.
 */
export class Warmups {
  readonly #answered = new Map<string, { at: number; landed: boolean }>();
  readonly #started = new Map<string, Promise<void>>();
  readonly #now: () => number;

  /** `now` gives the time in ms (performance.now by default). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /**
   * Asks app `bus` to fill its caches (`ask`, which answers what it found), once per app,
   * however often it is listed; an app with nothing to fill, or whose ask failed, stays
   * cold (its first read is then checked by {@link untilFilled}).
   */
  start(bus: string, ask: () => Promise<Fill>): Promise<void> {
    if (this.#started.has(bus)) return Promise.resolve();
    const asked = ask().then(
      (fill) => {
        if (fill !== "none") {
          this.#answered.set(bus, { at: this.#now(), landed: fill === "landed" });
        }
      },
      () => undefined,
    );
    this.#started.set(bus, asked);
    return asked;
  }

  /**
   * Resolves once app `bus`'s warm-up is over: when it saw the fill land, or
   * {@link FILL_FIRST_MS} after an answer whose fill it could not see (at once if none was
   * started, or it failed), or when `signal` aborts (the read then fails on its own terms).
   */
  settled(bus: string, signal?: AbortSignal): Promise<void> {
    const asked = this.#started.get(bus);
    if (!asked) return Promise.resolve();
    return new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      if (signal?.aborted) return resolve();
      signal?.addEventListener("abort", done, { once: true });
      asked.then(() => {
        const answered = this.#answered.get(bus);
        const left = !answered || answered.landed ? 0 : answered.at + FILL_FIRST_MS - this.#now();
        if (left <= 0) done();
        else timer = setTimeout(done, left);
      });
    });
  }

  /** Forgets the apps not in `present` (they left the bus). */
  keep(present: ReadonlySet<string>): void {
    for (const bus of [...this.#started.keys()]) {
      if (present.has(bus)) continue;
      this.#started.delete(bus);
      this.#answered.delete(bus);
    }
  }

  /** Whether a read of app `bus` that started asking at `at` found its caches filled. */
  warmAt(bus: string, at: number): boolean {
    const answered = this.#answered.get(bus);
    if (!answered) return false;
    return answered.landed ? at >= answered.at : at - answered.at >= FILL_MAX_MS;
  }
}
