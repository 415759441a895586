import assert from "node:assert/strict";
import {
  commandOf,
  entryDirs,
  entryId,
  listEntries,
  parseEntry,
  splitExec,
} from "./desktop_entries.ts";

const entry = (exec: string, more = "") =>
  parseEntry(
    `[Desktop Entry]\nType=Application\nName=Text\\sEditor\nExec=${exec}\n${more}`,
    "t.desktop",
    "/x",
  )!;

Deno.test("parseEntry() reads a shown application and what its Exec line takes", () => {
  assert.deepEqual(entry("mousepad %U"), {
    id: "t.desktop",
    name: "Text Editor",
    exec: "mousepad %U",
    path: "/x",
    takes: "urls",
  });
  assert.equal(entry("gimp %f").takes, "file");
  assert.equal(entry("xcalc").takes, "none");
  assert.equal(entry("x", "NoDisplay=true"), null);
  assert.equal(entry("x", "Hidden=true"), null);
  assert.equal(parseEntry("[Desktop Entry]\nType=Link\nURL=x\n", "l.desktop", "/l"), null);
  // Keys of other groups (actions) are not the entry's.
  const withAction = parseEntry(
    "[Desktop Entry]\nType=Application\nName=A\nExec=a\n[Desktop Action new]\nExec=a --new\n",
    "a.desktop",
    "/a",
  );
  assert.equal(withAction?.exec, "a");
});

Deno.test("splitExec() follows the spec's quoting", () => {
  assert.deepEqual(splitExec('a "b c" d\\e ""'), ["a", "b c", "d\\e", ""]);
  assert.deepEqual(splitExec('sh -c "echo \\"hi\\""'), ["sh", "-c", 'echo "hi"']);
});

Deno.test("commandOf() expands field codes and refuses arguments an entry cannot take", () => {
  assert.deepEqual(commandOf(entry("mousepad %U"), ["/tmp/a", "/tmp/b"]), [
    "mousepad",
    "/tmp/a",
    "/tmp/b",
  ]);
  assert.deepEqual(commandOf(entry("mousepad %U"), []), ["mousepad"]);
  assert.deepEqual(commandOf(entry("app --name %c %i %%x %f"), ["f"]), [
    "app",
    "--name",
    "Text Editor",
    "%x",
    "f",
  ]);
  assert.throws(() => commandOf(entry("xcalc"), ["f"]), /takes no files/);
  assert.throws(() => commandOf(entry("gimp %f"), ["a", "b"]), /takes one/);
});

Deno.test("listEntries() reads the folders in order; the first of an id wins", async () => {
  const a = await Deno.makeTempDir();
  const b = await Deno.makeTempDir();
  try {
    const file = (name: string, exec: string, extra = "") =>
      `[Desktop Entry]\nType=Application\nName=${name}\nExec=${exec}\n${extra}`;
    await Deno.mkdir(`${a}/vendor`);
    await Deno.writeTextFile(`${a}/one.desktop`, file("One", "one"));
    await Deno.writeTextFile(`${a}/vendor/two.desktop`, file("Two", "two %f"));
    await Deno.writeTextFile(`${a}/gone.desktop`, file("Gone", "gone", "Hidden=true"));
    await Deno.writeTextFile(`${b}/one.desktop`, file("Other one", "other"));
    await Deno.writeTextFile(`${b}/gone.desktop`, file("Gone here", "gone"));
    await Deno.writeTextFile(`${b}/notes.txt`, "not an entry");
    const list = await listEntries([a, b, `${a}/missing`]);
    assert.deepEqual(list.map((e) => [e.id, e.name]), [["one.desktop", "One"], [
      "vendor-two.desktop",
      "Two",
    ]]);
  } finally {
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test("entryDirs() and entryId() follow the XDG base directories", () => {
  const env = (vars: Record<string, string>) => (k: string) => vars[k];
  assert.deepEqual(entryDirs(env({ HOME: "/h" })), [
    "/h/.local/share/applications",
    "/usr/local/share/applications",
    "/usr/share/applications",
  ]);
  assert.deepEqual(entryDirs(env({ XDG_DATA_HOME: "/d/", XDG_DATA_DIRS: "/s" })), [
    "/d/applications",
    "/s/applications",
  ]);
  assert.equal(entryId("org.gnome.Calculator"), "org.gnome.Calculator.desktop");
  assert.equal(entryId("xcalc.desktop"), "xcalc.desktop");
});
