/**
 * Vision that respects stacking (issue 43): a Tk app (no accessibility tree, read by
 * vision) with its right half under an xterm. A read leaves the covered half out and says
 * `covered`, naming the xterm as xwininfo and xprop do; input to an element under the
 * cover raises the Tk window and lands there, or (under a window the window manager keeps
 * on top) is refused `obscured`; and no cover ever receives a click or a key: the xterm
 * runs `cat` into a file with mouse reporting on, the on-top Tk cover prints every event
 * it gets. Run bare and with openbox (`desktop-session.sh run --wm openbox`).
 */
import assert from "node:assert/strict";
import { linesOf } from "./support/zoo.ts";
import { requireDesktop } from "./support/apps.ts";
import { session } from "./support/client.ts";
import { VisionEngine, type VisionRead } from "../engines/vision/mod.ts";
import { isDriverError } from "../protocol/errors.ts";
import type { Bounds } from "../protocol/element.ts";
import type { RawNode } from "../model/engine.ts";

requireDesktop();

const decode = (b: Uint8Array) => new TextDecoder().decode(b);
const run = async (cmd: string, args: string[]) =>
  decode((await new Deno.Command(cmd, { args, stdout: "piped", stderr: "null" }).output()).stdout);

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = performance.now() + ms;
  while (performance.now() < deadline) {
    const v = await f().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** A client window as xwininfo and xprop describe it: the X server's word, not the driver's. */
interface XFacts {
  id: string;
  bounds: Bounds;
  pid: number;
}

async function xFacts(title: string): Promise<XFacts> {
  const info = await run("xwininfo", ["-name", title]);
  const id = /Window id: (0x[0-9a-f]+)/.exec(info)?.[1];
  assert.ok(id, `xwininfo finds "${title}"`);
  // Found before it is mapped, a window may not be where it ends up yet.
  assert.match(info, /Map State: IsViewable/);
  const num = (label: string) => Number(new RegExp(`${label}:\\s+(-?\\d+)`).exec(info)?.[1]);
  const pid = /= (\d+)/.exec(await run("xprop", ["-id", id, "_NET_WM_PID"]))?.[1];
  return {
    id,
    bounds: {
      x: num("Absolute upper-left X"),
      y: num("Absolute upper-left Y"),
      w: num("Width"),
      h: num("Height"),
    },
    pid: Number(pid ?? 0),
  };
}

/** The Tk app (or, with `--cover`, its on-top cover); `lines` is what it printed so far. */
async function startTk(args: string[] = [], title = "TkStack") {
  const child = new Deno.Command("/usr/bin/python3", {
    args: ["tests/support/tk_stack_app.py", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const { lines, reading } = linesOf(child.stdout);
  await until("the Tk app", () => Promise.resolve(lines.includes("ready") || undefined));
  const facts = await until(`the window "${title}"`, () => xFacts(title));
  return {
    lines,
    window: `x${parseInt(facts.id, 16).toString(16)}`,
    async stop() {
      child.kill("SIGTERM");
      await child.status;
      await reading;
    },
  };
}

/**
 * An xterm titled "Cover" over the Tk window's right half, mapped last, so on top (and,
 * under a window manager, focused). It reports mouse clicks (`ESC [ ? 1000 h`) and hands
 * every byte at once (`-icanon`) to `cat`, which writes them to `file`.
 */
async function startCover(file: string) {
  await Deno.writeTextFile(file, "");
  const script = `printf '\\033[?1000h'; echo COVERWORD; stty -icanon -echo; exec cat > ${file}`;
  const child = new Deno.Command("xterm", {
    args: ["-title", "Cover", "-geometry", "60x26+330+0", "-e", "sh", "-c", script],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const facts = await until("the cover", () => xFacts("Cover"));
  // The shell has switched mouse reporting on once it printed its word.
  await new Promise((r) => setTimeout(r, 300));
  return {
    facts,
    pid: child.pid,
    received: () => Deno.readTextFile(file),
    async stop() {
      child.kill("SIGTERM");
      await child.status;
    },
  };
}

const names = (root: RawNode): string[] => [root.name, ...root.children.flatMap(names)];
const find = (root: RawNode, name: string): RawNode | undefined =>
  root.name === name ? root : root.children.map((c) => find(c, name)).find(Boolean);
const near = (a: number, b: number, by: number) => Math.abs(a - b) <= by;

function readTk(vision: VisionEngine, window: string): Promise<VisionRead> {
  return vision.read(window, { maxElements: 1000, signal: AbortSignal.timeout(20_000) });
}

Deno.test("vision reads only the visible part of a covered Tk window and names the cover", async () => {
  const tk = await startTk();
  const file = await Deno.makeTempFile();
  const vision = new VisionEngine();
  try {
    // Uncovered, both halves read: the OCR sees the right half's words.
    const open = await until("both halves", async () => {
      const r = await readTk(vision, tk.window);
      return names(r.root).includes("Secret") ? r : undefined;
    });
    assert.equal(open.covered, undefined);
    const cover = await startCover(file);
    try {
      const r = await until("a covered read", async () => {
        const r = await readTk(vision, tk.window);
        return r.covered ? r : undefined;
      });
      const read = names(r.root);
      for (const word of ["Hidden", "Secret", "COVERWORD"]) {
        assert.ok(!read.some((n) => n.includes(word)), `"${word}" left out: ${read.join("|")}`);
      }
      assert.ok(read.includes("Visible") && read.includes("Apply"), read.join("|"));
      // The cover as the X server names it.
      assert.equal(r.covered!.length, 1, JSON.stringify(r.covered));
      const [c] = r.covered!;
      assert.equal(c!.x11_window, cover.facts.id);
      assert.equal(c!.title, "Cover");
      assert.equal(c!.pid, cover.facts.pid);
      assert.equal(c!.pid, cover.pid);
      // The hidden part: the Tk window's right side from the xterm's left edge (its frame
      // under a window manager: a border and a title bar's width more).
      const tkX = await xFacts("TkStack");
      assert.ok(near(c!.bounds.x, cover.facts.bounds.x, 4), JSON.stringify([c, cover.facts]));
      assert.equal(c!.bounds.y, tkX.bounds.y);
      assert.equal(c!.bounds.x + c!.bounds.w, tkX.bounds.x + tkX.bounds.w);
      assert.equal(c!.bounds.y + c!.bounds.h, tkX.bounds.y + tkX.bounds.h);
      // No element of the read lies in the hidden part.
      const stack = [...r.root.children];
      while (stack.length) {
        const n = stack.pop()!;
        stack.push(...n.children);
        if (n.children.length) continue;
        assert.ok(n.bounds.x + n.bounds.w <= c!.bounds.x, `${n.name} at ${n.bounds.x}`);
      }
      assert.equal(await cover.received(), "");
    } finally {
      await cover.stop();
    }
  } finally {
    await vision.close();
    await tk.stop();
    await Deno.remove(file);
  }
});

Deno.test("input to a covered vision element raises its window and lands in it, never in the cover", async () => {
  const tk = await startTk();
  const file = await Deno.makeTempFile();
  const vision = new VisionEngine();
  try {
    const open = await until("both halves", async () => {
      const r = await readTk(vision, tk.window);
      return find(r.root, "Secret") && r.root.children.length >= 6 ? r : undefined;
    });
    const secret = find(open.root, "Secret")!;
    // The right-hand field: the box below "Secret".
    const field = open.root.children.find((n) =>
      n.role === "AXGroup" && n.bounds.x > secret.bounds.x - 20 && n.bounds.y > secret.bounds.y
    )!;
    assert.ok(field, "the right-hand field");
    const tries: [RawNode, "press" | "type_text", string | undefined, string][] = [
      [secret, "press", undefined, "pressed Right"],
      [field, "type_text", "hello", "right: hello"],
    ];
    for (const [node, action, value, expect] of tries) {
      const cover = await startCover(file);
      try {
        const before = tk.lines.length;
        // Its window is raised (by the window manager, when one runs) and the input lands
        // in Tk, by its own word: refusing would be safe, but nothing could be done.
        await vision.act(tk.window, node, action, value, AbortSignal.timeout(10_000));
        await until(
          `"${expect}" from Tk`,
          () => Promise.resolve(tk.lines.slice(before).includes(expect) || undefined),
        );
        // Whatever the answer, the cover received nothing (give a stray key time to land).
        await new Promise((r) => setTimeout(r, 300));
        assert.equal(await cover.received(), "", `${action}: the cover got input`);
      } finally {
        await cover.stop();
      }
    }
  } finally {
    await vision.close();
    await tk.stop();
    await Deno.remove(file);
  }
});

Deno.test("read_ui of a covered Tk window says covered; keys typed into its visible field stay in it", async () => {
  const tk = await startTk();
  const file = await Deno.makeTempFile();
  const s = await session();
  try {
    const cover = await startCover(file);
    try {
      const r = await until("a covered read", async () => {
        const r = await s.client.call("read_ui", { window: tk.window, fresh: true });
        return r.covered && r.elements!.some((e) => e.name === "Apply") ? r : undefined;
      });
      assert.equal(r.source, "vision");
      assert.deepEqual(r.covered!.map((c) => [c.x11_window, c.title, c.pid]), [
        [cover.facts.id, "Cover", cover.pid],
      ]);
      assert.ok(!r.elements!.some((e) => /Secret|Hidden|COVERWORD/.test(e.name)));
      // The left-hand field shows; the cover, mapped last, may hold the keyboard focus.
      const apply = r.elements!.find((e) => e.name === "Apply")!;
      const field = r.elements!.find((e) =>
        e.role === "AXGroup" && e.bounds.y > apply.bounds.y && e.bounds.x < apply.bounds.x + 50
      );
      assert.ok(field, "the left-hand field");
      const before = tk.lines.length;
      const act = await s.client.call("act", {
        window: r.window,
        version: r.version,
        id: field.id,
        action: "type_text",
        value: "abc",
      });
      assert.equal(act.via, "pixel", JSON.stringify(act));
      await until(
        '"left: abc" from Tk',
        () => Promise.resolve(tk.lines.slice(before).includes("left: abc") || undefined),
      );
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await cover.received(), "");
    } finally {
      await cover.stop();
    }
  } finally {
    await s.close();
    await tk.stop();
    await Deno.remove(file);
  }
});

Deno.test("input under a window that stays on top is refused obscured, and the cover gets none", async () => {
  const managed = (Deno.env.get("ALLTERNIT_SESSION_WM") ?? "none") !== "none";
  const tk = await startTk();
  const vision = new VisionEngine();
  try {
    const open = await until("both halves", async () => {
      const r = await readTk(vision, tk.window);
      return find(r.root, "Secret") ? r : undefined;
    });
    const secret = find(open.root, "Secret")!;
    const top = await startTk(["--cover"], "TopCover");
    try {
      const before = tk.lines.length;
      const outcome = await vision.act(
        tk.window,
        secret,
        "press",
        undefined,
        AbortSignal.timeout(10_000),
      )
        .then(() => "done", (err) => err);
      if (managed) {
        // The window manager keeps "TopCover" above: no raise can uncover the element.
        assert.ok(isDriverError(outcome, "obscured"), String(outcome));
        const covering = outcome.data.covering as {
          title: string;
          pid: number;
          x11_window: string;
        };
        assert.equal(covering.title, "TopCover");
        assert.equal(covering.x11_window, (await xFacts("TopCover")).id);
        assert.deepEqual(tk.lines.slice(before), []);
      } else {
        // Nothing keeps a window on top without a window manager: the raise works.
        assert.equal(outcome, "done");
        await until(
          '"pressed Right" from Tk',
          () => Promise.resolve(tk.lines.slice(before).includes("pressed Right") || undefined),
        );
      }
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(top.lines.filter((l) => l.startsWith("cover got")), []);
    } finally {
      await top.stop();
    }
  } finally {
    await vision.close();
    await tk.stop();
  }
});
