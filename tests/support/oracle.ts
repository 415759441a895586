/**
 * An independent reading of an app: pyatspi (python3-pyatspi, the screen readers' own
 * library) walks the app's windows in a separate process, so a test checks an effect by
 * what the app itself publishes, never by the driver's answer.
 *
 * @module
 */

/** One node as pyatspi reads it. */
export interface OracleNode {
  /** pyatspi's role name (`push button`, `text`, ...). */
  role: string;
  /** Accessible name. */
  name: string;
  /** Text contents (Text interface), when the node has them. */
  text?: string;
  /** Current value (Value interface), when the node has one. */
  value?: number;
  /** The first selected range of its text, when some is selected. */
  selected?: string;
}

const SCRIPT = `
import json, sys
import pyatspi
pid, limit, max_depth = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
out = []
def walk(node, depth):
    if node is None or len(out) >= limit or depth > max_depth:
        return
    entry = {"role": node.getRoleName(), "name": node.name or ""}
    try:
        t = node.queryText()
        entry["text"] = t.getText(0, min(t.characterCount, 4096))
        if t.getNSelections() > 0:
            start, end = t.getSelection(0)
            entry["selected"] = t.getText(start, end)
    except Exception:
        pass
    try:
        entry["value"] = node.queryValue().currentValue
    except Exception:
        pass
    out.append(entry)
    for i in range(min(node.childCount, 1000)):
        walk(node.getChildAtIndex(i), depth + 1)
desktop = pyatspi.Registry.getDesktop(0)
for app in desktop:
    if app is not None and app.get_process_id() == pid:
        for window in app:
            walk(window, 0)
print(json.dumps(out))
`;

/**
 * The nodes of process `pid`'s windows, depth first, at most `limit`, at most `maxDepth`
 * below each window (0: the windows alone). Throws with pyatspi's error output when the
 * walk fails.
 */
export async function oracleNodes(
  pid: number,
  limit = 5_000,
  maxDepth = 64,
): Promise<OracleNode[]> {
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", SCRIPT, String(pid), String(limit), String(maxDepth)],
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(30_000),
  }).output();
  const text = new TextDecoder();
  if (!out.success) throw new Error(`pyatspi walk failed: ${text.decode(out.stderr)}`);
  return JSON.parse(text.decode(out.stdout)) as OracleNode[];
}
