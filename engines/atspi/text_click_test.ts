import assert from "node:assert/strict";
import type { PixelInput, RawNode } from "../../model/engine.ts";
import type { Bounds } from "../../protocol/element.ts";
import type { AtspiClient, Ref } from "./client.ts";
import { clickText } from "./text_click.ts";

const LIMITS = { timeoutMs: 1_000 };
const REF: Ref = { bus: ":1.9", path: "/p" };
const WINDOW: Bounds = { x: 0, y: 0, w: 1152, h: 921 };
const TEXT = "Pick a stone: Opal or Jade today.";
/** Where "Jade" (offsets 22 to 25) shows, as Firefox answers once it knows. */
const J = { x: 182, y: 355, w: 9, h: 19 };
const E = { x: 209, y: 355, w: 9, h: 19 };

const paragraph = (bounds: Bounds): RawNode => ({
  handle: "p",
  role: "AXGroup",
  name: "",
  bounds,
  enabled: true,
  focused: false,
  actions: ["press", "click"],
  children: [],
});

/** Where the paragraph shows, as Firefox answers. */
const PARAGRAPH: Bounds = { x: 8, y: 355, w: 1136, h: 19 };

/**
 * A paragraph of {@link TEXT} at {@link PARAGRAPH} whose characters' extents are
 * `chars(offset, asked)` and whose range extents are `range(asked)`, `asked` counting the
 * geometry questions so far.
 */
function app(
  chars: (offset: number, asked: number) => Bounds,
  range: (asked: number) => Bounds,
) {
  let asked = 0;
  const box = (b: Bounds) => [b.x, b.y, b.w, b.h];
  const client = {
    prop: () => Promise.resolve(TEXT.length),
    extents: () => Promise.resolve(box(PARAGRAPH)),
    call: (_ref: Ref, _iface: string, member: string, _l: unknown, _s: string, args: number[]) => {
      if (member === "GetText") return Promise.resolve([TEXT]);
      if (member === "GetCharacterExtents") return Promise.resolve(box(chars(args[0]!, asked++)));
      if (member === "GetRangeExtents") return Promise.resolve(box(range(asked++)));
      return Promise.reject(new Error(`unexpected ${member}`));
    },
  } as unknown as AtspiClient;
  const clicks: PixelInput[] = [];
  const input = (i: PixelInput) => {
    clicks.push(i);
    return Promise.resolve();
  };
  return { client, clicks, input };
}

const NONE: Bounds = { x: 0, y: 0, w: 0, h: 0 };

/**
 * Clicks "Jade" in the paragraph, whose bounds in the map are an earlier read's (it has
 * moved down since): the element's own extents, asked with the words', are used.
 */
const clickJade = (client: AtspiClient, input: (i: PixelInput) => Promise<void>) =>
  clickText(
    client,
    input,
    REF,
    paragraph({ x: 8, y: 100, w: 1136, h: 19 }),
    "Jade",
    WINDOW,
    LIMITS,
  );

Deno.test("click by words: a first character Gecko does not know yet is asked again, not clicked from the corner", async () => {
  // Seen in Firefox: the first character's extents zeros, the last's right. Their union
  // ran from the screen's corner, and its middle was blank page.
  const { client, clicks, input } = app(
    (offset, asked) => asked < 4 ? (offset === 22 ? NONE : E) : (offset === 22 ? J : E),
    () => NONE,
  );
  const out = await clickJade(client, input);
  assert.deepEqual(out, { via: "pixel" });
  assert.deepEqual(clicks, [{ kind: "click", x: 200, y: 365, button: "left", count: 1 }]);
});

Deno.test("click by words: extents that never fall inside the element are not clicked", async () => {
  // A box outside the paragraph (stale, or another line's) is no place for its words.
  const { client, clicks, input } = app(() => ({ x: 500, y: 700, w: 9, h: 19 }), () => NONE);
  const out = await clickJade(client, input);
  assert.deepEqual(out, { via: "pixel", found: "offscreen" });
  assert.deepEqual(clicks, []);
});

Deno.test("click by words: the range's extents serve when characters have none", async () => {
  const { client, clicks, input } = app(() => NONE, () => ({ x: 182, y: 355, w: 36, h: 19 }));
  await clickJade(client, input);
  assert.deepEqual(clicks, [{ kind: "click", x: 200, y: 365, button: "left", count: 1 }]);
});
