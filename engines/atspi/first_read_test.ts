import assert from "node:assert/strict";
import type { RawNode, WindowTree } from "../../model/engine.ts";
import type { AtspiClient, Ref } from "./client.ts";
import {
  askToFill,
  type Fill,
  FILL_MAX_MS,
  FILL_STEP_MS,
  hasPage,
  untilFilled,
  Warmups,
} from "./first_read.ts";
import { Known } from "./known.ts";
import { ATSPI_ROLES } from "./roles.ts";
import { STATE } from "./states.ts";

/** A window whose one field is named `name`. */
function tree(name: string, x = 0): WindowTree {
  const field: RawNode = {
    handle: ":1.5|/f",
    role: "AXTextField",
    name,
    bounds: { x, y: 0, w: 10, h: 10 },
    enabled: true,
    focused: false,
    actions: ["press"],
    children: [],
  };
  const root: RawNode = {
    ...field,
    handle: ":1.5|/w",
    role: "AXWindow",
    name: "W",
    children: [field],
  };
  return { root, nodes: 2, ms: 1, truncated: false };
}

const noWait = () => Promise.resolve();

Deno.test("first read: a partial read is read again until two reads agree", async () => {
  const reads = [tree("User name"), tree("User name")];
  let asked = 0;
  const out = await untilFilled(tree(""), () => Promise.resolve(reads[asked++]!), noWait);
  assert.equal(asked, 2, "the filled read was confirmed by one more");
  assert.equal(out.root.children[0]!.name, "User name");
});

Deno.test("first read: a complete read costs one more read; bounds moving do not count", async () => {
  let asked = 0;
  const out = await untilFilled(tree("User name"), () => {
    asked++;
    return Promise.resolve(tree("User name", 5));
  }, noWait);
  assert.equal(asked, 1);
  assert.equal(out.root.children[0]!.bounds.x, 5, "the latest read is the answer");
});

Deno.test("first read: an app that never settles is read at most until the cap", async () => {
  let asked = 0;
  const out = await untilFilled(tree("a"), () => Promise.resolve(tree(`n${++asked}`)), noWait);
  assert.equal(asked, Math.ceil(FILL_MAX_MS / FILL_STEP_MS));
  assert.equal(out.root.children[0]!.name, `n${asked}`);
});

Deno.test("first read: an app whose fill landing was not seen is warm long enough after", async () => {
  let now = 1_000;
  const warmups = new Warmups(() => now);
  assert.equal(warmups.warmAt(":1.5", now), false, "never asked: cold");
  let asks = 0;
  const ask = () => Promise.resolve(++asks > 0 ? "asked" as const : "none" as const);
  await warmups.start(":1.5", ask);
  await warmups.start(":1.5", ask);
  assert.equal(asks, 1, "asked once per app");
  assert.equal(warmups.warmAt(":1.5", now + FILL_MAX_MS - 1), false, "still filling");
  now += FILL_MAX_MS;
  assert.equal(warmups.warmAt(":1.5", now), true);
  assert.equal(warmups.warmAt(":1.6", now), false, "another app is not warmed by it");
});

Deno.test("first read: a warm-up that failed, or found nothing to fill, leaves the app cold", async () => {
  const warmups = new Warmups(() => 0);
  await warmups.start(":1.7", () => Promise.reject(new Error("timeout")));
  assert.equal(warmups.warmAt(":1.7", 10_000), false);
  await warmups.start(":1.6", () => Promise.resolve("none"));
  assert.equal(warmups.warmAt(":1.6", 10_000), false, "no page when listed: not asked");
});

Deno.test("first read: an app that left the bus is forgotten, and asked anew if it came back", async () => {
  const warmups = new Warmups(() => 0);
  let asks = 0;
  const ask = () => Promise.resolve((++asks, "landed") as Fill);
  await warmups.start(":1.5", ask);
  await warmups.start(":1.6", ask);
  warmups.keep(new Set([":1.6"]));
  assert.equal(warmups.warmAt(":1.5", 10), false);
  assert.equal(warmups.warmAt(":1.6", 10), true);
  await warmups.start(":1.6", ask);
  assert.equal(asks, 2, "the app still there is not asked again");
});

Deno.test("first read: only a read that holds a page can be partial", () => {
  const page = tree("User name");
  assert.equal(hasPage(page), false);
  page.root.children[0]!.children.push({ ...page.root.children[0]!, role: "AXWebArea" });
  assert.equal(hasPage(page), true);
});

Deno.test("first read: a read waits for the app's warm-up in flight, or for its own abort", async () => {
  const warmups = new Warmups(() => 0);
  await warmups.settled(":1.8"); // Never warmed up: nothing to wait for.
  let answer = () => {};
  void warmups.start(":1.8", () => new Promise<Fill>((r) => answer = () => r("landed")));
  let settled = false;
  const waiting = warmups.settled(":1.8").then(() => settled = true);
  await Promise.resolve();
  assert.equal(settled, false, "the warm-up is still in flight");
  answer();
  await waiting;
  const stop = new AbortController();
  void warmups.start(":1.9", () => new Promise(() => {}));
  const aborted = warmups.settled(":1.9", stop.signal);
  stop.abort();
  await aborted; // Resolves: the read then fails on its own abort.
});

