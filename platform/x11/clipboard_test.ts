import assert from "node:assert/strict";
import { DriverError } from "../../protocol/errors.ts";
import { readSelection, type SelectionName, SelectionOwner } from "./clipboard.ts";
import { type App, run, start, waitFor } from "./_testing.ts";
import { desktopTests } from "../../tests/support/desktop.ts";
import { startXvfb } from "../../tests/support/own_desktop.ts";

const desktop = desktopTests();
const DISPLAY = Deno.env.get("DISPLAY") ?? "";
const SELECTIONS: SelectionName[] = ["CLIPBOARD", "PRIMARY"];
const NON_ASCII = "Grüße – 東京";
const READ = { timeoutMs: 10_000, maxBytes: 8 << 20 };

/** GTK 3's own clipboard, the independent check of what the driver owns and reads. */
const GTK_CLIPBOARD = `
import json, sys
import gi
gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
from gi.repository import Gdk, Gtk

mode, name = sys.argv[1], sys.argv[2]
clipboard = Gtk.Clipboard.get(Gdk.Atom.intern(name, False))
if mode == "read":
    sys.stdout.write(json.dumps(clipboard.wait_for_text()))
elif mode == "targets":
    ok, atoms = clipboard.wait_for_targets()
    sys.stdout.write(json.dumps(sorted(a.name() for a in atoms) if ok else None))
elif mode == "contents":
    data = clipboard.wait_for_contents(Gdk.Atom.intern(sys.argv[3], False))
    sys.stdout.write(json.dumps(None if data is None else {
        "type": data.get_data_type().name(),
        "format": data.get_format(),
        "bytes": list(data.get_data()),
    }))
elif mode == "own":
    with open(sys.argv[3], encoding="utf-8") as f:
        clipboard.set_text(f.read(), -1)
    print("owned", flush=True)
    Gtk.main()
`;

async function gtk<T>(mode: string, selection: SelectionName, ...args: string[]): Promise<T> {
  return JSON.parse(await run("/usr/bin/python3", "-c", GTK_CLIPBOARD, mode, selection, ...args));
}

/** Runs `fn` while a GTK app owns `selection` with `text`. */
async function whileGtkOwns(
  selection: SelectionName,
  text: string,
  fn: (app: App) => Promise<void>,
): Promise<void> {
  const file = await Deno.makeTempFile({ suffix: ".txt" });
  await Deno.writeTextFile(file, text);
  const app = start("/usr/bin/python3", "-c", GTK_CLIPBOARD, "own", selection, file);
  try {
    await waitFor("GTK to own the selection", () => app.output().includes("owned") || undefined);
    await fn(app);
  } finally {
    Deno.kill(app.pid, "SIGCONT");
    await app.stop();
    await Deno.remove(file);
  }
}

/** A 1 MiB text of mixed 1-, 2- and 3-byte characters: four times GTK's and ours INCR limit. */
function largeText(): string {
  const line = "line ä€ 東京 0123456789 abcdefghijklmnopqrstuvwxyz\n";
  const bytes = new TextEncoder().encode(line).length;
  return line.repeat(Math.ceil((1 << 20) / bytes));
}

Deno.test({
  ...desktop,
  name: "SelectionOwner serves a non-ASCII text that GTK reads, on CLIPBOARD and PRIMARY",
  fn: async () => {
    for (const selection of SELECTIONS) {
      using owner = await SelectionOwner.claim(DISPLAY, selection, NON_ASCII);
      assert.ok(owner.owned);
      assert.equal(owner.text, NON_ASCII);
      assert.equal(await gtk<string>("read", selection), NON_ASCII);
    }
  },
});

Deno.test({
  ...desktop,
  name: "readSelection() reads a non-ASCII text GTK owns, on CLIPBOARD and PRIMARY",
  fn: async () => {
    for (const selection of SELECTIONS) {
      await whileGtkOwns(selection, NON_ASCII, async () => {
        assert.deepEqual(await readSelection(DISPLAY, selection, READ), {
          text: NON_ASCII,
          truncated: false,
        });
      });
    }
  },
});

