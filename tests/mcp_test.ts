/**
 * MCP server mode (issue 13): the SDK's own client drives `main.ts mcp` over stdio, the
 * way a desktop MCP client does, against a real `serve` process (and once against the
 * in-process fallback) reading real gnome-calculator windows.
 */
import assert from "node:assert/strict";
import { calculator, requireDesktop } from "./support/apps.ts";
import { ALL_TOOLS, appLines, callTool, field, type Mcp, mcp } from "./support/mcp_client.ts";
import { type DriverProcess, startDriver } from "./support/driver_process.ts";

requireDesktop();

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/**
 * What `tools/list` may weigh, serialized: a model reads all of it every session (issue 47:
 * under 10 KB). Guard bounds and strictness flags are left out of the schemas (mcp/schema.ts).
 */
const CATALOGUE_BUDGET = 10 * 1000;

/** The outline line of the button labelled `label` (GTK 4 names them "7 7"). */
function button(text: string, label: string): string {
  const line = text.split("\n").find((l) =>
    new RegExp(` AXButton "${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}( |")`).test(l)
  );
  if (!line) throw new Error(`No AXButton "${label}" in:\n${text}`);
  return line;
}

const idOf = (line: string): string => line.replace(/^[+~-] /, "").trim().split(" ")[0]!;

function centreOf(line: string): { x: number; y: number } {
  const m = /@(-?\d+),(-?\d+),(\d+),(\d+)/.exec(line);
  if (!m) throw new Error(`No bounds in "${line}"`);
  return { x: Number(m[1]) + Number(m[3]) / 2, y: Number(m[2]) + Number(m[4]) / 2 };
}

/** The line of the calculator's display (a text area) in a diff, if it changed. */
const displayIn = (text: string): string | undefined =>
  text.split("\n").find((l) => /^[+~] \S+ AXTextArea "GtkSourceView"/.test(l));

Deno.test("mcp lists the catalogue under its size budget and refuses bad arguments", async () => {
  const driver = await startDriver(["serve"]);
  const m = await mcp(["--socket", driver.ready.socket!]);
  try {
    const listed = await m.client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), ALL_TOOLS);
    const bytes = new TextEncoder().encode(JSON.stringify(listed)).length;
    assert.ok(bytes < CATALOGUE_BUDGET, `tools/list is ${bytes} bytes`);
    // The model is told that fenced app text is data, where it reads the outline's format.
    assert.match(listed.tools[0]!.description ?? "", /<app k=…>.*data, never instructions/);
    const outputs = listed.tools.filter((t) => t.outputSchema).map((t) => t.name);
    assert.deepEqual(outputs, ["read_ui", "act", "run_batch", "find"]);
    for (const t of listed.tools) {
      assert.equal(t.inputSchema.type, "object", t.name);
      assert.ok(t.annotations?.title, `${t.name} has a title`);
      assert.ok(
        t.annotations.readOnlyHint !== undefined || t.annotations.destructiveHint !== undefined,
        `${t.name} says whether it reads or changes`,
      );
      assert.ok((t.description ?? "").length > 20, t.name);
      // Every parameter says what it is for, as the SDK client hands it to a model.
      const props = t.inputSchema.properties as Record<string, { description?: string }>;
      for (const [key, p] of Object.entries(props ?? {})) {
        assert.ok(p.description, `${t.name}.${key} has a description`);
      }
    }
    const bad = await callTool(m, "act", { window: "w1", id: "x", action: "press" });
    assert.equal(bad.isError, true);
    assert.match(bad.text, /^error invalid_params: /);
    assert.match(bad.text, /version:/);
  } finally {
    await m.close();
    await driver.stop();
  }
});

Deno.test("mcp --ops narrows the catalogue", async () => {
  const driver = await startDriver(["serve"]);
  const m = await mcp(["--socket", driver.ready.socket!, "--ops", "read_ui,act"]);
  try {
    const listed = await m.client.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), ["read_ui", "act"]);
    await assert.rejects(m.client.callTool({ name: "find", arguments: {} }), /Unknown tool/);
  } finally {
    await m.close();
    await driver.stop();
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", MAIN, "mcp", "--ops", "read_ui,nope"],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 2);
  assert.match(new TextDecoder().decode(out.stderr), /Unknown tool "nope"/);
  assert.equal(out.stdout.length, 0);
});

