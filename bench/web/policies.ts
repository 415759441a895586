/**
 * Scripted policies for MiniWoB++ tasks: each reads the task's instruction from the page
 * and acts through the driver's ops on elements found by role and name, as an agent
 * would. They know the task's wording, never its DOM.
 *
 * @module
 */
import type { ActionName, Element } from "../../protocol/element.ts";
import { isDriverError } from "../../protocol/errors.ts";
import type { ResultOf } from "../../protocol/ops.ts";
import { inside, type Policy, type Task } from "./episode.ts";

/** The strings in double quotes in `text`, in order. */
const quoted = (text: string): string[] => [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!);

const norm = (s: string) => s.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * The task area's elements now, and the map's version (a cached read when nothing
 * changed). The browser's own fields (the address bar) are outside the area.
 */
async function current(
  task: Task,
  wanted?: (els: Element[]) => boolean,
): Promise<{ els: Element[]; version: number }> {
  const area = (r: ResultOf<"read_ui">) => r.elements!.filter((e) => inside(e.bounds, task.area));
  let r = await task.driver.call("read_ui", { window: task.window });
  // Looking for something while the page still moves after the last action (an accordion
  // sliding open): read again until it shows or the page stops.
  for (let i = 0; wanted && r.live.moving && !wanted(area(r)) && i < 20; i++) {
    await new Promise((done) => setTimeout(done, 50));
    r = await task.driver.call("read_ui", { window: task.window });
  }
  return { els: area(r), version: r.version };
}

/**
 * Finds an element with `pick` on the page as it is now and acts on it. A page that
 * changed in between (MiniWoB's countdown ticks every second) answers `stale_version`
 * with its current map: the element is looked for again there.
 */
async function act(
  task: Task,
  pick: (els: Element[]) => Element | undefined,
  action: ActionName,
  value?: string,
): Promise<{ settle_ms?: number }> {
  let { els, version } = await current(task);
  for (let attempt = 0; attempt < 4; attempt++) {
    const el = pick(els);
    if (!el) throw new Error(`Nothing to ${action} on the page`);
    try {
      const r = await task.driver.call("act", {
        window: task.window,
        id: el.id,
        action,
        version,
        ...(value !== undefined ? { value } : {}),
      });
      if (!r.ok) {
        throw new Error(`${action} did not take: the element holds "${r.value}"`);
      }
      return r;
    } catch (err) {
      if (!isDriverError(err, "stale_version")) throw err;
      const map = err.data.map as { elements: Element[]; version: number };
      els = map.elements.filter((e) => inside(e.bounds, task.area));
      version = map.version;
    }
  }
  throw new Error(`The page kept changing: could not ${action}`);
}

/** The element with one of `roles` whose name (or value) reads `name`, case aside. */
const named = (roles: string[], name: string) => (els: Element[]) =>
  els.find((e) => roles.includes(e.role) && e.name === name) ??
    els.find((e) => roles.includes(e.role) && norm(e.name || e.value || "") === norm(name));

const BUTTONS = ["AXButton"];
const LINKS = ["AXLink"];
const FIELDS = ["AXTextField", "AXTextArea", "AXComboBox", "AXIncrementor"];

/**
 * The link or text reading `word` exactly, case included: MiniWoB quotes a link's own text,
 * and the same word capitalized elsewhere in the text is not it.
 */
const linkText = (word: string) => (els: Element[]) =>
  els.find((e) =>
    [...LINKS, "AXStaticText"].includes(e.role) &&
    (e.name || e.value || "").replace(/\s+/g, " ").trim() === word
  );

/** The `n`th text field of the page (0-based). */
const nthField = (n: number) => (els: Element[]) => els.filter((e) => FIELDS.includes(e.role))[n];

