/**
 * The UIA engine against real Win32 windows, run by Windows Deno under Wine 10
 * (`bash tests/wine/run.sh`). Named `.wine.ts`, not `_test.ts`, so that Linux's
 * `deno test` never collects it. Each effect is checked by the app itself: Notepad's edit
 * control answers WM_GETTEXT to this process, and the MessageBox fixture prints which
 * button closed it.
 *
 * @module
 */
import assert from "node:assert/strict";
import { assemble } from "../../cli/setup.ts";
import type { Element } from "../../protocol/element.ts";
import { decode } from "fast-png";
import { wideString as wide } from "../../ffi/windows/bstr.ts";

const user32 = Deno.dlopen("user32.dll", {
  FindWindowW: { parameters: ["pointer", "buffer"], result: "pointer" },
  FindWindowExW: { parameters: ["pointer", "pointer", "buffer", "pointer"], result: "pointer" },
  SendMessageW: { parameters: ["pointer", "u32", "usize", "buffer"], result: "isize" },
});
const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/** Polls `probe` until it answers something other than `undefined`. */
async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Notepad's edit text, read by this process with WM_GETTEXT (not through the driver). */
function notepadText(): string {
  const top = user32.symbols.FindWindowW(null, wide("Untitled - Notepad"));
  const edit = top && user32.symbols.FindWindowExW(top, null, wide("Edit"), null);
  if (!edit) throw new Error("no Notepad edit control");
  const buf = new Uint16Array(4096);
  const n = Number(user32.symbols.SendMessageW(edit, 0x000d, BigInt(buf.length), buf));
  return String.fromCharCode(...buf.subarray(0, n));
}

async function startNotepad(): Promise<Deno.ChildProcess> {
  const child = new Deno.Command("notepad.exe", { stdout: "null", stderr: "null" }).spawn();
  await until(
    "Notepad's window",
    () => user32.symbols.FindWindowW(null, wide("Untitled - Notepad")) ?? undefined,
  );
  return child;
}

function messageBox(title: string): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./fixtures/message_box.ts", import.meta.url).pathname.replace(
        /^\/([A-Za-z]:)/,
        "$1",
      ),
      title,
      "Keep changes?",
    ],
    stdout: "piped",
    stderr: "null",
  }).spawn();
}

function byRole(elements: Element[], role: string, name?: string): Element {
  const el = elements.find((e) => e.role === role && (name === undefined || e.name === name));
  if (!el) {
    throw new Error(
      `no ${role} ${name ?? ""} in ${elements.map((e) => `${e.role} "${e.name}"`).join(", ")}`,
    );
  }
  return el;
}

type Read = {
  window: string;
  version: number;
  elements: Element[];
  engine: string;
  source: string;
};

