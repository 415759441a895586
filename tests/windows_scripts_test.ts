/**
 * The Windows guest scripts (issue 9) cannot run here: Debian has no PowerShell package
 * (`apt-cache policy powershell` finds none) and PowerShell cannot be downloaded. They are
 * checked for syntax with a real PowerShell grammar instead: tree-sitter-powershell's
 * WebAssembly parser under web-tree-sitter (both from npm). Any ERROR or MISSING node
 * fails, and so does a PowerShell 7-only pipeline chain (`&&`, `||`), because guests run
 * Windows PowerShell 5.1. What the scripts do on Windows is not tested here.
 */
import assert from "node:assert/strict";
import { Language, type Node, Parser } from "web-tree-sitter";
import "tree-sitter-powershell/package.json" with { type: "json" };

const DIR = new URL("../install/windows/", import.meta.url).pathname;
const SCRIPTS = [...Deno.readDirSync(DIR)].map((e) => e.name).filter((n) => n.endsWith(".ps1"))
  .sort();

let parser: Parser | undefined;
async function powershell(): Promise<Parser> {
  if (parser) return parser;
  // The grammar's .wasm sits beside its package.json (imported above so it is fetched).
  const pkg = import.meta.resolve("tree-sitter-powershell/package.json");
  await Parser.init();
  const language = await Language.load(
    await Deno.readFile(new URL("./tree-sitter-powershell.wasm", pkg)),
  );
  parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** Syntax problems in `source`, as "line:column what". */
async function problems(source: string): Promise<string[]> {
  const tree = (await powershell()).parse(source);
  assert.ok(tree, "the parser gave no tree");
  const out: string[] = [];
  const walk = (n: Node) => {
    const at = `${n.startPosition.row + 1}:${n.startPosition.column + 1}`;
    if (n.isError) out.push(`${at} cannot parse ${JSON.stringify(n.text.slice(0, 40))}`);
    else if (n.isMissing) out.push(`${at} missing ${n.type}`);
    else if (n.type === "pipeline_chain_tail") out.push(`${at} && or || needs PowerShell 7`);
    for (const c of n.children) if (c) walk(c);
  };
  walk(tree.rootNode);
  return out;
}

Deno.test("the Windows scripts are all there", () => {
  assert.deepEqual(SCRIPTS, [
    "endpoint-env.ps1",
    "register-logon-task.ps1",
    "validate-windows-image.ps1",
  ]);
});

for (const script of SCRIPTS) {
  Deno.test(`${script} parses as Windows PowerShell 5.1`, async () => {
    assert.deepEqual(await problems(await Deno.readTextFile(DIR + script)), []);
  });
}

Deno.test("the PowerShell check finds broken syntax and PowerShell 7-only operators", async () => {
  const source = await Deno.readTextFile(DIR + "validate-windows-image.ps1");
  const broken = [
    source.replace("if (-not $task) { Fail", "if (-not $task) Fail"),
    source.replace("$client.Close()", "$client.Close())"),
    source.replace("'hello'", "'hello"),
    source.replace("$ErrorActionPreference = 'Stop'", 'if [ -z "$x" ]; then exit 1; fi'),
    source.replace("$ErrorActionPreference = 'Stop'", "Get-Item a && Get-Item b"),
  ];
  for (const b of broken) {
    assert.notEqual(b, source);
    assert.ok((await problems(b)).length > 0, b.slice(0, 80));
  }
});
