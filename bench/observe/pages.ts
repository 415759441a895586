/**
 * The observe bench's pages, written into a scratch folder and served on loopback. Each
 * page keeps the text it shows (what the bench counts words of) beside its HTML, and
 * reports what a job did to it to the server (`/event?…`), so the bench judges a job by
 * the page's own report, never by either side's answer.
 *
 * @module
 */
import { serveDir } from "../web/server.ts";

/** One page of the bench. */
export interface Page {
  /** Short name, used in figure rows. */
  name: string;
  /** File under the served folder. */
  file: string;
  /** Its title (the browser window's title). */
  title: string;
  /**
   * A name or text in the page's first screen, late in it: once the driver's Chromium
   * shows it on the bus, the first screen's tree is complete.
   */
  last: string;
  /** The words the page shows with nothing expanded, from the text written into it. */
  text: string;
}

/** What the page scripts report: the side (`?side=`) and what happened. */
export interface PageEvent {
  side: string;
  [key: string]: string;
}

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll(
    '"',
    "&quot;",
  );

/** Every page reports to the server through this. */
const REPORT = `<script>
function report(fields) {
  const side = new URLSearchParams(location.search).get("side") || "";
  fetch("/event?" + new URLSearchParams({ side, ...fields }));
}
</script>`;

const STYLE = `<style>
body { font: 15px/1.4 sans-serif; margin: 16px; }
table { border-collapse: collapse; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: left; }
[role=tab][aria-selected=true] { font-weight: bold; }
</style>`;