Deno.test({
  ...desktop,
  name: "a 1 MiB text goes through INCR both ways: GTK reads ours, we read GTK's and ours",
  fn: async () => {
    const text = largeText();
    {
      using _owner = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", text);
      assert.equal(await gtk<string>("read", "CLIPBOARD"), text);
      assert.deepEqual(await readSelection(DISPLAY, "CLIPBOARD", READ), { text, truncated: false });
    }
    await whileGtkOwns("CLIPBOARD", text, async () => {
      assert.deepEqual(await readSelection(DISPLAY, "CLIPBOARD", READ), { text, truncated: false });
    });
  },
});

Deno.test({
  ...desktop,
  name: "readSelection() stops at maxBytes on a whole character, in one piece and through INCR",
  fn: async () => {
    {
      using _owner = await SelectionOwner.claim(DISPLAY, "PRIMARY", NON_ASCII);
      // "Grü" is 4 bytes; the 5th is the first half of "ß".
      const read = { timeoutMs: 10_000, maxBytes: 5 };
      assert.deepEqual(await readSelection(DISPLAY, "PRIMARY", read), {
        text: "Grü",
        truncated: true,
      });
      const exact = { timeoutMs: 10_000, maxBytes: new TextEncoder().encode(NON_ASCII).length };
      assert.deepEqual(await readSelection(DISPLAY, "PRIMARY", exact), {
        text: NON_ASCII,
        truncated: false,
      });
    }
    const text = largeText();
    await whileGtkOwns("CLIPBOARD", text, async () => {
      const maxBytes = 300_000;
      const got = await readSelection(DISPLAY, "CLIPBOARD", { timeoutMs: 10_000, maxBytes });
      assert.ok(got?.truncated);
      const size = new TextEncoder().encode(got.text).length;
      assert.ok(size <= maxBytes && size > maxBytes - 3, `${size} bytes`);
      assert.ok(text.startsWith(got.text));
    });
  },
});

Deno.test({
  ...desktop,
  name: "readSelection() of a selection nobody owns is null, also right after close()",
  fn: async () => {
    for (const selection of SELECTIONS) {
      const owner = await SelectionOwner.claim(DISPLAY, selection, "gone soon");
      owner.close();
      owner.close();
      assert.equal(owner.owned, false);
      assert.equal(await readSelection(DISPLAY, selection, READ), null);
      assert.equal(await gtk<string | null>("read", selection), null);
    }
  },
});

Deno.test({
  ...desktop,
  name: "SelectionOwner loses the selection to another client: owned false, onLost once",
  fn: async () => {
    let lost = 0;
    using owner = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", "ours", {
      onLost: () => lost++,
    });
    await whileGtkOwns("CLIPBOARD", "theirs", async () => {
      await waitFor("the selection to be lost", () => owner.owned ? undefined : true);
      assert.equal(lost, 1);
      assert.deepEqual(await readSelection(DISPLAY, "CLIPBOARD", READ), {
        text: "theirs",
        truncated: false,
      });
    });
    owner.close();
    assert.equal(lost, 1);
  },
});

Deno.test({
  ...desktop,
  name: "SelectionOwner.claim() again replaces the text of the owner the process has",
  fn: async () => {
    using first = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", "first");
    using second = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", NON_ASCII);
    assert.equal(second, first);
    assert.ok(first.owned);
    assert.equal(await gtk<string>("read", "CLIPBOARD"), NON_ASCII);
    first.close();
    using third = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", "third");
    assert.notEqual(third, first);
    assert.equal(await gtk<string>("read", "CLIPBOARD"), "third");
  },
});

interface Contents {
  type: string;
  format: number;
  bytes: number[];
}

