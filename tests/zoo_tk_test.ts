/**
 * The widget zoo in Tk (tests/support/zoo/tk_zoo.py). Tk has no accessibility tree: the
 * driver reads the window by vision (OCR) and acts by pixels, so these cells are what an
 * agent can do through vision alone: press buttons by their text, check a box and a radio
 * by clicking their words, type into an entry after clicking it, pick a list row, and open
 * the modal dialog and answer it. Every effect is checked by the line the app printed from
 * its own handler. One app and one driver for the file, started by the first cell and
 * stopped by the last test.
 */
import assert from "node:assert/strict";
import type { Element } from "../protocol/element.ts";
import { requireDesktop } from "./support/apps.ts";
import { type Session, session } from "./support/client.ts";
import { type Act, replanned } from "./support/desktop_steps.ts";
import { type ZooApp, zooApp } from "./support/zoo.ts";

requireDesktop();
const MODE = Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none";

/** The zoo app, its driver, and the zoo window's id. */
interface Lab {
  app: ZooApp;
  s: Session;
  window: string;
}

type Pick = (e: Element, all: readonly Element[]) => boolean;

/** The first element `pick` accepts, or a failure listing what vision read. */
function pickOne(elements: readonly Element[], pick: Pick): Element {
  const e = elements.find((x) => pick(x, elements));
  assert.ok(e, `no such element in ${JSON.stringify(elements.map((x) => [x.role, x.name]))}`);
  return e;
}

/** Words read as `text`: a button's or a label's. */
const words = (text: string): Pick => (e) => e.name === text;

/**
 * A check box's or radio's word: vision reads a ticked indicator as a glyph before it
 * ("v Agree"), so the word may come last rather than alone.
 */
const toggle = (text: string): Pick => (e, all) =>
  all.some((x) => x.name === text) ? e.name === text : e.name.endsWith(` ${text}`);

/**
 * The entry to the right of the words `label` on the same line: vision reads no role of
 * a field, only an empty box, so an agent finds it by the label beside it.
 */
const fieldRightOf = (label: string): Pick => (e, all) => {
  const l = all.find((x) => x.name === label);
  if (!l || e.role !== "AXGroup" || e.name !== "" || e.bounds.x <= l.bounds.x) return false;
  const middle = l.bounds.y + l.bounds.h / 2;
  const boxes = all.filter((x) =>
    x.role === "AXGroup" && x.name === "" && x.bounds.x > l.bounds.x &&
    x.bounds.y <= middle && middle <= x.bounds.y + x.bounds.h
  ).sort((a, b) => a.bounds.x - b.bounds.x);
  return boxes[0] === e;
};

/** Reads, picks and acts; planned again on a stale version, as an agent does. */
function act(
  lab: Lab,
  pick: Pick,
  action: "press" | "click" | "type_text" | "set_value",
  value?: string,
  window = lab.window,
): Promise<Act> {
  return replanned(async () => {
    const r = await lab.s.client.call("read_ui", { window });
    const e = pickOne(r.elements!, pick);
    return await lab.s.client.call("act", {
      window,
      version: r.version,
      id: e.id,
      action,
      ...(value === undefined ? {} : { value }),
    });
  });
}

