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
 * the app ({@link askToFill}: its cache, as libatspi asks of every app it meets, and one
 * page's extents); a first read that starts {@link FILL_MAX_MS} after that answer needs no
 * second read. An agent lists the apps before it reads one, and an agent's next call comes
 * later than that.
 *
 * @module
 */
import type { RawNode, WindowTree } from "../../model/engine.ts";
import type { AtspiClient, CallLimits, Ref } from "./client.ts";
import type { Known } from "./known.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { judgeCache, skeletonFromCache } from "./skeleton.ts";

const DOCUMENT_WEB = ATSPI_ROLES.indexOf("document_web");
/** The most showing nodes counted per window when the warm-up judges the cache. */
const JUDGED_MAX = 20_000;

/**
 * Asks Gecko app `bus` to fill every cache domain a read uses. `GetItems` fills names and
 * states (and, through the interfaces it lists, actions, values and texts) but not bounds:
 * a read that relied on it alone gave 22 of a form page's 52 elements the extents
 * (-1, -1, -1, -1) and found none of a long table's rows in view. Firefox fills a domain
 * for every page once any page object was asked for it, so one page's extents do.
 */
export async function askToFill(
  client: AtspiClient,
  bus: string,
  windows: readonly Ref[],
  limits: CallLimits,
  known: Known,
): Promise<boolean> {
  const cached = await skeletonFromCache(client, bus, limits);
  if (!cached) return false;
  // The answer is paid for: a cache too big for the app's windows is not asked again.
  for (const w of windows) judgeCache(cached, w, known, JUDGED_MAX);
  const page = [...cached.values()].find((n) => n.role === DOCUMENT_WEB);
  if (!page) return false; // Nothing to fill yet: a page that comes later is read cold.
  await client.extents(page.ref, limits);
  return true;
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
 * When each app's caches were asked to fill (see the module's note), by bus name.
 * `now` is injectable for tests.
 */
export class Warmups {
  readonly #answered = new Map<string, number>();
  readonly #started = new Map<string, Promise<void>>();
  readonly #now: () => number;

  /** `now` gives the time in ms (performance.now by default). */
  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /**
   * Asks app `bus` to fill its caches (`ask`, which answers whether it asked), once per
   * app, however often it is listed; an app not asked, or whose ask failed, stays cold
   * (its first read is then checked by {@link untilFilled}).
   */
  start(bus: string, ask: () => Promise<boolean>): Promise<void> {
    if (this.#started.has(bus)) return Promise.resolve();
    const asked = ask().then(
      (filled) => void (filled && this.#answered.set(bus, this.#now())),
      () => undefined,
    );
    this.#started.set(bus, asked);
    return asked;
  }

  /**
   * Resolves {@link FILL_FIRST_MS} after app `bus`'s warm-up answered (at once if none was
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
        const left = answered === undefined ? 0 : answered + FILL_FIRST_MS - this.#now();
        if (left <= 0) done();
        else timer = setTimeout(done, left);
      });
    });
  }

  /** Whether a read of app `bus` that started at `at` found its caches filled. */
  warmAt(bus: string, at: number): boolean {
    const answered = this.#answered.get(bus);
    return answered !== undefined && at - answered >= FILL_MAX_MS;
  }
}