// One driver for every step, as in production (one per process): a driver closed under Wine
// cannot take back its UIA event handlers (RemoveAllEventHandlers is a stub there), so a
// second driver in the same process would meet the first one's registrations.
Deno.test({
  name: "the UIA engine under Wine against real Win32 windows",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir();
    // Served, not one-shot: the live map follows notifications.
    const { driver, dispatcher } = await assemble(dir, false);
    const call = <T>(op: string, params: unknown) => dispatcher.call(op, params) as Promise<T>;
    try {
      await t.step("hello names UIA available, with each Wine fallback it took", async () => {
        const hello = await call<
          { engines: { name: string; available: boolean; reason?: string }[] }
        >(
          "hello",
          {},
        );
        const uia = hello.engines.find((e) => e.name === "uia")!;
        assert.equal(uia.available, true, uia.reason);
        assert.match(uia.reason ?? "", /^uia_compat: .*CreateAndCondition/);
      });

      await t.step("Notepad is listed and read; type_text lands in its edit control", async () => {
        const notepad = await startNotepad();
        try {
          // Found by class before it is shown: listed once visible.
          await until("Notepad in list_apps", async () => {
            const apps = await call<{ apps: { name: string }[] }>("list_apps", {});
            return apps.apps.some((a) => a.name.toLowerCase() === "notepad") || undefined;
          });
          const read = await call<Read>("read_ui", { app: "notepad" });
          assert.equal(read.engine, "uia");
          assert.equal(read.source, "tree");
          byRole(read.elements, "AXWindow", "Untitled - Notepad");
          const field = byRole(read.elements, "AXTextField");
          assert.ok(field.actions?.includes("type_text"), JSON.stringify(field.actions));
          const acted = await call<{ ok: boolean; via: string }>("act", {
            window: read.window,
            version: read.version,
            id: field.id,
            action: "type_text",
            value: "typed under Wine",
          });
          assert.equal(acted.ok, true, JSON.stringify(acted));
          assert.equal(
            await until("the text in Notepad", () => notepadText() || undefined),
            "typed under Wine",
          );
          const again = await call<Read>("read_ui", { window: read.window, fresh: true });
          assert.equal(byRole(again.elements, "AXTextField").value, "typed under Wine");

          // Keys through SendInput, into the focused edit control.
          await call("act", {
            window: again.window,
            version: again.version,
            id: byRole(again.elements, "AXTextField").id,
            action: "focus",
          });
          await call("pixel_key", { keys: "ctrl+End" });
          await call("pixel_type_text", { text: " and keys" });
          assert.equal(
            await until("the keys in Notepad", () => {
              const text = notepadText();
              return text.endsWith(" and keys") ? text : undefined;
            }),
            "typed under Wine and keys",
          );

          // Wine's PrintWindow draws nothing; the screen copy must show the window.
          const shot = await call<{ png: string }>("screenshot", { window: read.window });
          const png = decode(Uint8Array.from(atob(shot.png), (c) => c.charCodeAt(0)));
          const lit = png.data.some((v, i) => i % png.channels !== 3 && v !== 0);
          assert.ok(lit, `a ${png.width}x${png.height} screenshot with content`);
        } finally {
          notepad.kill();
          await notepad.status;
        }
      });

      await t.step(
        "a MessageBox's buttons read as buttons; press closes it with that answer",
        async () => {
          const box = messageBox("Allternit question");
          try {
            await until(
              "the MessageBox",
              () => user32.symbols.FindWindowW(null, wide("Allternit question")) ?? undefined,
            );
            const win = await until("the MessageBox in list_apps", async () => {
              const apps = await call<{ apps: { windows: { window: string; title: string }[] }[] }>(
                "list_apps",
                {},
              );
              return apps.apps.flatMap((a) => a.windows).find((w) =>
                w.title === "Allternit question"
              );
            });
            const read = await call<Read>("read_ui", { window: win.window });
            for (const name of ["Yes", "No", "Cancel"]) byRole(read.elements, "AXButton", name);
            byRole(read.elements, "AXStaticText", "Keep changes?");
            assert.equal(byRole(read.elements, "AXButton", "Yes").focused, true);

            // Tab moves the focus to No: Wine's focus event reaches the live map.
            type Live = { live: { events?: number } };
            const before = (await call<Live>("hello", {})).live.events ?? 0;
            await call("pixel_key", { keys: "Tab" });
            await until("a focus notification", async () => {
              const now = (await call<Live>("hello", {})).live.events ?? 0;
              return now > before || undefined;
            });
            const moved = await call<Read>("read_ui", { window: win.window });
            assert.equal(byRole(moved.elements, "AXButton", "No").focused, true);
            assert.equal(byRole(moved.elements, "AXButton", "Yes").focused, false);

            const no = byRole(moved.elements, "AXButton", "No");
            const acted = await call<{ ok: boolean; via: string }>("act", {
              window: moved.window,
              version: moved.version,
              id: no.id,
              action: "press",
            });
            assert.equal(acted.ok, true, JSON.stringify(acted));
            assert.equal(acted.via, "action");
            const out = await box.output();
            assert.equal(
              new TextDecoder().decode(out.stdout).trim(),
              "no",
              "the box says No closed it",
            );
          } finally {
            try {
              box.kill();
            } catch {
              // Already gone: the press closed it.
            }
          }
        },
      );
    } finally {
      await driver.close();
    }
  },
});
