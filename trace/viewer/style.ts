/**
 * The viewer's stylesheet: plain CSS, inlined into the page (no fonts or files fetched).
 *
 * @module
 */

/** CSS of the viewer page. */
export const VIEWER_STYLE = `
:root { color-scheme: light; --line: #d0d4da; --muted: #5b6470; --err: #c62828; --sel: #e3edfb; }
* { box-sizing: border-box; }
body { margin: 0; font: 13px/1.4 system-ui, sans-serif; color: #1d232b; display: grid;
  grid-template-columns: 300px 1fr; grid-template-rows: auto 1fr; height: 100vh; }
header { grid-column: 1 / 3; padding: 6px 12px; border-bottom: 1px solid var(--line);
  display: flex; gap: 16px; align-items: baseline; background: #f6f7f9; }
header h1 { font-size: 15px; margin: 0; }
header .warn { color: var(--err); }
#summary { display: flex; gap: 14px; color: var(--muted); flex-wrap: wrap; }
#timeline { margin: 0; padding: 0; list-style: none; overflow: auto; border-right: 1px solid var(--line); }
.step { display: grid; grid-template-columns: 42px 1fr 64px; grid-template-rows: auto 4px;
  padding: 4px 8px; border-bottom: 1px solid #eef0f3; cursor: pointer; gap: 0 6px; }
.step:hover { background: #f3f6fa; }
.step.sel { background: var(--sel); outline: 1px solid #8fb3e8; }
.step .seq { color: var(--muted); }
.step .ms { text-align: right; color: var(--muted); font-variant-numeric: tabular-nums; }
.step .track { grid-column: 1 / 4; background: #eef0f3; height: 4px; }
.step .bar { display: block; height: 4px; background: #5a8dd6; }
.step.err { color: var(--err); }
.step.err .bar { background: var(--err); }
.step .cam { color: #2e7d32; font-size: 11px; margin-left: 4px; }
#detail { overflow: auto; padding: 10px 16px 40px; }
#detail h2 { margin: 0 0 4px; font-size: 17px; }
.meta { color: var(--muted); margin-bottom: 8px; }
.error { border: 1px solid var(--err); color: var(--err); background: #fdecea; padding: 6px 8px;
  border-radius: 4px; margin: 6px 0; }
.note { color: #8a5a00; }
.shots { display: flex; gap: 12px; flex-wrap: wrap; }
.shot { margin: 0; }
.shot figcaption { font-weight: 600; margin-bottom: 2px; }
.frame { position: relative; display: inline-block; border: 1px solid var(--line); line-height: 0; }
.frame img { max-width: min(560px, 42vw); height: auto; display: block; }
.steps .frame img { max-width: min(280px, 30vw); }
.steps .shot { margin: 4px 0 10px; }
.target { position: absolute; border: 2px solid #e53935; background: rgba(229, 57, 53, 0.12);
  pointer-events: none; }
h3 { font-size: 14px; margin: 14px 0 4px; }
.diff ul, .steps ul { margin: 0; padding-left: 18px; font-family: ui-monospace, monospace; }
.added { color: #2e7d32; } .changed { color: #9a6700; } .removed { color: var(--err); }
pre { background: #f6f7f9; border: 1px solid #e4e7eb; padding: 6px 8px; overflow: auto;
  max-height: 320px; margin: 0; font-size: 12px; }
details summary { cursor: pointer; margin: 10px 0 4px; font-weight: 600; }
.tree input { width: 320px; margin-bottom: 6px; padding: 3px 6px; }
.tree ul { list-style: none; margin: 0; padding-left: 14px; font-family: ui-monospace, monospace; font-size: 12px; }
.tree > ul { padding-left: 0; max-height: 420px; overflow: auto; border: 1px solid #e4e7eb; }
.tree .id { color: var(--muted); margin-left: 6px; }
.tree .hit > .node { background: #ffe0b2; }
.tree .match > .node { background: #fff59d; }
kbd { border: 1px solid var(--line); border-radius: 3px; padding: 0 4px; background: #fff; }
`;