/** The check box or radio button labelled `label`. */
const toggle = (label: string) => (els: Element[]) =>
  named(["AXCheckBox", "AXRadioButton"], label)(els) ??
    // A label element beside an unnamed box: the box right before it in document order.
    (() => {
      const i = els.findIndex((e) => norm(e.name || e.value || "") === norm(label));
      return i > 0
        ? els.slice(0, i).reverse().find((e) =>
          e.role === "AXCheckBox" || e.role === "AXRadioButton"
        )
        : undefined;
    })();

const submit = (task: Task) => act(task, named(BUTTONS, "Submit"), "press");

/** The text an element shows: its value, else its name. */
const textOf = (e: Element) => (e.value ?? e.name).trim();

/** The checks of "Select a, b and click Submit." (none for "Select nothing"). */
async function selectAndSubmit(t: Task): Promise<void> {
  const m = /Select (.*) and click Submit/i.exec(t.instruction);
  const words = (m?.[1] ?? "").split(",").map((w) => w.trim())
    .filter((w) => w && w !== "nothing");
  for (const w of words) await act(t, toggle(w), "press");
  await submit(t);
}

/** Types `text` into the task's first text field and presses Submit. */
async function answer(t: Task, text: string): Promise<void> {
  await act(t, nthField(0), "set_value", text);
  await submit(t);
}

/** The value in the table row whose first cell reads `key`. */
function tableValue(els: Element[], key: string): string | undefined {
  const i = els.findIndex((e) => e.role === "AXCell" && textOf(e) === key);
  if (i < 0) return undefined;
  const next = els.slice(i + 1).find((e) => e.role === "AXCell");
  return next ? textOf(next) : undefined;
}

/** Evaluates "a + b", "a - b", "a x b", "a / b". */
function arithmetic(text: string): number | undefined {
  const m = /(-?\d+)\s*([-+x*\/])\s*(-?\d+)/.exec(text);
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[3])];
  return m[2] === "+" ? a + b : m[2] === "-" ? a - b : m[2] === "/" ? a / b : a * b;
}

/** Widget kinds of click-widget, by the roles the driver gives them. */
const WIDGETS: Record<string, string[]> = {
  button: ["AXButton"],
  checkbox: ["AXCheckBox"],
  radio: ["AXRadioButton"],
  text: ["AXTextField"],
  textarea: ["AXTextArea"],
};

/** Solves "x + 3 = 7", "3 - x = 1", "x x 2 = 8" for x. */
function solveForX(text: string): number | undefined {
  const m = /(x|-?\d+)\s*([-+x*\/])\s*(x|-?\d+)\s*=\s*(-?\d+)/.exec(text);
  if (!m) return undefined;
  const [, left, op, right, result] = m;
  const r = Number(result);
  const k = Number(left === "x" ? right : left);
  const xLeft = left === "x";
  switch (op) {
    case "+":
      return r - k;
    case "-":
      return xLeft ? r + k : k - r;
    case "/":
      return xLeft ? r * k : k / r;
    default:
      return r / k;
  }
}

/** The centre distance of two boxes. */
/**
 * The gap between two boxes (0 when they touch): a label sits next to its field, while
 * centres mislead for wide fields (a table's next row's label was nearer by centre).
 */
const distance = (a: Element, b: Element) => {
  const gap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, a0 - b1, b0 - a1);
  const { x: ax, y: ay, w: aw, h: ah } = a.bounds;
  const { x: bx, y: by, w: bw, h: bh } = b.bounds;
  return Math.hypot(gap(ax, ax + aw, bx, bx + bw), gap(ay, ay + ah, by, by + bh));
};

/** Tabs are pressed in turn until the link named in the instruction shows. */
async function findInTabs(t: Task): Promise<void> {
  const link = linkText(quoted(t.instruction)[0]!);
  for (let tab = 2;; tab++) {
    const { els } = await current(t);
    if ((link(els)?.bounds.h ?? 0) > 0) return void await act(t, link, "press");
    const next = named(["AXLink", "AXTab", "AXRadioButton"], `Tab #${tab}`);
    // No tab left to look in: done (click-tab-2-medium empties its second tab, and
    // opening it is the answer when the link is not in the first).
    if (!next(els)) return;
    await act(t, next, "press");
  }
}

