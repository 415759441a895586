/**
 * Documents the toolkit matrix opens: a web form page, a spreadsheet and a text document,
 * written as temporary files (flat ODF: LibreOffice opens it without a conversion step).
 *
 * @module
 */

/** The form page's title. */
export const FORM_TITLE = "Form page";

/**
 * A sign-in form: a "User name" input, a "Code" input that holds at most three
 * characters (a click on it writes "Code field clicked" into the paragraph that first
 * says "No click yet"), a number field "Count" holding 4, a "Sign in" button whose click writes "Signed in as <name>" into
 * the paragraph that first says "Not signed in", a list and a table.
 */
export const FORM_PAGE = `<!doctype html><html><head><title>${FORM_TITLE}</title></head><body>
<h1>Sign in</h1>
<p id="msg">Not signed in</p>
<label>User name <input id="user" value="alice"></label>
<label>Code <input id="code" maxlength="3" value=""
  onclick="document.getElementById('clicks').textContent = 'Code field clicked'"></label>
<p id="clicks">No click yet</p>
<label>Count <input id="count" type="number" value="4"></label>
<button onclick="document.getElementById('msg').textContent =
  'Signed in as ' + document.getElementById('user').value">Sign in</button>
<ul><li>First item</li><li>Second item</li></ul>
<table border="1"><tr><th>Column A</th><th>Column B</th></tr>
<tr><td>cell a1</td><td>cell b1</td></tr></table>
<p>Last paragraph</p>
</body></html>`;

/** The widget page's title. */
export const WIDGETS_TITLE = "Widget page";

/**
 * One widget of each action family: a check box, radio buttons, a list box, a drop-down,
 * a disclosure, ARIA tabs, a toggle button, a button that reports its context menu, and a button far
 * below the fold. Each widget's state is the browser's own (or ARIA kept by the page).
 */
export const WIDGETS_PAGE = `<!doctype html><html><head><title>${WIDGETS_TITLE}</title>
<script>
function pick(tab) {
  for (const t of document.querySelectorAll("[role=tab]")) {
    t.setAttribute("aria-selected", String(t === tab));
  }
}
function flip(b) {
  b.setAttribute("aria-pressed", String(b.getAttribute("aria-pressed") !== "true"));
}
</script></head><body>
<h1>Widgets</h1>
<p id="said">Nothing yet</p>
<label><input type="checkbox"> Agree</label>
<label><input type="radio" name="size"> Small</label>
<label><input type="radio" name="size" checked> Large</label>
<select size="3" aria-label="Fruit"><option>Apple</option><option>Banana</option>
<option>Cherry</option></select>
<select aria-label="Color"><option>Red</option><option>Blue</option></select>
<details><summary>More options</summary><p>Hidden details</p></details>
<div role="tablist" aria-label="Pages">
<button role="tab" aria-selected="true" onclick="pick(this)">First tab</button>
<button role="tab" aria-selected="false" onclick="pick(this)">Second tab</button>
</div>
<button aria-pressed="false" onclick="flip(this)">Bold</button>
<button aria-haspopup="menu" oncontextmenu="document.getElementById('said').textContent = 'Menu asked';
  return false">Menu here</button>
<input aria-label="Notes">
<p onclick="document.getElementById('said').textContent = 'Picked ' + event.target.textContent">Pick
a stone: <span>Opal</span> or <span>Jade</span> today.</p>
<div style="height: 3000px"></div>
<button>Far button</button>
</body></html>`;

/** The sliding panel page's title. */
export const SLIDING_TITLE = "Sliding page";

/** How long the sliding page's panel takes to open (ms). */
export const SLIDE_MS = 1_000;

/**
 * A button that slides a panel open over a second, the way jQuery UI's accordion
 * does: shown at 1 px, then grown by a CSS transition no browser announces. Words below
 * the panel, pushed down as it grows, take a click (a MiniWoB link) that writes "Tapped".
 */
export const SLIDING_PAGE = `<!doctype html><html><head><title>${SLIDING_TITLE}</title>
<style>#panel { display: none; overflow: hidden; height: 1px; transition: height ${SLIDE_MS}ms linear; }
</style><script>
function slide() {
  const p = document.getElementById("panel");
  p.style.display = "block";
  p.getBoundingClientRect(); // lay out the 1 px frame, so the height transitions from it
  p.style.height = "160px";
}
</script></head><body>
<h1>Sliding</h1>
<p id="said">Not tapped</p>
<button onclick="slide()">Show more</button>
<div id="panel"><p>Revealed text</p><button>Inner button</button></div>
<p>Then <span onclick="document.getElementById('said').textContent = 'Tapped'">tap here</span>
to finish.</p>
<p><input aria-label="Note"></p>
<p>Last paragraph</p>
</body></html>`;

export const REPLACING_TITLE = "Replacing page";

/**
 * A "Note" field the page replaces with a new one the first time it takes the focus (or
 * "Replace" is pressed), as frameworks re-render a field: the object an agent's map names
 * dies under the action.
 */
export const REPLACING_PAGE = `<!doctype html><html><head><title>${REPLACING_TITLE}</title>
<script>
let swapped = false;
function swap() {
  if (swapped) return;
  swapped = true;
  document.getElementById("box").innerHTML = '<label>Note <input id="note"></label>';
  document.getElementById("note").focus();
}
</script></head><body>
<p id="box"><label>Note <input id="note" onfocus="swap()"></label></p>
<button onclick="swap()">Replace</button>
<p>Last paragraph</p>
</body></html>`;

/** Starts `open` on a new copy of the replacing page; its file is added to `files`. */
export const onReplacingPage = <T>(
  files: string[],
  open: (page: string) => Promise<T>,
): Promise<T> => onDocument(files, REPLACING_PAGE, ".html", open);