Deno.test({
  ...desktop,
  name: "SelectionOwner answers TARGETS, STRING, TEXT and TIMESTAMP and refuses other targets",
  fn: async () => {
    const bytes = (text: string) => [...new TextEncoder().encode(text)];
    {
      using _owner = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", "Grüße");
      assert.deepEqual(await gtk("targets", "CLIPBOARD"), [
        "STRING",
        "TARGETS",
        "TEXT",
        "TIMESTAMP",
        "UTF8_STRING",
      ]);
      const latin1 = { type: "STRING", format: 8, bytes: [0x47, 0x72, 0xfc, 0xdf, 0x65] };
      assert.deepEqual(await gtk("contents", "CLIPBOARD", "STRING"), latin1);
      assert.deepEqual(await gtk("contents", "CLIPBOARD", "TEXT"), latin1);
      const stamp = await gtk<Contents>("contents", "CLIPBOARD", "TIMESTAMP");
      assert.equal(stamp.type, "INTEGER");
      assert.equal(stamp.format, 32);
      assert.ok(stamp.bytes.some((b) => b !== 0));
      assert.equal(await gtk("contents", "CLIPBOARD", "image/png"), null);
    }
    {
      using _owner = await SelectionOwner.claim(DISPLAY, "CLIPBOARD", NON_ASCII);
      const targets = await gtk<string[]>("targets", "CLIPBOARD");
      assert.ok(!targets.includes("STRING"), "no Latin-1 form of Japanese");
      assert.equal(await gtk("contents", "CLIPBOARD", "STRING"), null);
      assert.deepEqual(await gtk("contents", "CLIPBOARD", "TEXT"), {
        type: "UTF8_STRING",
        format: 8,
        bytes: bytes(NON_ASCII),
      });
    }
  },
});

Deno.test({
  ...desktop,
  name: "readSelection() falls back to STRING (Latin-1) when the owner refuses UTF8_STRING",
  fn: async () => {
    const file = await Deno.makeTempFile();
    await Deno.writeFile(file, new Uint8Array([0x47, 0x72, 0xfc, 0xdf, 0x65]));
    // xclip -t STRING offers that one target only (and TARGETS).
    const xclip = start("xclip", "-quiet", "-selection", "clipboard", "-t", "STRING", "-i", file);
    try {
      const got = await waitFor("xclip to own the selection", async () => {
        return (await readSelection(DISPLAY, "CLIPBOARD", READ)) ?? undefined;
      });
      assert.deepEqual(got, { text: "Grüße", truncated: false });
    } finally {
      await xclip.stop();
      await Deno.remove(file);
    }
  },
});

Deno.test({
  ...desktop,
  name: "readSelection() of an owner that never answers times out, or stops on abort",
  fn: async () => {
    await whileGtkOwns("PRIMARY", "frozen", async (app) => {
      Deno.kill(app.pid, "SIGSTOP");
      const started = performance.now();
      await assert.rejects(
        readSelection(DISPLAY, "PRIMARY", { timeoutMs: 300, maxBytes: 100 }),
        (err: unknown) => {
          assert.ok(err instanceof DriverError);
          assert.equal(err.code, "timeout");
          assert.match(err.message, /^Cannot read the "PRIMARY" selection: /);
          return true;
        },
      );
      assert.ok(performance.now() - started < 2_000);
      const stop = new AbortController();
      const reason = new Error("Stopped by the caller");
      const timer = setTimeout(() => stop.abort(reason), 50);
      try {
        await assert.rejects(
          readSelection(DISPLAY, "PRIMARY", {
            timeoutMs: 10_000,
            maxBytes: 100,
            signal: stop.signal,
          }),
          (err: unknown) => err === reason,
        );
      } finally {
        clearTimeout(timer);
      }
    });
  },
});

Deno.test({
  name: "SelectionOwner loses its selection with its X server, and its poll never throws",
  ignore: Deno.build.os !== "linux",
  fn: async () => {
    const server = await startXvfb();
    try {
      let lost = 0;
      const owner = await SelectionOwner.claim(server.display, "CLIPBOARD", "kept", {
        onLost: () => lost++,
      });
      await server.kill();
      // Its timer polls the dead connection: the loss is heard, and nothing is thrown.
      await waitFor("the selection lost", () => lost === 1 ? true : undefined, 5_000);
      assert.equal(owner.owned, false);
      owner.close();
      await server.start();
      // The new server has no owner: the old one's text is gone with its server.
      assert.equal(await readSelection(server.display, "CLIPBOARD", READ), null);
    } finally {
      await server.stop();
    }
  },
});