Deno.test("first read: a read whose bounds were not known yet does not confirm one that has them", async () => {
  const unplaced = tree("User name");
  unplaced.root.children[0]!.bounds = { x: -1, y: -1, w: -1, h: -1 };
  let asked = 0;
  const out = await untilFilled(unplaced, () => {
    asked++;
    return Promise.resolve(tree("User name"));
  }, noWait);
  assert.equal(asked, 2, "the read with bounds was confirmed by one more");
  assert.equal(out.root.children[0]!.bounds.w, 10);
});

Deno.test("first read: an app whose fill was seen landing is warm from then on, at once", async () => {
  let now = 1_000;
  const warmups = new Warmups(() => now);
  await warmups.start(":1.5", () => Promise.resolve("landed"));
  assert.equal(warmups.warmAt(":1.5", now - 1), false, "a read that began asking before");
  assert.equal(warmups.warmAt(":1.5", now), true);
  now += 1; // settled() answers without waiting for the clock.
  await warmups.settled(":1.5");
});

/**
 * A Gecko app's cache holding a window with `pages` (document_web, showing unless said),
 * whose bounds are known from the `known`-th extents call of each on (0: at once).
 */
function geckoApp(pages: { path: string; showing?: boolean }[], known: number) {
  const asked = new Map<string, number>();
  const item = (
    path: string,
    parent: string,
    role: string,
    states: number[],
    ifaces: string[] = [],
  ) => [
    [":1.5", path],
    [":1.5", "/root"],
    [":1.5", parent],
    0,
    0,
    ["org.a11y.atspi.Accessible", ...ifaces.map((i) => `org.a11y.atspi.${i}`)],
    "",
    ATSPI_ROLES.indexOf(role as (typeof ATSPI_ROLES)[number]),
    "",
    states,
  ];
  const items = [
    item("/w", "/root", "frame", [1 << STATE.SHOWING]),
    ...pages.map((p) =>
      item(p.path, "/w", "document_web", [p.showing === false ? 0 : 1 << STATE.SHOWING], [
        "Text",
      ])
    ),
    ...(pages.length > 0
      ? [
        item("/b", pages[0]!.path, "push_button", [1 << STATE.SHOWING], ["Action", "Text"]),
        item("/s", pages[0]!.path, "slider", [1 << STATE.SHOWING], ["Value"]),
      ]
      : []),
  ];
  /** Every property asked and the first extents asked, in order. */
  const order: string[] = [];
  const client = {
    call: () => Promise.resolve([items]),
    prop: (ref: Ref, iface: string, name: string) => {
      order.push(`${ref.path} ${iface}.${name}`);
      return Promise.resolve(0);
    },
    extents: (ref: Ref) => {
      const n = (asked.get(ref.path) ?? 0) + 1;
      asked.set(ref.path, n);
      if (n === 1) order.push(`${ref.path} extents`);
      return Promise.resolve(n > known ? [0, 85, 800, 600] : [-1, -1, -1, -1]);
    },
  } as unknown as AtspiClient;
  return { client, asked, order };
}

const limits = { timeoutMs: 1_000 };
const window: Ref = { bus: ":1.5", path: "/w" };

Deno.test("first read: the warm-up asks each other domain, then the showing pages' bounds until they land", async () => {
  const { client, asked, order } = geckoApp([{ path: "/p1" }, { path: "/p2" }, {
    path: "/bg",
    showing: false,
  }], 3);
  const fill = await askToFill(client, ":1.5", [window], limits, new Known(), noWait);
  assert.equal(fill, "landed");
  assert.deepEqual([...asked], [["/p1", 4], ["/p2", 4]], "a background tab's page is not asked");
  assert.deepEqual(order, [
    "/b Action.NActions",
    "/p1 Text.CharacterCount",
    "/s Value.CurrentValue",
    "/p1 extents",
    "/p2 extents",
  ], "every other domain is asked before the bounds");
});

Deno.test("first read: bounds known at the first ask show no landing; none that never land", async () => {
  const before = geckoApp([{ path: "/p1" }], 0);
  assert.equal(
    await askToFill(before.client, ":1.5", [window], limits, new Known(), noWait),
    "asked",
  );
  const never = geckoApp([{ path: "/p1" }], Infinity);
  const fill = await askToFill(
    never.client,
    ":1.5",
    [window],
    limits,
    new Known(),
    (ms) => new Promise((r) => setTimeout(r, ms)),
  );
  assert.equal(fill, "asked", "given up after FILL_MAX_MS");
  const none = geckoApp([], 0);
  assert.equal(await askToFill(none.client, ":1.5", [window], limits, new Known(), noWait), "none");
});