export const LONG_TABLE_TITLE = "Long table";

/** Rows of {@link LONG_TABLE_PAGE}. */
export const LONG_TABLE_ROWS = 2_000;

/**
 * A table of {@link LONG_TABLE_ROWS} rows ("Item 1" … with its number times 7), mostly below
 * the fold. It takes its title only once loaded: a browser's window is waited for by its
 * title, and the head's title showed while the rows were still being parsed (a first read
 * then met a page still growing).
 */
export const LONG_TABLE_PAGE = `<!doctype html><html><head><title>Loading</title>
</head><body onload="document.title = '${LONG_TABLE_TITLE}'"><h1>Stock</h1><table><tbody>
${
  Array.from({ length: LONG_TABLE_ROWS }, (_, i) =>
    `<tr><td>Item ${i + 1}</td><td>${(i + 1) * 7}</td></tr>`)
    .join("\n")
}
</tbody></table></body></html>`;

/** Writes `text` to a new temporary file ending in `suffix`; returns its path. */
export async function tempFile(text: string, suffix: string): Promise<string> {
  const path = await Deno.makeTempFile({ prefix: "allternit-doc-", suffix });
  await Deno.writeTextFile(path, text);
  return path;
}

/**
 * Starts `open` on a new SQLite database that `sql` builds (Python's own sqlite3 writes
 * it, so no SQLite shell is needed); the file is added to `files`.
 */
export async function onDatabase<T>(
  files: string[],
  sql: string,
  open: (path: string) => Promise<T>,
): Promise<T> {
  const path = await tempFile("", ".db");
  files.push(path);
  const build =
    "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1])\nc.executescript(sys.argv[2])\nc.close()";
  const out = await new Deno.Command("/usr/bin/python3", { args: ["-c", build, path, sql] })
    .output();
  if (!out.success) throw new Error(`building ${path}: ${new TextDecoder().decode(out.stderr)}`);
  return await open(path);
}

/** Starts `open` on a new file of `text` ending in `suffix`; the file is added to `files`. */
export async function onDocument<T>(
  files: string[],
  text: string,
  suffix: string,
  open: (path: string) => Promise<T>,
): Promise<T> {
  const path = await tempFile(text, suffix);
  files.push(path);
  return await open(path);
}

/** Starts `open` on a new copy of the form page; its file is added to `files`. */
export const onFormPage = <T>(files: string[], open: (page: string) => Promise<T>): Promise<T> =>
  onDocument(files, FORM_PAGE, ".html", open);

/** Starts `open` on a new copy of the widget page; its file is added to `files`. */
export const onWidgetPage = <T>(files: string[], open: (page: string) => Promise<T>): Promise<T> =>
  onDocument(files, WIDGETS_PAGE, ".html", open);

/** Starts `open` on a new copy of the sliding panel page; its file is added to `files`. */
export const onSlidingPage = <T>(files: string[], open: (page: string) => Promise<T>): Promise<T> =>
  onDocument(files, SLIDING_PAGE, ".html", open);

/** Starts `open` on a new copy of the long table page; its file is added to `files`. */
export const onLongTable = <T>(files: string[], open: (page: string) => Promise<T>): Promise<T> =>
  onDocument(files, LONG_TABLE_PAGE, ".html", open);

/** The value of cell (row, column) of {@link sheet}, 0-based; row 0 is the header. */
export function sheetValue(row: number, column: number): string {
  if (row === 0) return ["Item", "Qty", "Price"][column]!;
  return [`Row ${row}`, String(row), String(row * 1.5)][column]!;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** A flat ODF spreadsheet of a header and `rows` rows in three columns. */
export function sheet(rows: number): string {
  const cell = (r: number, c: number) => {
    const v = sheetValue(r, c);
    return r > 0 && c > 0
      ? `<table:table-cell office:value-type="float" office:value="${v}"><text:p>${v}</text:p></table:table-cell>`
      : `<table:table-cell office:value-type="string"><text:p>${
        esc(v)
      }</text:p></table:table-cell>`;
  };
  const body = Array.from(
    { length: rows + 1 },
    (_, r) => `<table:table-row>${[0, 1, 2].map((c) => cell(r, c)).join("")}</table:table-row>`,
  ).join("\n");
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:body><office:spreadsheet><table:table table:name="Items">
<table:table-column table:number-columns-repeated="3"/>
${body}
</table:table></office:spreadsheet></office:body></office:document>`;
}

/**
 * A flat ODF text document of `paragraphs`, then top-level `headings` (none by default):
 * the cursor starts in the first paragraph.
 */
export function textDocument(
  paragraphs: readonly string[],
  headings: readonly string[] = [],
): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.text">
<office:body><office:text>
${paragraphs.map((p) => `<text:p>${esc(p)}</text:p>`).join("\n")}
${headings.map((h) => `<text:h text:outline-level="1">${esc(h)}</text:h>`).join("\n")}
</office:text></office:body></office:document>`;
}

/** A flat ODF presentation: one slide per entry, each a text box of its lines. */
export function presentation(slides: readonly (readonly string[])[]): string {
  const page = (lines: readonly string[], i: number) =>
    `<draw:page draw:name="Slide ${i + 1}"><draw:frame svg:x="2cm" svg:y="2cm" ` +
    `svg:width="20cm" svg:height="8cm"><draw:text-box>${
      lines.map((l) => `<text:p>${esc(l)}</text:p>`).join("")
    }</draw:text-box></draw:frame></draw:page>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"
 xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"
 xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0"
 office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:body><office:presentation>
${slides.map(page).join("\n")}
</office:presentation></office:body></office:document>`;
}