/** Opens the collapsed section, then presses Submit. */
async function expandAndSubmit(t: Task): Promise<void> {
  await act(t, (els) => els.find((e) => /^Section #\d+$/.test(textOf(e))), "press");
  await submit(t);
}

/** Fills the movie search form, each field by the label nearest to it. */
async function searchMovies(t: Task): Promise<void> {
  const m = /Search for (.*) movies directed by (.*) from year (\d+)/i.exec(t.instruction);
  if (!m) throw new Error(`Unexpected instruction: ${t.instruction}`);
  const wanted: Record<string, string> = { genre: m[1]!, director: m[2]!, year: m[3]! };
  const { els } = await current(t);
  const labels = els.filter((e) =>
    !FIELDS.includes(e.role) && /^(movie )?genre|director|year|released/i.test(textOf(e)) &&
    textOf(e).length < 24
  );
  for (const field of els.filter((e) => FIELDS.includes(e.role))) {
    const label = labels.sort((a, b) => distance(a, field) - distance(b, field))[0];
    const kind = /genre/i.test(textOf(label!))
      ? "genre"
      : /director/i.test(textOf(label!))
      ? "director"
      : "year";
    await act(t, (now) => now.find((e) => e.id === field.id), "set_value", wanted[kind]!);
  }
  const go = /^(submit|search|go!?)$/i;
  await act(
    t,
    (now) =>
      now.find((e) => e.role === "AXButton" && go.test(textOf(e))) ??
        // Some layouts draw the button as a styled box: its text is all there is.
        now.find((e) => go.test(textOf(e))),
    "press",
  );
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, Math.max(0, ms)));

/** Presses "Section #n" headers in turn until `wanted` shows, then presses it. */
async function findInSections(t: Task, wanted: (els: Element[]) => Element | undefined) {
  const shows = (els: Element[]) => (wanted(els)?.bounds.h ?? 0) > 0;
  for (let section = 1; section <= 10; section++) {
    const { els } = await current(t, shows);
    if (shows(els)) return void await act(t, wanted, "press");
    const header = (now: Element[]) => now.find((e) => textOf(e) === `Section #${section}`);
    if (!header(els)) break;
    await act(t, header, "press");
  }
  throw new Error("The text was in no section");
}

/**
 * The texts of the elements after the last one reading `after` (Chromium lists a
 * paragraph's text in the paragraph and again in its text node), up to the first field.
 */
function textsAfter(els: Element[], after: RegExp): string[] {
  const start = els.findLastIndex((e) => after.test(textOf(e)));
  const out: string[] = [];
  const parents = new Set(els.map((e) => e.parent));
  for (const e of els.slice(start + 1)) {
    if (FIELDS.includes(e.role) || e.role === "AXButton") break;
    // Leaves only: a group's text is its text node's again.
    if (textOf(e) && !parents.has(e.id)) out.push(textOf(e));
  }
  return out;
}

/**
 * Selects the option named `want`, found with scope "all" (it may be scrolled away). A page
 * that changed between the find and the act (the countdown) answers `stale_version`: the
 * option is found again on the new version, as `act` does.
 */
async function selectOption(t: Task, want: string): Promise<void> {
  for (let attempt = 0; attempt < 4; attempt++) {
    const found = await t.driver.call("find", {
      window: t.window,
      query: { name: want },
      scope: "all",
    });
    const option = found.elements.find((e) => e.actions.includes("select"));
    if (!option) throw new Error(`No option "${want}" to select`);
    try {
      const r = await t.driver.call("act", {
        window: t.window,
        version: found.version,
        id: option.id,
        action: "select",
      });
      if (!r.ok) throw new Error(`select did not take: ${r.value}`);
      return;
    } catch (err) {
      if (!isDriverError(err, "stale_version")) throw err;
    }
  }
  throw new Error(`The page kept changing: could not select "${want}"`);
}

/** Policies by task name. */
export const POLICIES: Record<string, Policy> = {
  "click-button": (t) => act(t, named(BUTTONS, quoted(t.instruction)[0]!), "press"),
  "click-button-sequence": async (t) => {
    await act(t, named(BUTTONS, "ONE"), "press");
    await act(t, named(BUTTONS, "TWO"), "press");
  },
  // The task's links are spans with a click handler: their text is a node of its own.
  "click-link": (t) => act(t, linkText(quoted(t.instruction)[0]!), "press"),
  "click-test": (t) => act(t, named(BUTTONS, "Click Me!"), "press"),
  "click-test-2": (t) => act(t, named(BUTTONS, /ONE/.test(t.instruction) ? "ONE" : "TWO"), "press"),
  "click-test-transfer": (t) =>
    act(t, named(BUTTONS, /ONE/.test(t.instruction) ? "ONE" : "TWO"), "press"),
  "focus-text": (t) => act(t, nthField(0), "focus"),
  "focus-text-2": (t) => {
    const n = Number(/(\d+)/.exec(t.instruction.replace(/\D+/, " "))?.[1] ?? 1);
    const word = /(first|second|third)/i.exec(t.instruction)?.[1]?.toLowerCase();
    const index = word ? ["first", "second", "third"].indexOf(word) : n - 1;
    return act(t, nthField(index), "focus");
  },
  "enter-text": async (t) => {
    await act(t, nthField(0), "set_value", quoted(t.instruction)[0]!);
    await submit(t);
  },
  "enter-text-2": async (t) => {
    const [text] = quoted(t.instruction);
    const value = /lower/i.test(t.instruction) ? text!.toLowerCase() : text!.toUpperCase();
    await act(t, nthField(0), "set_value", value);
    await submit(t);
  },
  "enter-password": async (t) => {
    const [password] = quoted(t.instruction);
    await act(t, nthField(0), "set_value", password!);
    await act(t, nthField(1), "set_value", password!);
    await submit(t);
  },
  "login-user": async (t) => {
    const [user, password] = quoted(t.instruction);
    await act(t, nthField(0), "set_value", user!);
    await act(t, nthField(1), "set_value", password!);
    await act(t, named(BUTTONS, "Login"), "press");
  },
  "click-checkboxes": selectAndSubmit,
  "click-checkboxes-large": selectAndSubmit,
  "click-checkboxes-transfer": selectAndSubmit,
  "enter-text-dynamic": (t) => answer(t, quoted(t.instruction)[0]!),
  "unicode-test": (t) => act(t, named(BUTTONS, quoted(t.instruction)[0]!), "press"),
  "click-widget": (t) => {
    const kind = quoted(t.instruction)[0]!;
    const roles = WIDGETS[kind] ?? [];
    // The page counts a click on the widget, which focusing a text field is not.
    return act(t, (els) => els.find((e) => roles.includes(e.role)), "click");
  },
  // The text area and the answer's text box come in either order.
  "copy-paste": async (t) => {
    const { els } = await current(t);
    const text = els.find((e) => e.role === "AXTextArea")?.value ?? "";
    await act(t, (now) => now.find((e) => e.role === "AXTextField"), "set_value", text);
    await submit(t);
  },
  "read-table": async (t) => {
    const key = /value of (.*) into/i.exec(t.instruction)?.[1]?.trim() ?? "";
    const { els } = await current(t);
    await answer(t, tableValue(els, key) ?? "");
  },
  "simple-arithmetic": async (t) => {
    const { els } = await current(t);
    const problem = els.map(textOf).find((x) => /\d+\s*[-+x*\/]\s*\d+\s*=/.test(x)) ?? "";
    await answer(t, String(arithmetic(problem) ?? ""));
  },
  "click-collapsible": expandAndSubmit,
  "find-word": async (t) => {
    const n = parseInt(/Find the (\w+) word/i.exec(t.instruction)?.[1] ?? "1", 10);
    const { els } = await current(t);
    const paragraph =
      els.map(textOf).filter((x) => !t.instruction.includes(x) && x.split(/\s+/).length > 5)
        .sort((a, b) => b.length - a.length)[0] ?? "";
    await answer(t, paragraph.split(/\s+/)[n - 1]?.replace(/[^a-zA-Z]/g, "") ?? "");
  },
  "click-tab-2-easy": findInTabs,
  "click-tab-2": findInTabs,
  "click-tab-2-medium": findInTabs,
  "click-collapsible-nodelay": expandAndSubmit,
  "multi-layouts": searchMovies,
  "multi-orderings": searchMovies,
  "simple-algebra": async (t) => {
    const { els } = await current(t);
    const problem = els.map(textOf).find((x) => /x/.test(x) && /=\s*-?\d+/.test(x)) ?? "";
    await answer(t, String(solveForX(problem) ?? ""));
  },
  "click-option": async (t) => {
    const m = /Select (.*) and click Submit/i.exec(t.instruction);
    await act(t, toggle(m?.[1]?.trim() ?? ""), "press");
    await submit(t);
  },
  "click-tab": (t) => {
    const n = /#(\d+)/.exec(t.instruction)?.[1] ?? "1";
    return act(t, named(["AXLink", "AXTab", "AXRadioButton"], `Tab #${n}`), "press");
  },
  "click-dialog": (t) => act(t, named(BUTTONS, "Close"), "press"),
  // A file tree: folders (items holding a list) are opened until the name shows.
  "navigate-tree": async (t) => {
    const want = quoted(t.instruction)[0] ?? "";
    const opened = new Set<string>();
    for (let i = 0; i < 10; i++) {
      const { els } = await current(t);
      const hit = els.filter((e) =>
        (e.name === want || e.value === want) && e.bounds.h > 0 && e.role !== "AXRow"
      ).at(-1);
      // By its id, else by its text: a row the tree drew again has another id.
      const again = (now: Element[]) =>
        now.find((e) => e.id === hit?.id) ??
          now.find((e) => e.role === hit?.role && textOf(e) === want && e.bounds.h > 0);
      if (hit) return await act(t, again, "press");
      // A folder's row holds the tree's unnamed toggle beside its name.
      const rows = new Set(els.filter((e) => e.role === "AXRow").map((e) => e.id));
      const toggle = els.find((e) =>
        rows.has(e.parent ?? "") && e.role === "AXGroup" && e.name === "" &&
        (e.value ?? "") === "" && !opened.has(e.id)
      );
      if (!toggle) break;
      opened.add(toggle.id);
      await act(t, (now) => now.find((e) => e.id === toggle.id), "press");
    }
    throw new Error(`No "${want}" in the tree`);
  },
  // A closed drop-down's options are beyond the map: found with scope "all", then selected.
  "choose-list": async (t) => {
    await selectOption(t, /Select (.*) from the list/i.exec(t.instruction)?.[1]?.trim() ?? "");
    await submit(t);
  },
  "button-delay": async (t) => {
    const seconds = Number(/wait (\d+) seconds?/i.exec(t.instruction)?.[1] ?? 0);
    const asked = performance.now();
    const one = await act(t, named(BUTTONS, "ONE"), "press");
    // The page starts its clock at the click, which came before the answer's settling.
    const clicked = Math.max(asked, performance.now() - (one.settle_ms ?? 0));
    await sleep(clicked + seconds * 1_000 - performance.now());
    await act(t, named(BUTTONS, "TWO"), "press");
  },
  "text-transform": async (t) => {
    const { els } = await current(t);
    // The letters are drawn skewed; their text is plain to a reader of the tree.
    await answer(t, textsAfter(els, /^Type the text below/i).join("").replace(/\s+/g, ""));
  },
  "read-table-2": async (t) => {
    const { els } = await current(t);
    const fields = els.filter((e) => FIELDS.includes(e.role));
    for (const [i, field] of fields.entries()) {
      // Each field's label is the text right before it.
      const at = els.indexOf(field);
      const label = els.slice(0, at).reverse().find((e) => textOf(e) && e.role !== "AXCell");
      const value = tableValue(els, textOf(label!).replace(/:$/, "")) ?? "";
      await act(t, nthField(i), "set_value", value);
    }
    await submit(t);
  },
  "odd-or-even": async (t) => {
    const { els: now } = await current(t);
    // A number is a leaf's text: Gecko keeps it in its cell's own text, Chromium in a node.
    const parents = new Set(now.map((e) => e.parent));
    const isNumber = (e: Element) =>
      e.role !== "AXButton" && !parents.has(e.id) && /^-?\d+$/.test(textOf(e));
    const count = now.filter(isNumber).length;
    for (let k = 0; k < count; k++) {
      await act(t, (els) => {
        const num = els.filter(isNumber)[k];
        if (!num) return undefined;
        const i = els.indexOf(num);
        return Number(textOf(num)) % 2 !== 0
          ? els.slice(0, i).reverse().find((e) => e.role === "AXButton" && textOf(e) === "Odd")
          : els.slice(i + 1).find((e) => e.role === "AXButton" && textOf(e) === "Even");
      }, "press");
    }
    await submit(t);
  },
  "login-user-popup": async (t) => {
    const [user, password] = quoted(t.instruction);
    // Focusing a field may open a popup that disables the form, so the text does not
    // take: Cancel the popup and fill the field again.
    for (const [i, text] of [user!, password!].entries()) {
      try {
        await act(t, nthField(i), "set_value", text);
      } catch {
        await act(t, named(BUTTONS, "Cancel"), "press");
        await act(t, nthField(i), "set_value", text);
      }
    }
    // The instruction says "press login"; the form's button reads "OK".
    await act(t, (els) => named(BUTTONS, "Login")(els) ?? named(BUTTONS, "OK")(els), "press");
  },
  "click-collapsible-2": (t) => findInSections(t, linkText(quoted(t.instruction)[0]!)),
  "click-collapsible-2-nodelay": (t) => findInSections(t, linkText(quoted(t.instruction)[0]!)),
  "scroll-text": async (t) => {
    const { els } = await current(t);
    const text = els.find((e) => e.role === "AXTextArea")?.value ?? "";
    const last = text.trim().split(/\s+/).at(-1)?.replace(/[^a-zA-Z0-9]/g, "") ?? "";
    await act(t, (now) => now.find((e) => e.role === "AXTextField"), "set_value", last);
    await submit(t);
  },
  // Halves the range by the page's "higher than" / "lower than" answers.
  "guess-number": async (t) => {
    let [low, high] = [0, 9];
    while (low <= high) {
      const guess = Math.floor((low + high) / 2);
      await act(t, nthField(0), "set_value", String(guess));
      const r = await act(t, named(BUTTONS, "Submit"), "press");
      const said = (await current(t)).els.map(textOf).join(" ");
      if (/higher than/i.test(said)) low = guess + 1;
      else if (/lower than/i.test(said)) high = guess - 1;
      else return r;
    }
  },
  // A list box of several choices: each wanted option is selected, wherever it scrolled to.
  "click-scroll-list": async (t) => {
    const list = /Select (.*) from the scroll list/i.exec(t.instruction)?.[1] ?? "";
    for (const want of list.split(",").map((w) => w.trim()).filter(Boolean)) {
      await selectOption(t, want);
    }
    await submit(t);
  },
  "click-dialog-2": (t) => {
    const label = quoted(t.instruction)[0] ?? "OK";
    // The "x" in a dialog's corner is its close button, named "Close" by its title.
    const close = /^[x×]$/i.test(label) ? named(BUTTONS, "Close") : () => undefined;
    return act(t, (els) => named(BUTTONS, label)(els) ?? close(els), "press");
  },
};