function doc(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${
    esc(title)
  }</title>${STYLE}${REPORT}</head>
<body>
${body}
</body>
</html>
`;
}

const pad3 = (n: number) => String(n).padStart(3, "0");

/** (1) A login form. */
function login(): { html: string; text: string[] } {
  const text = [
    "Sign in to Fleet Console",
    "Use your company account. Ask the help desk if you forgot your password.",
    "Username",
    "Password",
    "Remember me on this computer",
    "Sign in",
    "Forgot your password?",
    "Create an account",
  ];
  const html = doc(
    "Fleet Console sign in",
    `<h1>${text[0]}</h1>
<p>${text[1]}</p>
<form id="login">
  <p><label for="user">${text[2]}</label><br><input id="user" name="user" autocomplete="off"></p>
  <p><label for="pass">${text[3]}</label><br><input id="pass" name="pass" type="password"></p>
  <p><label><input id="remember" type="checkbox"> ${text[4]}</label></p>
  <p><button type="submit">${text[5]}</button></p>
</form>
<p><a href="#forgot">${text[6]}</a> · <a href="#signup">${text[7]}</a></p>
<p id="status" role="status"></p>
<script>
document.getElementById("login").addEventListener("submit", (e) => {
  e.preventDefault();
  const user = document.getElementById("user").value;
  const pass = document.getElementById("pass").value;
  document.getElementById("status").textContent = "Signed in as " + user;
  report({ job: "login", user, pass });
});
</script>`,
  );
  return { html, text };
}

const SERVICES = ["api", "web", "queue", "cache", "mail", "auth", "search", "billing"];
const STATES = ["running", "stopped", "degraded"];

/** (2) A 60-row table of services, a Restart button per row. */
function table(): { html: string; text: string[] } {
  const text = ["Services", "Service", "Host", "Status", "Action"];
  const rows: string[] = [];
  for (let i = 1; i <= 60; i++) {
    const cells = [
      `${SERVICES[i % SERVICES.length]}-${pad3(i)}`,
      `node${(i * 7) % 23}.example.net`,
      STATES[i % 3]!,
    ];
    text.push(...cells, `Restart ${pad3(i)}`);
    rows.push(
      `<tr><td>${cells[0]}</td><td>${cells[1]}</td><td id="s${i}">${
        cells[2]
      }</td><td><button onclick="restart(${i})">Restart ${pad3(i)}</button></td></tr>`,
    );
  }
  const html = doc(
    "Services table",
    `<h1>Services</h1>
<table>
<thead><tr><th>Service</th><th>Host</th><th>Status</th><th>Action</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>
<script>
function restart(i) {
  document.getElementById("s" + i).textContent = "restarting";
  report({ job: "row", row: String(i) });
}
</script>`,
  );
  return { html, text };
}

/** (3) Tabs, an accordion, a select and checkboxes. */
function widgets(): { html: string; text: string[] } {
  const tabs = [
    ["Overview", "The overview panel lists the fleet at a glance: twelve hosts, two alerts."],
    ["Billing", "The billing panel says invoices go out monthly to accounts payable."],
    ["Settings", "The settings panel keeps retention at thirty days and backups nightly."],
  ] as const;
  const sections = [
    ["Shipping", "Orders ship within two working days from the nearest warehouse."],
    ["Returns", "Returns are accepted for thirty days with the original receipt."],
    ["Warranty", "Every device carries a two year warranty against defects."],
  ] as const;
  const text = [
    "Account settings",
    ...tabs.map((t) => t[0]),
    tabs[0][1],
    "Questions",
    ...sections.map((s) => s[0]),
    "Region",
    "Europe",
    "Notifications",
    "Email alerts",
    "Text messages",
    "Weekly digest",
    "Save",
  ];
  const html = doc(
    "Account settings",
    `<h1>Account settings</h1>
<div role="tablist" aria-label="Sections">
${
      tabs.map((t, i) =>
        `<button role="tab" id="tab${i}" aria-controls="panel${i}" aria-selected="${
          i === 0
        }" onclick="pick(${i})">${t[0]}</button>`
      ).join("\n")
    }
</div>
${
      tabs.map((t, i) =>
        `<div role="tabpanel" id="panel${i}" aria-labelledby="tab${i}"${
          i === 0 ? "" : " hidden"
        }><p>${t[1]}</p></div>`
      ).join("\n")
    }
<h2>Questions</h2>
${
      sections.map((s, i) =>
        `<h3><button aria-expanded="false" aria-controls="acc${i}" onclick="toggle(this, ${i})">${
          s[0]
        }</button></h3>
<div id="acc${i}" hidden><p>${s[1]}</p></div>`
      ).join("\n")
    }
<p><label for="region">Region</label>
<select id="region"><option>Europe</option><option>Asia</option><option>Americas</option></select></p>
<fieldset><legend>Notifications</legend>
<label><input type="checkbox" checked> Email alerts</label><br>
<label><input type="checkbox"> Text messages</label><br>
<label><input type="checkbox"> Weekly digest</label>
</fieldset>
<p><button>Save</button></p>
<script>
function pick(i) {
  for (let j = 0; j < 3; j++) {
    document.getElementById("tab" + j).setAttribute("aria-selected", String(i === j));
    document.getElementById("panel" + j).hidden = i !== j;
  }
  report({ job: "tab", tab: String(i) });
}
function toggle(button, i) {
  const open = button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", String(open));
  document.getElementById("acc" + i).hidden = !open;
}
</script>`,
  );
  return { html, text };
}

/** The words of the article, made up and varied so every screen reads differently. */
const TOPICS = [
  "harbour",
  "lighthouse",
  "ferry",
  "market",
  "orchard",
  "bakery",
  "library",
  "railway",
  "bridge",
  "garden",
  "workshop",
  "observatory",
];

/** (4) A long article: several screens of text. */
function article(): { html: string; text: string[] } {
  const text = ["A walk through the old town"];
  const parts: string[] = [`<h1>${text[0]}</h1>`];
  for (let s = 0; s < 12; s++) {
    const topic = TOPICS[s]!;
    const heading = `Chapter ${s + 1}: the ${topic}`;
    text.push(heading);
    parts.push(`<h2>${heading}</h2>`);
    for (let p = 0; p < 2; p++) {
      const para = [
        `The ${topic} stands where the river bends, and paragraph ${p + 1} of chapter ${
          s + 1
        } describes it.`,
        `Visitors arrive early in the morning, when the light is soft and the streets are quiet.`,
        `Local guides tell how the ${topic} was rebuilt after the great flood of ${
          1850 + s * 7 + p
        }.`,
        `Its keepers still record the weather each day in a ledger bound in green leather.`,
        `From the top you can count ${12 + s + p} rooftops, ${
          3 + p
        } chimneys and one crooked tower.`,
      ].join(" ");
      text.push(para);
      parts.push(`<p>${para}</p>`);
    }
  }
  text.push("Back to top");
  parts.push(`<p><a href="#top">Back to top</a></p>`);
  return { html: doc("A walk through the old town", parts.join("\n")), text };
}

/** (5) A data grid of 500 rows. */
function grid(): { html: string; text: string[] } {
  const text = ["Inventory", "Item", "Name", "Quantity", "Price"];
  const rows: string[] = [];
  for (let i = 1; i <= 500; i++) {
    const cells = [
      `SKU-${String(i).padStart(4, "0")}`,
      `${TOPICS[i % TOPICS.length]} part ${i}`,
      String((i * 37) % 101),
      `${((i * 13) % 997) / 10 + 1} EUR`,
    ];
    text.push(...cells);
    rows.push(
      `<tr role="row">${cells.map((c) => `<td role="gridcell">${c}</td>`).join("")}</tr>`,
    );
  }
  const html = doc(
    "Inventory grid",
    `<h1>Inventory</h1>
<table role="grid" aria-label="Inventory">
<thead><tr role="row"><th role="columnheader">Item</th><th role="columnheader">Name</th><th role="columnheader">Quantity</th><th role="columnheader">Price</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>`,
  );
  return { html, text };
}

/** The MiniWoB++ task the bench reads. */
export const MINIWOB_TASK = "click-button";

/**
 * The MiniWoB++ task's page, changed only so that both browsers show the same episode:
 * Math.random seeded, the episode started on load (no START cover) and never timed out.
 */
async function miniwob(miniwobDir: string): Promise<string> {
  const html = await Deno.readTextFile(`${miniwobDir}/miniwob/${MINIWOB_TASK}.html`);
  return html.replace(
    '<script src="../core/core.js"></script>',
    `<script src="../core/core.js"></script>
<script>Math.seedrandom("observe-bench"); core.EPISODE_MAX_TIME = 3600000;
window.addEventListener("load", () => setTimeout(() => core.startEpisodeReal(), 0));</script>`,
  );
}

/**
 * Writes the pages into `dir` (MiniWoB's `core` and `common` folders linked beside them)
 * and answers them in the bench's order.
 */
export async function writePages(dir: string, miniwobDir: string): Promise<Page[]> {
  const made = [
    {
      name: "login form",
      file: "login.html",
      title: "Fleet Console sign in",
      last: "Create an account",
      ...login(),
    },
    {
      name: "60-row table",
      file: "table.html",
      title: "Services table",
      last: "Restart 010",
      ...table(),
    },
    {
      name: "tabs+accordion+select",
      file: "widgets.html",
      title: "Account settings",
      last: "Email alerts",
      ...widgets(),
    },
    {
      name: "long article",
      file: "article.html",
      title: "A walk through the old town",
      last: "Chapter 1: the harbour",
      ...article(),
    },
    {
      name: "500-row grid",
      file: "grid.html",
      title: "Inventory grid",
      last: "SKU-0010",
      ...grid(),
    },
  ];
  const pages: Page[] = [];
  for (const m of made) {
    await Deno.writeTextFile(`${dir}/${m.file}`, m.html);
    pages.push({
      name: m.name,
      file: m.file,
      title: m.title,
      last: m.last,
      text: m.text.join("\n"),
    });
  }
  await Deno.mkdir(`${dir}/miniwob`, { recursive: true });
  for (const sub of ["core", "common"]) {
    await Deno.symlink(`${miniwobDir}/${sub}`, `${dir}/${sub}`).catch(() => {});
  }
  await Deno.writeTextFile(`${dir}/miniwob/${MINIWOB_TASK}.html`, await miniwob(miniwobDir));
  // Its text is made on load: the bench takes it from the page's layout (see the bench).
  pages.push({
    name: `MiniWoB ${MINIWOB_TASK}`,
    file: `miniwob/${MINIWOB_TASK}.html`,
    title: "Click Button Task",
    last: "",
    text: "",
  });
  return pages;
}

/**
 * A static server of `root` on 127.0.0.1 that also records the pages' `/event?…` reports.
 */
export function servePages(root: string): {
  base: string;
  events: PageEvent[];
  close(): Promise<void>;
} {
  const events: PageEvent[] = [];
  const server = serveDir(root, (url) => {
    if (url.pathname !== "/event") return undefined;
    events.push(Object.fromEntries(url.searchParams) as PageEvent);
    return new Response("ok");
  });
  return { ...server, events };
}
