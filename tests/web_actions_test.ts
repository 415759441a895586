/**
 * Actions that do what they say in both browsers (issue 20): a form filled by element,
 * text read back, a press through the element's own action, a button under another
 * app's window, and objects the browser replaced. Every effect is checked by pyatspi in
 * its own process or by the X server, never by the driver's answer.
 */
import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import * as apps from "./support/apps.ts";
import { type App, requireDesktop } from "./support/apps.ts";
import { centre, session } from "./support/client.ts";
import {
  FORM_TITLE,
  onFormPage,
  onReplacingPage,
  onSlidingPage,
  REPLACING_TITLE,
  SLIDE_MS,
  SLIDING_TITLE,
} from "./support/documents.ts";
import { oracleNodes, oracleState } from "./support/oracle.ts";
import type { DriverClient } from "../rpc/client.ts";
import { DriverError } from "../protocol/errors.ts";
import { AtspiEngine } from "../engines/atspi/engine.ts";
import type { RawNode } from "../model/engine.ts";

requireDesktop();

interface Browser {
  name: string;
  /** Opens `page`, titled `title`, and waits until its text `last` is read. */
  open(page: string, title: string, last: string): Promise<App>;
}

const BROWSERS: Browser[] = [
  { name: "Firefox", open: (page, title) => apps.firefox(page, title) },
  { name: "Chromium", open: (page, title, last) => apps.chromium(page, title, last) },
];

/** The text pyatspi reads in the entry named `name`. */
async function entryText(pid: number, name: string): Promise<string | undefined> {
  return (await oracleNodes(pid)).find((n) => n.role === "entry" && n.name === name)?.text;
}

/** What pyatspi reads in the page's message paragraph. */
async function message(pid: number): Promise<string | undefined> {
  return (await oracleNodes(pid)).find((n) =>
    n.role === "paragraph" && /signed in/i.test(n.text ?? "")
  )
    ?.text;
}

/** Polls `read` until it answers `want` (the page updates asynchronously), up to 5 s. */
async function eventually<T>(read: () => Promise<T>, want: T): Promise<T> {
  const until = Date.now() + 5_000;
  let got = await read();
  while (got !== want && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    got = await read();
  }
  return got;
}

/** One of `hello`'s `live` counters. */
async function liveCount(client: DriverClient, counter: "rested" | "rebound"): Promise<number> {
  return (await client.call("hello", {})).live[counter] ?? 0;
}

/** The window's current elements and version. */
async function current(client: DriverClient, window: string) {
  const r = await client.call("read_ui", { window });
  return { els: r.elements!, version: r.version };
}

/**
 * Asserts an answer says the sliding page is still moving, unless it came after the panel's
 * transition could have ended (a busy machine): then nothing moves and none may be said.
 */
function assertMoving(moving: true | undefined, pressed: number, what: string) {
  const took = performance.now() - pressed;
  if (took >= SLIDE_MS) return;
  assert.equal(moving, true, `${what}, ${Math.round(took)} ms after the press, says it moves`);
}

const byName = (els: Element[], role: string, name: string): Element => {
  const e = els.find((x) => x.role === role && x.name === name);
  if (!e) throw new Error(`No ${role} "${name}"`);
  return e;
};

async function withBrowser(
  b: Browser,
  fn: (app: App, client: DriverClient, window: string) => Promise<void>,
  onPage: typeof onFormPage = onFormPage,
  title = FORM_TITLE,
): Promise<void> {
  const files: string[] = [];
  const app = await onPage(files, (page) => b.open(page, title, "Last paragraph"));
  const s = await session();
  try {
    const r = await s.client.call("read_ui", { app: app.pid });
    await fn(app, s.client, r.window);
  } finally {
    await s.close();
    await app.stop();
    for (const f of files) await Deno.remove(f).catch(() => {});
  }
}

