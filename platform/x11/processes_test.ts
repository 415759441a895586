import assert from "node:assert/strict";
import { matchCommand, processName, processNameOf, sameHost, splitArgs } from "./processes.ts";

Deno.test("splitArgs() reads a NUL-separated list, with or without its last NUL", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assert.deepEqual(splitArgs(bytes("xcalc\0-geometry\0+0+0\0")), ["xcalc", "-geometry", "+0+0"]);
  assert.deepEqual(splitArgs(bytes("wish\0app.tcl")), ["wish", "app.tcl"]);
  assert.deepEqual(splitArgs(bytes("")), []);
});

Deno.test("processNameOf() is comm, completed from argv[0] when the kernel cut it", () => {
  assert.equal(processNameOf("xcalc\n", ["xcalc"]), "xcalc");
  assert.equal(
    processNameOf("gnome-calculato\n", ["gnome-calculator"]),
    "gnome-calculator",
  );
  // A cut name whose argv[0] says something else (an interpreter) stays as the kernel has it.
  assert.equal(processNameOf("a-very-long-scr\n", ["/usr/bin/python3", "x"]), "a-very-long-scr");
  assert.equal(processNameOf("idle\n", ["python3", "idle"]), "idle");
});

Deno.test("processName() names this process, and nothing for a pid that is not there", () => {
  const comm = Deno.readTextFileSync(`/proc/${Deno.pid}/comm`).trim();
  assert.ok(processName(Deno.pid)!.startsWith(comm));
  assert.equal(processName(0), undefined);
  assert.equal(processName(2 ** 30), undefined);
});

Deno.test("matchCommand() takes the one process with exactly that command line", () => {
  const procs = [
    { pid: 10, argv: ["xcalc"] },
    { pid: 11, argv: ["xcalc", "-rpn"] },
    { pid: 12, argv: ["xterm"] },
    { pid: 13, argv: ["xterm"] },
  ];
  assert.equal(matchCommand(["xcalc"], procs), 10);
  assert.equal(matchCommand(["xcalc", "-rpn"], procs), 11);
  assert.equal(matchCommand(["xterm"], procs), undefined, "two alike: no guess");
  assert.equal(matchCommand(["xclock"], procs), undefined);
  assert.equal(matchCommand([], procs), undefined);
});

Deno.test("sameHost() takes the short and the qualified name alike, case aside", () => {
  assert.ok(sameHost("box", "box"));
  assert.ok(sameHost("Box.example.org", "box"));
  assert.ok(sameHost("box", "box.example.org"));
  assert.ok(!sameHost("other", "box"));
});
