/**
 * Fields an app reads only on Enter (issue 44), and a document viewer's page text: each
 * effect checked by pyatspi in its own process, never by the driver's answer. A plain
 * `set_value` leaves such a field as typed; `commit: "enter"` gives it Return.
 */
import assert from "node:assert/strict";
import { session } from "./support/client.ts";
import { requireDesktop, startApp } from "./support/apps.ts";
import { oracleNodes, oracleShown } from "./support/oracle.ts";
import type { DriverClient } from "../rpc/client.ts";
import { pollUntil } from "../util/poll.ts";

requireDesktop();

/** Polls `read` until `done` holds or 5 s pass; the last value. */
const until = <T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> =>
  pollUntil(read, done, 5_000);

/** The first element of `window` that `query` finds, once the window lists it. */
async function first(
  client: DriverClient,
  window: string,
  query: { role?: string; name?: string; value?: string; text_contains?: string },
) {
  const found = await until(
    () => client.call("find", { window, query }),
    (f) => f.elements.length > 0,
  );
  const el = found.elements[0];
  assert.ok(el, `no ${JSON.stringify(query)} in ${window}`);
  return { el, version: found.version };
}

/** A two-page PDF, written by tests/support/two_page_pdf.py. */
async function twoPagePdf(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-pdf-" });
  const path = `${dir}/report.pdf`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: [new URL("./support/two_page_pdf.py", import.meta.url).pathname, path],
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return path;
}

/** The words pyatspi reads in evince's showing pages. */
async function shownPages(pid: number): Promise<string> {
  const shown = await oracleShown(pid, "report.pdf");
  return shown.filter((n) => n.roleName === "page").map((n) => n.text).join("\n");
}

Deno.test("evince: a PDF page's words are in the map; its page number commits on Enter", async () => {
  const app = await startApp("evince", [await twoPagePdf()], "report.pdf");
  const s = await session();
  try {
    const { window } = await s.client.call("read_ui", { app: app.pid });
    // The page loads after the window shows: its text comes in with it.
    const page = await first(s.client, window, { text_contains: "Quarterly report" });
    assert.match(page.el.value ?? "", /Revenue rose by seven percent\./);
    assert.doesNotMatch(await shownPages(app.pid), /Second page/);

    const entry = await first(s.client, window, { role: "AXTextField", name: "page-label-entry" });
    const set = await s.client.call("act", {
      window,
      version: entry.version,
      id: entry.el.id,
      action: "set_value",
      value: "2",
      commit: "enter",
    });
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.equal(set.commit, "enter");
    const shown = await until(() => shownPages(app.pid), (t) => /Second page/.test(t));
    assert.match(shown, /Second page/, "evince went to page 2");
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("Gnumeric: the edit line's set_value with commit enters the cell", async () => {
  const dir = await Deno.makeTempDir({ prefix: "allternit-gnm-" });
  await Deno.writeTextFile(`${dir}/sums.csv`, "a,b\n1,2\n3,4\n");
  const app = await startApp("gnumeric", [`${dir}/sums.csv`], "sums.csv");
  const s = await session();
  const sum = async () =>
    (await oracleNodes(app.pid)).find((n) => n.role === "label" && /^Sum = /.test(n.name))
      ?.name;
  try {
    const { window } = await s.client.call("read_ui", { app: app.pid });
    // A1 is current: the edit line shows what it holds.
    const line = await first(s.client, window, { role: "AXTextField", value: "a" });
    const set = await s.client.call("act", {
      window,
      version: line.version,
      id: line.el.id,
      action: "set_value",
      value: "=40+2",
      commit: "enter",
    });
    assert.equal(set.ok, true, JSON.stringify(set));
    assert.equal(set.commit, "enter");
    // Back to A1 through the name box, committed the same way: the status bar sums it.
    const box = await first(s.client, window, { role: "AXTextField", value: "A2" });
    const moved = await s.client.call("act", {
      window,
      version: box.version,
      id: box.el.id,
      action: "set_value",
      value: "A1",
      commit: "enter",
    });
    assert.equal(moved.ok, true, JSON.stringify(moved));
    assert.equal(await until(sum, (t) => t === "Sum = 42"), "Sum = 42");
    // A toolbar button's press works (it answered `effect: "none"` once): Save opens its
    // dialog, which pyatspi sees, and Cancel closes it.
    const save = await first(s.client, window, { role: "AXButton", name: "Save" });
    const pressed = await s.client.call("act", {
      window,
      version: save.version,
      id: save.el.id,
      action: "press",
    });
    assert.equal(pressed.effect, "changed", JSON.stringify(pressed));
    const titles = () => oracleNodes(app.pid, 20, 0).then((ws) => ws.map((w) => w.name));
    const shown = await until(titles, (ts) => ts.some((t) => /^Save the current workbook/.test(t)));
    assert.ok(shown.some((t) => /^Save the current workbook/.test(t)), JSON.stringify(shown));
    const dialog = pressed.opened?.[0]?.window;
    assert.ok(dialog, JSON.stringify(pressed.opened));
    const cancel = await first(s.client, dialog, { role: "AXButton", name: "Cancel" });
    await s.client.call("act", {
      window: dialog,
      version: cancel.version,
      id: cancel.el.id,
      action: "press",
    });
  } finally {
    await s.close();
    await app.stop();
  }
});

Deno.test("commit is refused on any action but set_value, with the driver running", async () => {
  const s = await session();
  try {
    const bad = await s.client.call("act", {
      window: "w1",
      version: 1,
      id: "x",
      action: "press",
      commit: "enter",
    } as never).then(() => undefined, (err: Error) => err.message);
    assert.match(bad ?? "", /Only set_value takes commit/);
    assert.ok(await s.client.call("hello", {}));
  } finally {
    await s.close();
  }
});