/** Runs `action`, then waits for each of `lines` the app must print because of it. */
async function expectLines(lab: Lab, lines: string[], action: () => Promise<Act>): Promise<Act> {
  const mark = lab.app.lines.length;
  const acted = await action();
  for (const line of lines) {
    const deadline = Date.now() + 8_000;
    while (!lab.app.lines.slice(mark).includes(line)) {
      const since = JSON.stringify(lab.app.lines.slice(mark));
      if (Date.now() > deadline) assert.fail(`the app never said "${line}"; it said ${since}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  return acted;
}

let started: Promise<Lab> | undefined;
const lab = () =>
  started ??= (async () => {
    const app = await zooApp("tk_zoo.py", "Tk zoo", [], { xOnly: true });
    const s = await session();
    // A filtered run skips the last test: the app and driver end with the test process.
    globalThis.addEventListener("unload", () => {
      for (const pid of [app.pid, s.proc.ready.pid]) {
        try {
          Deno.kill(pid, "SIGTERM");
        } catch { /* gone */ }
      }
    });
    // Found as `ps` names it: the zoo runs as a program of its own.
    const read = await s.client.call("read_ui", { app: "tk_zoo" });
    assert.equal(read.source, "vision");
    return { app, s, window: read.window };
  })();

const cell = (name: string, fn: (l: Lab) => Promise<void>) =>
  Deno.test({
    name: `Tk: ${name} (window manager: ${MODE})`,
    // The app and driver outlive each test: the file's cells share them.
    sanitizeOps: false,
    sanitizeResources: false,
    fn: async () => await fn(await lab()),
  });

cell("read by vision has trimmed names and no bounds of -2147483648", async (l) => {
  const r = await l.s.client.call("read_ui", { window: l.window });
  const untrimmed = r.elements!.filter((e) => e.name !== e.name.trim());
  assert.deepEqual(untrimmed.map((e) => e.name), [], "names are trimmed");
  const far = r.elements!.filter((e) =>
    Object.values(e.bounds).some((v) => v <= -2147483648 || v >= 2147483647)
  );
  assert.deepEqual(far.map((e) => [e.role, e.name]), [], "no unset bounds");
});

cell("press Add person and Remove person by their text", async (l) => {
  const added = await expectLines(
    l,
    ["people: Dee,Ann,Bob,Cid"],
    () => act(l, words("Add person"), "press"),
  );
  assert.equal(added.ok, true, JSON.stringify(added));
  const removed = await expectLines(
    l,
    ["people: Ann,Bob,Cid"],
    () => act(l, words("Remove person"), "press"),
  );
  assert.equal(removed.ok, true, JSON.stringify(removed));
});

for (const [box, key] of [["Agree", "agree"], ["Bold", "bold"]] as const) {
  cell(`check and uncheck ${box} by clicking its word`, async (l) => {
    await expectLines(l, [`${key}: on`], () => act(l, toggle(box), "click"));
    await expectLines(l, [`${key}: off`], () => act(l, toggle(box), "click"));
  });
}

cell("check radio Large by clicking its word", async (l) => {
  await expectLines(l, ["size: Large"], () => act(l, toggle("Large"), "click"));
  await expectLines(l, ["size: Small"], () => act(l, toggle("Small"), "click"));
});

cell("type_text Name after clicking the entry", async (l) => {
  const clicked = await act(l, fieldRightOf("Name"), "click");
  assert.equal(clicked.ok, true, JSON.stringify(clicked));
  const typed = await expectLines(
    l,
    ["name: Ada"],
    () => act(l, fieldRightOf("Name"), "type_text", "Ada"),
  );
  assert.equal(typed.ok, true, JSON.stringify(typed));
});

cell("select Colors row by clicking it, without activating it", async (l) => {
  const mark = l.app.lines.length;
  await expectLines(l, ["colors: Blue"], () => act(l, words("Blue"), "click"));
  await expectLines(l, ["colors: Green"], () => act(l, words("Green"), "click"));
  const activated = l.app.lines.slice(mark).filter((x) => x.startsWith("colors activated"));
  assert.deepEqual(activated, [], "a click selects, it does not activate");
});

cell("press Open modal opens Zoo dialog; answered by vision, OK closes it", async (l) => {
  const pressed = await expectLines(
    l,
    ["dialog: shown"],
    () => act(l, words("Open modal"), "press"),
  );
  assert.equal(pressed.ok, true, JSON.stringify(pressed));
  const dialog = pressed.opened?.find((w) => w.title === "Zoo dialog");
  assert.ok(dialog, `opened: ${JSON.stringify(pressed.opened)}`);
  const typed = await act(l, fieldRightOf("Answer"), "type_text", "Ada", dialog.window);
  assert.equal(typed.ok, true, JSON.stringify(typed));
  const ok = await expectLines(
    l,
    ["dialog: ok Ada"],
    () => act(l, words("OK"), "press", undefined, dialog.window),
  );
  assert.equal(ok.closed, true, JSON.stringify(ok));
});

Deno.test({
  name: `Tk: the zoo app and its driver stop (window manager: ${MODE})`,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    if (!started) return;
    const { app, s } = await started;
    await s.close();
    await app.stop();
  },
});
