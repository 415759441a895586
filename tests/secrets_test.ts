/**
 * Secrets never leave (issue 48): a known secret typed into the password fields of GTK 3,
 * Qt 5, Firefox and Chromium, and into a plain field marked `secret`, goes into the app
 * (the app says so, by its length) and nowhere else: not in any answer, not as bullets or a
 * length, not in the driver's log, not in any file of its data folder, and not into
 * another app's dialog that holds the keyboard focus.
 */
import assert from "node:assert/strict";
import * as apps from "./support/apps.ts";
import { session } from "./support/client.ts";
import { oracleNodes } from "./support/oracle.ts";
import { zooApp } from "./support/zoo.ts";
import { zooPage } from "./support/zoo_web.ts";
import type { DriverClient } from "../rpc/client.ts";
import type { Element } from "../protocol/element.ts";

apps.requireDesktop();

const SECRET = "Tr0ub4dor&3-zq";
/** What would give the secret away besides itself: its bullets, i.e. its length. */
const GIVEAWAYS = [SECRET, ..."•●*".split("").map((c) => c.repeat(SECRET.length))];

/** Every file under `dir`. */
async function* files(dir: string): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory) yield* files(path);
    else if (e.isFile) yield path;
  }
}

/** Every answer of the run, as the client got it. */
const answers: string[] = [];

async function call(client: DriverClient, op: string, params: Record<string, unknown>) {
  try {
    const r = await client.call(op as "read_ui", params as never);
    answers.push(JSON.stringify(r));
    return r as unknown as Record<string, unknown>;
  } catch (err) {
    answers.push(String(err), JSON.stringify((err as { data?: unknown }).data ?? null));
    throw err;
  }
}

/** The app's password field: read as a secure field, with no value. */
async function passwordField(client: DriverClient, pid: number) {
  const r = await call(client, "read_ui", { app: pid });
  const els = r.elements as Element[];
  const field = els.find((e) => e.role === "AXSecureTextField" && e.actions.includes("set_value"));
  assert.ok(field, `a password field reads as AXSecureTextField: ${JSON.stringify(els)}`);
  assert.equal(field.value, undefined, "its value is never answered");
  return { window: r.window as string, version: r.version as number, field, els };
}

/** Sets the secret into the app's password field and clicks it with words; checks answers. */
async function typeSecret(client: DriverClient, pid: number, said: () => Promise<unknown>) {
  const { window, version, field } = await passwordField(client, pid);
  const set = await call(client, "act", {
    window,
    version,
    id: field.id,
    action: "set_value",
    value: SECRET,
  });
  assert.equal(set.value, undefined, JSON.stringify(set));
  assert.equal(set.secret, true, "a password field's text is a secret without being told");
  await said();
  const now = await call(client, "read_ui", { window });
  const click = await call(client, "act", {
    window,
    version: now.version,
    id: field.id,
    action: "click",
    value: "zzz-not-there",
  }).catch((err) => ({ error: String(err) }));
  assert.ok(!("value" in click), `a click with words answers no bullets: ${JSON.stringify(click)}`);
  const after = await passwordField(client, pid);
  assert.equal(after.field.id, field.id);
}

Deno.test("a secret goes into GTK, Qt, Firefox and Chromium password fields and nowhere else", async (t) => {
  const s = await session({ ALLTERNIT_LOG_LEVEL: "debug" });
  try {
    await t.step("GTK 3: the password field, and a plain field marked secret", async () => {
      const app = await zooApp("gtk3_zoo.py", "Secret GTK");
      try {
        await typeSecret(
          s.client,
          app.pid,
          () => app.said((l) => l === `password: ${SECRET.length}`),
        );
        const { window, version, els } = await passwordField(s.client, app.pid);
        const name = els.find((e) => e.role === "AXTextField" && e.name === "Name")!;
        const r = await call(s.client, "act", {
          window,
          version,
          id: name.id,
          action: "set_value",
          value: SECRET,
          secret: true,
        });
        assert.equal(r.secret, true);
        await app.said((l) => l === `name: ${SECRET}`);
        const read = await call(s.client, "read_ui", { window });
        const again = (read.elements as Element[]).find((e) => e.id === name.id)!;
        assert.equal(again.value, undefined, "a field a secret went into answers no value");
        assert.equal(again.name, "Name");
        const since = await call(s.client, "read_ui", { window, since: version });
        assert.ok(!JSON.stringify(since).includes(SECRET));
      } finally {
        await app.stop();
      }
    });

    await t.step("Qt 5", async () => {
      const app = await zooApp("qt_zoo.py", "Secret Qt");
      try {
        await typeSecret(
          s.client,
          app.pid,
          () => app.said((l) => l === `password: ${SECRET.length}`),
        );
      } finally {
        await app.stop();
      }
    });

    for (const browser of ["Chromium", "Firefox"] as const) {
      await t.step(`${browser}, with another app's dialog holding the focus`, async () => {
        const title = `Secret ${browser}`;
        const page = await zooPage(
          title,
          (url) =>
            browser === "Firefox"
              ? apps.firefox(url, title)
              : apps.chromium(url, title, "Open palette"),
        );
        // A dialog of another app takes the keyboard focus: keys sent by focus alone go there.
        const intruder = await apps.startApp(
          "zenity",
          ["--entry", "--title", "Intruder"],
          "Intruder",
        );
        try {
          const from = page.mark();
          await typeSecret(
            s.client,
            page.pid,
            () => page.said((l) => l === `password: ${SECRET.length}`, from),
          );
          const theirs = await oracleNodes(intruder.pid);
          const leaked = theirs.filter((n) => `${n.name}\n${n.text ?? ""}`.includes(SECRET));
          assert.deepEqual(leaked, [], "not a key of the secret reached the other app");
        } finally {
          await intruder.stop();
          await page.stop();
        }
      });
    }
  } finally {
    await s.close();
  }
  // Nothing of the secret anywhere the driver wrote or said.
  const logs = s.proc.stderr();
  assert.ok(logs.length > 0, "the driver logged (debug)");
  for (const g of GIVEAWAYS) {
    assert.ok(!logs.includes(g), `the driver's log holds ${JSON.stringify(g)}`);
    for (const a of answers) {
      assert.ok(!a.includes(g), `an answer holds ${JSON.stringify(g)}: ${a}`);
    }
  }
  for await (const path of files(s.proc.dataDir)) {
    const bytes = await Deno.readFile(path);
    const text = new TextDecoder().decode(bytes);
    for (const g of GIVEAWAYS) assert.ok(!text.includes(g), `${path} holds ${JSON.stringify(g)}`);
  }
});