for (const b of BROWSERS) {
  Deno.test(`${b.name}: a form is filled and sent by element, each step read back`, async () => {
    await withBrowser(b, async (app, client, window) => {
      let { els, version } = await current(client, window);
      const user = byName(els, "AXTextField", "User name");
      assert.ok(user.actions.includes("set_value") && user.actions.includes("type_text"));
      const set = await client.call("act", {
        window,
        id: user.id,
        action: "set_value",
        value: "bob",
        version,
      });
      assert.equal(set.ok, true);
      assert.ok(set.via === "action" || set.via === "keys", `via ${set.via}`);
      assert.equal(await eventually(() => entryText(app.pid, "User name"), "bob"), "bob");
      // The same id as an agent keeps it: the field's value must not rename it (Gecko
      // names the label around it by the value too), nor a replaced object lose it.
      ({ els, version } = await current(client, window));
      assert.ok(els.some((e) => e.id === user.id), "the map still lists the field's id");
      const typed = await client.call("act", {
        window,
        id: user.id,
        action: "type_text",
        value: "!",
        version,
      });
      assert.equal(typed.ok, true);
      assert.equal(await eventually(() => entryText(app.pid, "User name"), "bob!"), "bob!");
      ({ els, version } = await current(client, window));
      const send = byName(els, "AXButton", "Sign in");
      const pressed = await client.call("act", { window, id: send.id, action: "press", version });
      assert.equal(pressed.via, "action", "pressed through the button's own action");
      assert.equal(
        await eventually(() => message(app.pid), "Signed in as bob!"),
        "Signed in as bob!",
      );
    });
  });

  Deno.test(`${b.name}: set_value that the field does not take answers ok false with its value`, async () => {
    await withBrowser(b, async (app, client, window) => {
      const { els, version } = await current(client, window);
      const code = byName(els, "AXTextField", "Code");
      const r = await client.call("act", {
        window,
        id: code.id,
        action: "set_value",
        value: "12345",
        version,
      });
      // The field holds three characters at most.
      assert.equal(r.ok, false);
      assert.equal(r.value, "123");
      assert.equal(await entryText(app.pid, "Code"), "123");
    });
  });

  Deno.test(`${b.name}: click on a text field is a click the page sees, not only a focus`, async () => {
    await withBrowser(b, async (app, client, window) => {
      const { els, version } = await current(client, window);
      const code = byName(els, "AXTextField", "Code");
      const r = await client.call("act", { window, id: code.id, action: "click", version });
      assert.equal(r.ok, true);
      const clicks = async () =>
        (await oracleNodes(app.pid)).find((n) =>
          n.role === "paragraph" && /click/i.test(n.text ?? "")
        )
          ?.text;
      assert.equal(await eventually(clicks, "Code field clicked"), "Code field clicked");
    });
  });

  Deno.test(`${b.name}: a number field takes set_value, and the map reads what it holds`, async () => {
    await withBrowser(b, async (app, client, window) => {
      let { els, version } = await current(client, window);
      // Twice, a press between: the second entry is the one Chromium's stale text hid.
      for (const n of ["7", "12"]) {
        const count = els.find((e) => e.name === "Count" && e.actions.includes("set_value"));
        assert.ok(count, "the Count field is listed");
        const r = await client.call("act", {
          window,
          id: count.id,
          action: "set_value",
          value: n,
          version,
        });
        assert.equal(r.ok, true, `set_value ${n}: ${JSON.stringify(r.value)}`);
        const held = async () =>
          (await oracleNodes(app.pid)).find((o) => o.name === "Count" && o.value !== undefined)
            ?.value;
        assert.equal(await eventually(held, Number(n)), Number(n));
        ({ els, version } = await current(client, window));
        // By name: Gecko may have replaced the field's object, and the map its id.
        const after = els.find((e) => e.name === "Count" && e.actions.includes("set_value"));
        assert.equal(after?.value, n);
        // A press elsewhere takes the focus, as a form's submit button does.
        const send = byName(els, "AXButton", "Sign in");
        ({ version } = await client.call("act", { window, id: send.id, action: "press", version }));
        ({ els, version } = await current(client, window));
      }
    });
  });

  Deno.test(`${b.name}: a button under another app's window is pressed in the page, not the cover`, async () => {
    await withBrowser(b, async (app, client, window) => {
      const screen = await apps.cover();
      try {
        const { els } = await current(client, window);
        const send = byName(els, "AXButton", "Sign in");
        const mid = centre(send);
        assert.equal(await apps.titleOnTopAt(mid.x, mid.y), "Cover", "the cover is on top");
        // The cover's arrival may still be reaching the map (a new version): plan again.
        const press = async () => {
          const { version } = await current(client, window);
          return await client.call("act", { window, id: send.id, action: "press", version });
        };
        const r = await press().catch((err) => {
          if (err instanceof DriverError && err.code === "stale_version") return press();
          throw err;
        });
        assert.equal(r.ok, true);
        assert.equal(r.via, "action");
        assert.equal(
          await eventually(() => message(app.pid), "Signed in as alice"),
          "Signed in as alice",
        );
      } finally {
        await screen.stop();
      }
    });
  });

  Deno.test(`${b.name}: a panel sliding open is read where it ends, said moving until then`, async () => {
    await withBrowser(
      b,
      async (app, client, window) => {
        const { els, version } = await current(client, window);
        const show = byName(els, "AXButton", "Show more");
        const pressed = performance.now();
        const opened = await client.call("act", { window, id: show.id, action: "press", version });
        assert.equal(opened.via, "action");
        // The browser announces the panel, not its growing: the driver follows it.
        assertMoving(
          opened.moving,
          pressed,
          `the answer (settled in ${opened.settle_ms} ms, effect ${opened.effect})`,
        );
        let r = await client.call("read_ui", { window });
        for (const until = Date.now() + 3_000; r.live.moving && Date.now() < until;) {
          await new Promise((done) => setTimeout(done, 50));
          r = await client.call("read_ui", { window });
        }
        assert.equal(r.live.moving, undefined, "the motion ended within 3 s");
        const inner = byName(r.elements!, "AXButton", "Inner button");
        const seen = await oracleState(app.pid, "push button|button", "Inner button");
        assert.ok(seen, "pyatspi finds the inner button");
        const [x, y, w, h] = seen.extents;
        const near = (a: number, want: number) => Math.abs(a - want) <= 2;
        assert.ok(
          near(inner.bounds.x, x) && near(inner.bounds.y, y) && near(inner.bounds.w, w) &&
            near(inner.bounds.h, h) && h > 10,
          `map ${JSON.stringify(inner.bounds)}, pyatspi ${JSON.stringify(seen.extents)}`,
        );
      },
      onSlidingPage,
      SLIDING_TITLE,
    );
  });

  Deno.test(`${b.name}: text is typed into a field a sliding panel pushes down without waiting for rest`, async () => {
    await withBrowser(
      b,
      async (app, client, window) => {
        let { els, version } = await current(client, window);
        const show = byName(els, "AXButton", "Show more");
        const pressed = performance.now();
        const opened = await client.call("act", { window, id: show.id, action: "press", version });
        assertMoving(opened.moving, pressed, "the press's answer");
        ({ els, version } = await current(client, window));
        const note = byName(els, "AXTextField", "Note");
        // Keys go to the focused field wherever it is: only pointer input waits for rest.
        const before = await liveCount(client, "rested");
        const fill = (id: string, version: number) =>
          client.call("act", { window, id, action: "set_value", value: "moving on", version });
        const set = await fill(note.id, version).catch((err) => {
          // The panel's growth reached the map in between: plan on the map the refusal
          // carries, as an agent would.
          if (!(err instanceof DriverError && err.code === "stale_version")) throw err;
          const map = err.data as { map: { version: number; elements: Element[] } };
          return fill(byName(map.map.elements, "AXTextField", "Note").id, map.map.version);
        });
        assert.equal(set.ok, true, `set_value: ${set.value}`);
        assertMoving(set.moving, pressed, "set_value's answer");
        assert.equal(
          await liveCount(client, "rested"),
          before,
          "the keys did not wait for the page to rest",
        );
        assert.equal(await eventually(() => entryText(app.pid, "Note"), "moving on"), "moving on");
      },
      onSlidingPage,
      SLIDING_TITLE,
    );
  });

  Deno.test(`${b.name}: a field the page replaces under set_value is found again and filled`, async () => {
    await withBrowser(
      b,
      async (app, client, window) => {
        const { els, version } = await current(client, window);
        const note = byName(els, "AXTextField", "Note");
        const before = await liveCount(client, "rebound");
        // Focusing the field makes the page put a new one in its place: the object the
        // map named dies under the action.
        const set = await client.call("act", {
          window,
          id: note.id,
          action: "set_value",
          value: "hello",
          version,
        });
        assert.equal(set.ok, true, `set_value: ${set.value}`);
        assert.equal(
          await liveCount(client, "rebound"),
          before + 1,
          "the dead handle was found again once",
        );
        assert.equal(await eventually(() => entryText(app.pid, "Note"), "hello"), "hello");
      },
      onReplacingPage,
      REPLACING_TITLE,
    );
  });

  Deno.test(`${b.name}: the engine refuses an element the page replaced, typing nothing anywhere`, async () => {
    const files: string[] = [];
    const app = await onReplacingPage(
      files,
      (page) => b.open(page, REPLACING_TITLE, "Last paragraph"),
    );
    const engine = new AtspiEngine();
    try {
      await engine.availability();
      const apps = await engine.listApps(AbortSignal.timeout(10_000));
      const window = apps.find((a) => a.pid === app.pid)!.windows[0]!.window;
      const tree = await engine.readWindow(window, {
        maxElements: 5_000,
        signal: AbortSignal.timeout(10_000),
      });
      const find = (role: string, name: string) => {
        const at = (n: RawNode): RawNode | undefined =>
          n.role === role && n.name === name ? n : n.children.map(at).find((x) => x);
        const found = at(tree.root);
        assert.ok(found, `the ${role} "${name}"`);
        return found;
      };
      const note = find("AXTextField", "Note");
      // The page replaces the field; Gecko keeps answering for the old object, defunct.
      const replace = find("AXButton", "Replace");
      await engine.act(window, replace, "press", undefined, AbortSignal.timeout(5_000));
      await new Promise((r) => setTimeout(r, 500));
      for (const action of ["set_value", "press"] as const) {
        await assert.rejects(
          engine.act(window, note, action, "typed", AbortSignal.timeout(5_000)),
          (err) => err instanceof DriverError && err.code === "element_not_found",
          `${action} on the replaced field is element_not_found`,
        );
      }
      assert.equal(await entryText(app.pid, "Note"), "", "nothing was typed into the new field");
    } finally {
      await engine.close();
      await app.stop();
      for (const f of files) await Deno.remove(f).catch(() => {});
    }
  });

  Deno.test(`${b.name}: words a sliding panel pushes down are clicked where they come to rest`, async () => {
    await withBrowser(
      b,
      async (app, client, window) => {
        const { els, version } = await current(client, window);
        const show = byName(els, "AXButton", "Show more");
        const pressed = performance.now();
        const opened = await client.call("act", { window, id: show.id, action: "press", version });
        assertMoving(opened.moving, pressed, "the press's answer");
        // Acted on at once, as the panel pushes them down: an agent planning on this read.
        const tapHere = (list: Element[]) =>
          list.find((e) => (e.name || e.value || "").trim() === "tap here");
        const seen = await client.call("read_ui", { window });
        const tap = tapHere(seen.elements!);
        assert.ok(tap, "the words show");
        assertMoving(seen.live.moving, pressed, "the read after the press");
        // A click on the words themselves: input at their place on screen, as for text
        // with no element of its own.
        const press = (id: string, version: number) =>
          client.call("act", { window, id, action: "click", value: "tap here", version });
        const r = await press(tap.id, seen.version).catch(async (err) => {
          // The panel's growth reached the map in between: plan on the map as it is.
          if (!(err instanceof DriverError && err.code === "stale_version")) throw err;
          const now = await current(client, window);
          return await press(tapHere(now.els)!.id, now.version);
        });
        assert.equal(r.ok, true);
        const said = async () =>
          (await oracleNodes(app.pid)).find((n) =>
            n.role === "paragraph" && /tapped/i.test(n.text ?? "")
          )?.text;
        assert.equal(await eventually(said, "Tapped"), "Tapped", `via ${r.via}`);
      },
      onSlidingPage,
      SLIDING_TITLE,
    );
  });
}

Deno.test("a pixel click on an element under another app's window raises the element's window first", async () => {
  const pad = await apps.mousepad();
  const s = await session();
  const screen = await apps.cover();
  try {
    const r = await s.client.call("read_ui", { app: pad.pid });
    // GTK 3's text view has no Action interface: a click is a pixel click.
    const area = r.elements!.find((e) => e.role === "AXTextArea")!;
    assert.ok(!area.actions.includes("click"));
    const mid = centre(area);
    assert.equal(await apps.titleOnTopAt(mid.x, mid.y), "Cover");
    const out = await s.client.call("act", {
      window: r.window,
      id: area.id,
      action: "click",
      version: r.version,
    });
    assert.equal(out.via, "pixel");
    const top = await apps.titleOnTopAt(mid.x, mid.y);
    assert.ok(top !== "Cover" && /Mousepad/.test(top ?? ""), `on top now: ${top}`);
  } finally {
    await screen.stop();
    await s.close();
    await pad.stop();
  }
});