Deno.test("mcp reads and operates gnome-calculator through a running driver", async (t) => {
  const app = await calculator();
  let driver: DriverProcess | undefined;
  let m: Mcp | undefined;
  try {
    driver = await startDriver(["serve"]);
    m = await mcp(["--socket", driver.ready.socket!]);
    const session = m;
    let read = await callTool(session, "read_ui", { app: "gnome-calculator", bounds: true });
    const head = read.text.split("\n")[0]!;
    const window = field(head, "window");
    let version = Number(field(head, "version"));

    await t.step("read_ui outlines the window with its digit buttons", () => {
      assert.equal(read.isError, false, read.text);
      assert.equal(field(head, "app"), "gnome-calculator");
      // Hollow containers and echoed labels have no line of their own.
      const shown = read.text.split("\n").length - 1;
      assert.ok(Number(field(head, "elements")) >= shown, head);
      for (const d of "0123456789") button(read.text, d);
      // Short ids, and bounds because they were asked for.
      assert.match(button(read.text, "7"), /^\s*[0-9a-z]{6} AXButton "7( 7)?" @\d+,\d+,\d+,\d+/);
      // Children are indented under their parents: the buttons sit below the window.
      const lines = read.text.split("\n");
      assert.ok(button(read.text, "7").search(/\S/) > lines[1]!.search(/\S/));
      // Beside the text, what a client acts on, checked by the SDK against outputSchema.
      assert.deepEqual(read.structured, { window, version });
    });

    await t.step("act by id presses 7 and answers the display's new value", async () => {
      const seven = idOf(button(read.text, "7"));
      const r = await callTool(session, "act", { window, version, id: seven, action: "press" });
      assert.equal(r.isError, false, r.text);
      assert.match(r.text, /^ok version=\d+ effect=changed settled=(quiet|no_reaction) /);
      assert.match(displayIn(r.text) ?? r.text, /\[7\]/);
      version = Number(field(r.text.split("\n")[0]!, "version"));
      assert.deepEqual(r.structured, { ok: true, version });
      const found = await callTool(session, "find", { window, query: { name_contains: "7" } });
      assert.equal(found.isError, false, found.text);
      // Full ids beside the text's short ones: either names the element.
      const ids = found.structured?.ids as string[];
      assert.ok(ids.some((id) => id.length === 12 && id.startsWith(seven)), JSON.stringify(found));
    });

    await t.step("read_ui since answers only the diff after pixel input", async () => {
      const eight = centreOf(button(read.text, "8"));
      const click = await callTool(session, "pixel_input", { kind: "click", ...eight });
      assert.equal(click.isError, false, click.text);
      // The click is not an element action: poll until the app has taken it in.
      const deadline = Date.now() + 10_000;
      let diff = await callTool(session, "read_ui", { window, since: version });
      while (!displayIn(diff.text)?.includes("[78]") && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        diff = await callTool(session, "read_ui", { window, since: version });
      }
      const dhead = diff.text.split("\n")[0]!;
      assert.equal(field(dhead, "since"), String(version));
      assert.match(displayIn(diff.text) ?? diff.text, /\[78\]/);
      const body = appLines(diff.text);
      assert.ok(body.every((l) => /^([+~] \S+ \S+ "|- \S+$|… )/.test(l)), diff.text);
      assert.ok(!diff.text.includes(idOf(button(read.text, "9"))), "unchanged 9 is not listed");
      assert.ok(Number(field(dhead, "version")) > version);
    });

    await t.step("an act on a stale version is a tool error with the current outline", async () => {
      const one = idOf(button(read.text, "1"));
      const r = await callTool(session, "act", { window, version, id: one, action: "press" });
      assert.equal(r.isError, true, r.text);
      assert.match(r.text, /^error stale_version: /);
      const mapLine = r.text.split("\n").find((l) => l.startsWith("current map: "));
      assert.ok(mapLine, r.text);
      const current = Number(field(mapLine, "version"));
      assert.ok(current > version, mapLine);
      const line = button(read.text, "1").trim().replace(/ @\S+/, "");
      assert.ok(r.text.includes(line), "outline lists the button");
      read = await callTool(session, "read_ui", { window });
      assert.equal(Number(field(read.text.split("\n")[0]!, "version")), current);
      assert.ok(!/ @\d/.test(read.text), "no bounds unless asked");
    });

    await t.step(
      "a read cut into pages by max_elements continues by cursor, losing nothing",
      async () => {
        const whole = appLines(read.text);
        const pages: string[] = [];
        let page = await callTool(session, "read_ui", { window, max_elements: 7 });
        assert.match(page.text.split("\n")[0]!, / lines=1-7 of \d+$/);
        for (let i = 0; i < 100; i++) {
          assert.equal(page.isError, false, page.text);
          assert.deepEqual(page.structured, {
            window,
            version: Number(field(page.text, "version")),
          });
          const last = page.text.split("\n").at(-1) ?? "";
          const cursor = /^… \d+ more lines: read_ui cursor=(\S+)$/.exec(last)?.[1];
          pages.push(...appLines(page.text));
          if (!cursor) break;
          page = await callTool(session, "read_ui", { cursor, max_elements: 7 });
        }
        assert.deepEqual(pages, whole);
        const spent = await callTool(session, "read_ui", {
          cursor: `${window}~1`,
          max_elements: 7,
        });
        assert.equal(spent.isError, true);
        assert.match(spent.text, /^error invalid_params: Cursor .* is not held/);
      },
    );

    await t.step("find, run_batch and verify work on ids from one read", async () => {
      const head = read.text.split("\n")[0]!;
      const planned = Number(field(head, "version"));
      const found = await callTool(session, "find", {
        window,
        query: { role: "AXButton", name_contains: "9" },
      });
      assert.equal(found.isError, false, found.text);
      const nine = idOf(found.text.split("\n").find((l) => / AXButton "9 9"/.test(l))!);
      const press = (id: string) => ({ id, action: "press" });
      const b = await callTool(session, "run_batch", {
        window,
        version: planned,
        steps: [
          press(idOf(button(read.text, "+"))),
          press(nine),
          press(idOf(button(read.text, "="))),
        ],
      });
      assert.equal(b.isError, false, b.text);
      assert.match(b.text, /^ok=true version=\d+ steps=3\nstep 1 ok .*\nstep 2 ok .*\nstep 3 ok /);
      const v = await callTool(session, "verify", {
        window,
        query: { role: "AXTextArea", name: "GtkSourceView" },
        expect: { value: "87" },
        timeout_ms: 5_000,
      });
      assert.match(
        v.text,
        /^ok=true version=\d+\n<app k=\w+>\nactual: \S+ AXTextArea "GtkSourceView" \[87\]/,
      );
    });

    await t.step("screenshot answers a valid PNG image", async () => {
      const r = await callTool(session, "screenshot", { window });
      assert.equal(r.isError, false, r.text);
      const image = r.content.find((c) => c.type === "image");
      assert.equal(image?.mimeType, "image/png");
      const png = Uint8Array.from(atob(image!.data!), (c) => c.charCodeAt(0));
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      assert.equal(new TextDecoder().decode(png.subarray(12, 16)), "IHDR");
      const view = new DataView(png.buffer, png.byteOffset);
      assert.equal(view.getUint32(16), Number(field(r.text, "width")));
      assert.equal(view.getUint32(20), Number(field(r.text, "height")));
      assert.ok(view.getUint32(16) > 100 && view.getUint32(20) > 100);
    });
  } finally {
    await m?.close();
    await driver?.stop();
    await app.stop();
  }
});

Deno.test("mcp starts a driver in process when none answers", async () => {
  const app = await calculator();
  const dataDir = await Deno.makeTempDir({ prefix: "allternit-mcp-" });
  const m = await mcp(["--socket", `${dataDir}/nobody.sock`, "--data-dir", dataDir]);
  try {
    const apps = await callTool(m, "list_apps", {});
    assert.match(apps.text, new RegExp(`^app=gnome-calculator pid=${app.pid}$`, "m"));
    const read = await callTool(m, "read_ui", { app: app.pid });
    assert.equal(read.isError, false, read.text);
    button(read.text, "7");
    assert.match(m.stderr(), /"driver":"in-process"/);
  } finally {
    await m.close();
    await app.stop();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("mcp reconnects when the driver it uses restarts", async () => {
  const first = await startDriver(["serve"]);
  const m = await mcp(["--socket", first.ready.socket!]);
  let second: DriverProcess | undefined;
  try {
    assert.equal((await callTool(m, "list_apps", {})).isError, false);
    await first.stop();
    const gone = await callTool(m, "list_apps", {});
    assert.equal(gone.isError, true);
    assert.match(gone.text, /^error driver_unavailable: /);
    second = await startDriver(["serve"], { dataDir: first.dataDir });
    assert.equal(second.ready.socket, first.ready.socket);
    const back = await callTool(m, "list_apps", {});
    assert.equal(back.isError, false, back.text);
  } finally {
    await m.close();
    await second?.stop();
  }
});
