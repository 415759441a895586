/**
 * Tasks on Web pages in Firefox (Gecko) and Chromium, served by the bench's own HTTP server.
 *
 * Each task's prepare() writes its pages into the task's directory and starts a server on
 * 127.0.0.1 that appends every form posted to it to `posts.jsonl` there (its path, the
 * fields in the order the browser sent them, and who was signed in): the checker reads
 * that log, the browser's own request, never what the driver or dogtail answered.
 *
 * @module
 */
import type { Fixture, Running, Task } from "./task.ts";
import { launch } from "./launch.ts";
import { CHROMIUM_FLAGS, FIREFOX_PREFS as TEST_FIREFOX_PREFS } from "../../tests/support/apps.ts";
import type { Agent } from "./agent.ts";

/** One form post as the server received it. */
interface Post {
  /** The URL path posted to. */
  path: string;
  /** Name/value pairs in the order of the request's body. */
  fields: [string, string][];
  /** The user of the session cookie sent with it, if any. */
  user?: string;
}

/** A running task server. */
interface Site {
  url: string;
  stop(): Promise<void>;
}

/** Servers by task directory: prepare() starts one, the launched browser's stop() ends it. */
const SITES = new Map<string, Site>();

/** What a page of the site answers: its HTML, or where to go next. */
type Reply = { html: string } | { redirect: string; cookie?: string };

/**
 * A site: its fixed pages (written to the task's `site/` directory and served from there),
 * the pages made per request, and what a form posted to each path is answered.
 */
interface Pages {
  /** Fixed pages by URL path. */
  files: Record<string, string>;
  /** Paths shown only to a signed-in user; anyone else is sent to /login. */
  signedIn?: string[];
  /** Pages made from the request's query. */
  get?: Record<string, (q: URLSearchParams) => Reply>;
  /** Answers to posted forms, by path. */
  post: Record<string, (fields: [string, string][], user: string | undefined) => Reply>;
}

/** Where the fixed page of URL `path` is kept in task directory `dir`. */
const fileOf = (dir: string, path: string) => `${dir}/site${path}.html`;

/** The sign-in the login flow accepts. */
const USER = { name: "mlopez", password: "Orchard-42" };
/** The session cookie the server hands out on sign-in. */
const SESSION = "sid=7f3a9c";

/** An HTML page with `title` and `body`, styled plainly. */
const page = (title: string, body: string, script = "") =>
  `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
  body { font: 15px sans-serif; margin: 16px 24px; }
  label, legend { font-weight: bold; }
  .row { margin: 6px 0; }
  input[type=text], input[type=email], input[type=password], select, textarea { width: 260px; }
  ul.items { list-style: none; padding: 0; margin: 4px 0; }
  ul.items li { margin: 2px 0; }
</style></head>
<body>${body}${script ? `<script>${script}</script>` : ""}</body></html>
`;

/** Escapes text for HTML. */
const esc = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Starts the site's server for task directory `dir`; posts go to `dir/posts.jsonl`. */
function serve(dir: string, pages: Pages): Site {
  const log = `${dir}/posts.jsonl`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      const user = (req.headers.get("cookie") ?? "").split(/;\s*/).includes(SESSION)
        ? USER.name
        : undefined;
      let reply: Reply | undefined;
      if (req.method === "GET" && pages.files[url.pathname] !== undefined) {
        reply = pages.signedIn?.includes(url.pathname) && !user
          ? { redirect: "/login" }
          : { html: await Deno.readTextFile(fileOf(dir, url.pathname)) };
      } else if (req.method === "GET") reply = pages.get?.[url.pathname]?.(url.searchParams);
      else if (req.method === "POST" && pages.post[url.pathname]) {
        const fields = [...new URLSearchParams(await req.text())];
        const post: Post = { path: url.pathname, fields, ...(user ? { user } : {}) };
        await Deno.writeTextFile(log, JSON.stringify(post) + "\n", { append: true });
        reply = pages.post[url.pathname]!(fields, user);
      }
      if (!reply) return new Response("not found", { status: 404 });
      if ("redirect" in reply) {
        const headers: Record<string, string> = { location: reply.redirect };
        if (reply.cookie) headers["set-cookie"] = `${reply.cookie}; Path=/; HttpOnly`;
        return new Response(null, { status: 303, headers });
      }
      return new Response(reply.html, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
      });
    },
  );
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    stop: () => server.shutdown(),
  };
}

/** The posts the server logged in `dir`, waiting up to 5 s for one to `last` to arrive. */
async function posts(dir: string, last: string): Promise<Post[]> {
  const deadline = Date.now() + 5_000;
  while (true) {
    const text = await Deno.readTextFile(`${dir}/posts.jsonl`).catch(() => "");
    const all = text.split("\n").filter(Boolean).flatMap((l) => {
      try {
        return [JSON.parse(l) as Post];
      } catch {
        return []; // a line still being written
      }
    });
    if (all.some((p) => p.path === last) || Date.now() > deadline) return all;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Why `post`'s fields are not exactly `want` (every field once, no other), or undefined.
 * The order is the browser's and is not judged.
 */
function differs(post: Post | undefined, want: Record<string, string>): string | undefined {
  if (!post) return "no such post";
  const got = Object.fromEntries(post.fields);
  const names = post.fields.map(([k]) => k).sort();
  const wanted = Object.keys(want).sort();
  if (JSON.stringify(names) !== JSON.stringify(wanted)) {
    return `fields ${JSON.stringify(names)}, not ${JSON.stringify(wanted)}`;
  }
  const wrong = wanted.filter((k) => got[k] !== want[k]);
  return wrong.length === 0 ? undefined : wrong.map((k) =>
    // A password's value goes into no result: the reason lands in bench/RESULTS.md.
    k === "password"
      ? `${k} is not the one typed`
      : `${k}=${JSON.stringify(got[k])} (not ${JSON.stringify(want[k])})`
  ).join(", ");
}

/**
 * Writes the fixed pages of `pages` into `dir` and starts its server; the fixture, with
 * `values` for the policies.
 */
async function site(dir: string, pages: Pages, values: Record<string, string>): Promise<Fixture> {
  await Deno.mkdir(`${dir}/site`, { recursive: true });
  for (const [path, html] of Object.entries(pages.files)) {
    await Deno.writeTextFile(fileOf(dir, path), html);
  }
  const s = serve(dir, pages);
  SITES.set(dir, s);
  return { dir, values: { url: s.url, ...values } };
}

/**
 * Waits, through pyatspi in its own process, until the browser of `pid` shows the page
 * titled `title` down to its element named `last`, placed on screen: the window (titled by
 * the page) shows before the page's tree reaches the bus, and Gecko answers a new page's
 * first geometry questions with -1 before it has laid it out. Neither side's time counts it.
 */
async function pageShown(pid: number, title: string, last: string): Promise<void> {
  const script = `
import sys, time, pyatspi
pid, title, last = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def placed(n):
    e = n.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
    return e.width > 0 and e.height > 0 and e.x >= 0 and e.y >= 0
def find(n, pred, depth=0):
    if n is None or depth > 60:
        return None
    if pred(n):
        return n
    for i in range(n.childCount):
        hit = find(n.getChildAtIndex(i), pred, depth + 1)
        if hit is not None:
            return hit
    return None
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        for app in pyatspi.Registry.getDesktop(0):
            if app is None or app.get_process_id() != pid:
                continue
            doc = find(app, lambda n: n.getRoleName() == "document web" and n.name == title
                       and n.getState().contains(pyatspi.STATE_SHOWING))
            if doc is not None and placed(doc):
                hit = find(doc, lambda n: n.name == last)
                if hit is not None and placed(hit):
                    sys.exit(0)
    except Exception:
        pass
    time.sleep(0.1)
sys.exit(1)
`;
  const out = await new Deno.Command("/usr/bin/python3", {
    args: ["-c", script, String(pid), title, last],
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `the page "${title}" never showed "${last}": ${new TextDecoder().decode(out.stderr)}`,
    );
  }
}

/** The browsers a page is opened in. */
type Browser = "firefox" | "chromium";

/** Prefs of a scratch Firefox profile that keep its first run to the page asked for. */
const FIREFOX_PREFS: Record<string, boolean | string> = {
  ...TEST_FIREFOX_PREFS,
  // A password typed into a login form would otherwise bring up the save-password panel.
  "signon.rememberSignons": false,
  "browser.formfill.enable": false,
};

/**
 * Opens `path` of the fixture's site in `browser` (a scratch profile in the task's
 * directory), once its page titled `title` shows its element named `last`; stopping it
 * stops the server too.
 */
async function open(
  browser: Browser,
  f: Fixture,
  path: string,
  title: string,
  last: string,
): Promise<Running> {
  const url = `${f.values.url}${path}`;
  const server = SITES.get(f.dir);
  const stopServer = async () => {
    SITES.delete(f.dir);
    await server?.stop();
  };
  let app: Running;
  try {
    if (browser === "firefox") {
      const profile = `${f.dir}/firefox-profile`;
      await Deno.mkdir(profile, { recursive: true });
      await Deno.writeTextFile(
        `${profile}/user.js`,
        Object.entries(FIREFOX_PREFS)
          .map(([k, v]) => `user_pref(${JSON.stringify(k)}, ${JSON.stringify(v)});\n`)
          .join(""),
      );
      app = await launch({
        cmd: "firefox-esr",
        args: ["--no-remote", "--new-instance", "--profile", profile, url],
        // The browser's own name is in its title before the page has loaded: on a loaded
        // machine the start and the page's load each get their own deadline.
        window: "Mozilla Firefox",
        dir: f.dir,
      });
    } else {
      const profile = `${f.dir}/chromium-profile`;
      await Deno.mkdir(`${profile}/Default`, { recursive: true });
      // As Firefox's prefs above: no offer to save the password typed into the login page.
      await Deno.writeTextFile(
        `${profile}/Default/Preferences`,
        JSON.stringify({
          credentials_enable_service: false,
          profile: { password_manager_enabled: false },
        }),
      );
      app = await launch({
        cmd: "chromium",
        args: [
          ...CHROMIUM_FLAGS,
          `--user-data-dir=${profile}`,
          "--window-size=1000,900",
          url,
        ],
        window: "Chromium",
        dir: f.dir,
      });
    }
  } catch (err) {
    await stopServer();
    throw err;
  }
  try {
    await pageShown(app.pid, title, last);
  } catch (err) {
    await app.stop();
    await stopServer();
    throw err;
  }
  return {
    pid: app.pid,
    output: () => app.output(),
    async stop() {
      await app.stop();
      await stopServer();
    },
  };
}

// ---------------------------------------------------------------------------------------
// 1, 2. A registration form of every common widget.

/** What the registration form is filled with, and what the server must receive. */
const REGISTRATION = {
  name: "Ada Lovelace",
  email: "ada@example.org",
  ticket: "Workshop pass",
  track: "Research",
  // The arrival date as an en-US browser shows it, as typed into its parts (month, day,
  // year: each moves on by itself), and as the form posts it.
  arrivalTyped: "06/12/2025",
  arrivalDigits: "06122025",
  arrival: "2025-06-12",
  comments: "Arriving by the evening train; a quiet room, please.",
};

/** The registration page and its thank-you page. */
const registrationPages: Pages = {
  files: {
    "/register": page(
      "Conference registration",
      `<h1>Conference registration</h1>
<form method="post" action="/register">
  <div class="row"><label for="name">Full name</label><br>
    <input type="text" id="name" name="name" required></div>
  <div class="row"><label for="email">Email</label><br>
    <input type="email" id="email" name="email" required></div>
  <div class="row"><label for="ticket">Ticket</label><br>
    <select id="ticket" name="ticket">
      <option value="standard">Standard</option>
      <option value="student">Student</option>
      <option value="workshop">Workshop pass</option>
      <option value="speaker">Speaker</option>
    </select></div>
  <fieldset class="row"><legend>Track</legend>
    <label><input type="radio" name="track" value="design" checked> Design</label>
    <label><input type="radio" name="track" value="engineering"> Engineering</label>
    <label><input type="radio" name="track" value="research"> Research</label>
  </fieldset>
  <div class="row"><label for="arrival">Arrival date</label><br>
    <input type="date" id="arrival" name="arrival" min="2025-06-01" max="2025-06-30"
      required></div>
  <div class="row"><label for="comments">Comments</label><br>
    <textarea id="comments" name="comments" rows="3"></textarea></div>
  <div class="row"><label><input type="checkbox" name="newsletter" value="yes">
    Send me the newsletter</label></div>
  <div class="row"><label><input type="checkbox" name="conduct" value="agreed" required>
    I accept the code of conduct</label></div>
  <div class="row"><button type="submit">Register</button></div>
</form>`,
    ),
  },
  post: {
    "/register": (fields) => ({
      html: page(
        "Registration received",
        `<h1>Registration received</h1><p>Thank you, ${
          esc(Object.fromEntries(fields).name ?? "")
        }. A confirmation is on its way.</p>`,
      ),
    }),
  },
};

/** The fields the registration must post. */
const REGISTRATION_POST = {
  name: REGISTRATION.name,
  email: REGISTRATION.email,
  ticket: "workshop",
  track: "research",
  arrival: REGISTRATION.arrival,
  comments: REGISTRATION.comments,
  newsletter: "yes",
  conduct: "agreed",
};

/**
 * Sets the date field labelled `label` to `date` (mm/dd/yyyy, as it shows): as one field
 * where the map offers that (Gecko), else part by part (Chromium offers only its month,
 * day and year).
 */
async function setDate(agent: Agent, w: string, label: string, date: string): Promise<void> {
  const { el } = await agent.find(w, { role: "AXDateField", name: label });
  if (el.actions.includes("set_value")) {
    await agent.set(w, { role: "AXDateField", name: label }, date);
    return;
  }
  const [month, day, year] = date.split("/") as [string, string, string];
  for (const [part, value] of [["Month", month], ["Day", day], ["Year", year]] as const) {
    await agent.set(w, { role: "AXIncrementor", name_contains: part }, value);
  }
}

/** Our policy on the registration form: every field by its label, then Register. */
async function fillRegistration(agent: Agent, app: Running): Promise<void> {
  const w = await agent.window(app.pid, /Conference registration/);
  const r = REGISTRATION;
  await agent.set(w, { role: "AXTextField", name: "Full name" }, r.name);
  await agent.set(w, { role: "AXTextField", name: "Email" }, r.email);
  await agent.act(w, { name: r.ticket, role: "AXMenuItem" }, "select", { scope: "all" });
  await agent.act(w, { role: "AXRadioButton", name: r.track }, "check");
  await setDate(agent, w, "Arrival date", r.arrivalTyped);
  await agent.set(w, { role: "AXTextArea", name: "Comments" }, r.comments);
  await agent.act(w, { role: "AXCheckBox", name: "Send me the newsletter" }, "check");
  await agent.act(w, { role: "AXCheckBox", name: "I accept the code of conduct" }, "check");
  await agent.press(w, "Register", "AXButton");
  await agent.find(w, { text_contains: "Registration received" });
}

/** The registration task in `browser`. */
function registration(browser: Browser, id: string, label: string): Task {
  return {
    id,
    title: `${label}: fill a registration form (text, select, radio, date, textarea, ` +
      `check boxes) and submit it`,
    family: browser === "firefox" ? "Gecko" : "Chromium",
    prepare: (dir) =>
      site(dir, registrationPages, { ...REGISTRATION, title: "Conference registration" }),
    launch: (f) => open(browser, f, "/register", "Conference registration", "Register"),
    ours: (agent, app) => fillRegistration(agent, app),
    async check(f) {
      const all = await posts(f.dir, "/register");
      const regs = all.filter((p) => p.path === "/register");
      if (regs.length !== 1) return `${regs.length} posts to /register`;
      const d = differs(regs[0], REGISTRATION_POST);
      return d && `/register: ${d}`;
    },
  };
}

// ---------------------------------------------------------------------------------------
// 3, 5. Sign in, then order.

/** What is ordered once signed in. */
const ORDER = {
  product: "Stoneware mug, blue",
  quantity: "3",
  delivery: "Express (1–2 days)",
  note: "Leave at the side door",
};

/** The products of the order page, by value. */
const PRODUCTS: [string, string][] = [
  ["tea-towel", "Linen tea towel"],
  ["mug-blue", "Stoneware mug, blue"],
  ["mug-green", "Stoneware mug, green"],
  ["notebook", "Dot-grid notebook"],
];

/** The sign-in page, with `error` above the form. */
const loginPage = (error = "") =>
  page(
    "Sign in",
    `<h1>Sign in to Hillside Pottery</h1>
${error ? `<p role="alert">${esc(error)}</p>` : ""}
<form method="post" action="/login">
  <div class="row"><label for="username">Username</label><br>
    <input type="text" id="username" name="username" autocomplete="off" required></div>
  <div class="row"><label for="password">Password</label><br>
    <input type="password" id="password" name="password" autocomplete="off" required></div>
  <div class="row"><button type="submit">Sign in</button></div>
</form>`,
  );

/** The shop: sign in, order, thanks. */
const shopPages: Pages = {
  files: {
    "/login": loginPage(),
    "/order": page(
      "Place an order",
      `<h1>Place an order</h1><p>Signed in as ${USER.name}.</p>
<form method="post" action="/order">
  <div class="row"><label for="product">Product</label><br>
    <select id="product" name="product">
      ${PRODUCTS.map(([v, n]) => `<option value="${v}">${esc(n)}</option>`).join("\n      ")}
    </select></div>
  <div class="row"><label for="quantity">Quantity</label><br>
    <input type="number" id="quantity" name="quantity" min="1" max="20" value="1"></div>
  <div class="row"><label for="delivery">Delivery</label><br>
    <select id="delivery" name="delivery">
      <option value="standard">Standard (3–5 days)</option>
      <option value="express">Express (1–2 days)</option>
      <option value="pickup">Pick up in store</option>
    </select></div>
  <div class="row"><label for="note">Delivery note</label><br>
    <input type="text" id="note" name="note"></div>
  <div class="row"><button type="submit">Place order</button></div>
</form>`,
    ),
  },
  signedIn: ["/order"],
  post: {
    "/login": (fields) => {
      const f = Object.fromEntries(fields);
      return f.username === USER.name && f.password === USER.password
        ? { redirect: "/order", cookie: SESSION }
        : { html: loginPage("Wrong username or password.") };
    },
    "/order": (_fields, user) =>
      user
        ? {
          html: page(
            "Order confirmed",
            `<h1>Order confirmed</h1><p>Order number 10482. Thank you, ${esc(user)}.</p>`,
          ),
        }
        : { redirect: "/login" },
  },
};

/** Our policy on the shop: sign in, then fill the order and place it. */
async function signInAndOrder(agent: Agent, app: Running): Promise<void> {
  const w = await agent.window(app.pid, /Sign in/);
  await agent.set(w, { role: "AXTextField", name: "Username" }, USER.name);
  await agent.set(w, { role: "AXSecureTextField", name: "Password" }, USER.password);
  await agent.press(w, "Sign in", "AXButton");
  const order = await agent.window(app.pid, /Place an order/);
  await agent.act(order, { name: ORDER.product, role: "AXMenuItem" }, "select", { scope: "all" });
  await agent.set(order, { role: "AXIncrementor", name: "Quantity" }, ORDER.quantity);
  await agent.act(order, { name: ORDER.delivery, role: "AXMenuItem" }, "select", {
    scope: "all",
  });
  await agent.set(order, { role: "AXTextField", name: "Delivery note" }, ORDER.note);
  await agent.press(order, "Place order", "AXButton");
  const done = await agent.window(app.pid, /Order confirmed/);
  await agent.find(done, { text_contains: "Order number" });
}

/** The sign-in-then-order task in `browser`. */
function signInThenOrder(browser: Browser, id: string, label: string): Task {
  return {
    id,
    title: `${label}: sign in, then order (product, quantity, delivery, note) on the next page`,
    family: browser === "firefox" ? "Gecko" : "Chromium",
    prepare: (dir) =>
      site(dir, shopPages, { username: USER.name, password: USER.password, ...ORDER }),
    launch: (f) => open(browser, f, "/login", "Sign in", "Sign in"),
    ours: (agent, app) => signInAndOrder(agent, app),
    async check(f) {
      const all = await posts(f.dir, "/order");
      const logins = all.filter((p) => p.path === "/login");
      const orders = all.filter((p) => p.path === "/order");
      if (logins.length !== 1) return `${logins.length} posts to /login`;
      const l = differs(logins[0], { username: USER.name, password: USER.password });
      if (l) return `/login: ${l}`;
      if (orders.length !== 1) return `${orders.length} posts to /order`;
      if (orders[0]!.user !== USER.name) return "/order was posted without the session";
      const o = differs(orders[0], {
        product: "mug-blue",
        quantity: ORDER.quantity,
        delivery: "express",
        note: ORDER.note,
      });
      return o && `/order: ${o}`;
    },
  };
}

// ---------------------------------------------------------------------------------------
// 4. Search a catalogue, pick an item, confirm on its own page.

/** Subjects of the catalogue's filler titles (none of them an orchard). */
const SUBJECTS = [
  "Lichens",
  "Iron Bridges",
  "Grains",
  "Night Trains",
  "Maps",
  "Weaving",
  "Tidal Coasts",
  "Mountain Weather",
  "Small Boats",
  "Beekeeping",
  "Stone Walls",
  "Clouds",
  "Clockmaking",
  "Rivers",
  "Glassblowing",
  "Foraging",
  "Lighthouses",
  "Old Roads",
  "Bookbinding",
  "Ferns",
  "Canal Locks",
  "Windmills",
  "Moths",
  "Tidepools",
  "Sourdough",
  "Slate Roofs",
  "Kites",
  "Ponds",
  "Lace",
  "Sundials",
  "Owls",
  "Salt Marshes",
];
const AUTHORS = [
  "R. Okafor",
  "P. Marchetti",
  "S. Adeyemi",
  "K. Novak",
  "E. Whitford",
  "L. Moreau",
  "J. Pereira",
  "A. Brandt",
  "D. Kowalski",
  "N. Haddad",
  "G. Fairburn",
];

/**
 * The library's catalogue: id, title, author. Five titles hold "orchard"; the one the task
 * wants is near the end, below the window's fold until the search narrows the list.
 */
const BOOKS: [string, string, string][] = (() => {
  const titles = SUBJECTS.flatMap((s, i) =>
    i % 2 === 0 ? [`A Field Guide to ${s}`, `Notes on ${s}`] : [`The Book of ${s}`]
  );
  titles.splice(6, 0, "The Quiet Orchard");
  titles.splice(15, 0, "The Orchard Keeper's Year");
  titles.splice(27, 0, "Letters from the Orchard");
  titles.splice(38, 0, "Winter Orchard Care");
  titles.splice(titles.length - 3, 0, "Orchards of the North");
  return titles.map((t, i) => [`b${101 + i}`, t, AUTHORS[i % AUTHORS.length]!]);
})();
/** The book the task reserves, the words searched for, and where it is picked up. */
const WANT = {
  id: BOOKS.find(([, t]) => t === "Orchards of the North")![0],
  title: "Orchards of the North",
  search: "orchard",
  branch: "Riverside",
};

/** The catalogue (filtered as one types), a book's page, and the reservation's answer. */
const libraryPages: Pages = {
  files: {
    "/catalog": page(
      "Library catalogue",
      `<h1>Library catalogue</h1>
<div class="row"><label for="search">Search titles</label><br>
  <input type="search" id="search" autocomplete="off"></div>
<p id="count" aria-live="polite">${BOOKS.length} books</p>
<ul class="items" id="books">
${
        BOOKS.map(([id, title, author]) =>
          `  <li data-title="${esc(title.toLowerCase())}"><a href="/book?id=${id}">${
            esc(title)
          }</a> — ${esc(author)}</li>`
        ).join("\n")
      }
</ul>`,
      // The list filters as one types, and a book's link carries the search that found it.
      `const box = document.getElementById("search");
box.addEventListener("input", () => {
  const q = box.value.trim().toLowerCase();
  let shown = 0;
  for (const li of document.querySelectorAll("#books li")) {
    const hit = li.dataset.title.includes(q);
    li.hidden = !hit;
    if (hit) shown++;
    const a = li.querySelector("a");
    const u = new URL(a.href);
    u.searchParams.set("q", q);
    a.href = u.toString();
  }
  document.getElementById("count").textContent = shown + (shown === 1 ? " book" : " books");
});`,
    ),
  },
  get: {
    "/book": (q) => {
      const book = BOOKS.find(([id]) => id === q.get("id"));
      if (!book) return { html: page("No such book", "<h1>No such book</h1>") };
      const [id, title, author] = book;
      return {
        html: page(
          title,
          `<h1>${esc(title)}</h1><p>By ${esc(author)}. Available: 2 copies.</p>
<form method="post" action="/reserve">
  <input type="hidden" name="book" value="${id}">
  <input type="hidden" name="search" value="${esc(q.get("q") ?? "")}">
  <div class="row"><label for="branch">Pick up at</label><br>
    <select id="branch" name="branch">
      <option value="central">Central</option>
      <option value="riverside">Riverside</option>
      <option value="hilltop">Hilltop</option>
    </select></div>
  <div class="row"><button type="submit">Reserve this book</button></div>
</form>
<p><a href="/catalog">Back to the catalogue</a></p>`,
        ),
      };
    },
  },
  post: {
    "/reserve": (fields) => {
      const title = BOOKS.find(([id]) => id === Object.fromEntries(fields).book)?.[1] ?? "?";
      return {
        html: page(
          "Reservation confirmed",
          `<h1>Reservation confirmed</h1><p>${esc(title)} is held for you.</p>`,
        ),
      };
    },
  },
};

/** Search the catalogue, open the book, choose the branch, reserve. */
const chromiumSearchSelect: Task = {
  id: "chromium-search-select",
  title: "Chromium: search a catalogue, open the book found, pick a branch and reserve it",
  family: "Chromium",
  prepare: (dir) => site(dir, libraryPages, { ...WANT }),
  launch: (f) => open("chromium", f, "/catalog", "Library catalogue", "Search titles"),
  async ours(agent, app) {
    const w = await agent.window(app.pid, /Library catalogue/);
    await agent.set(w, { role: "AXTextField", name: "Search titles" }, WANT.search);
    // The list filters as one types: the count says when it has.
    await agent.find(w, { text_contains: "5 books" });
    await agent.press(w, WANT.title, "AXLink");
    const book = await agent.window(app.pid, new RegExp(WANT.title));
    await agent.act(book, { name: WANT.branch, role: "AXMenuItem" }, "select", { scope: "all" });
    await agent.press(book, "Reserve this book", "AXButton");
    await agent.window(app.pid, /Reservation confirmed/);
  },
  async check(f) {
    const all = await posts(f.dir, "/reserve");
    const got = all.filter((p) => p.path === "/reserve");
    if (got.length !== 1) return `${got.length} posts to /reserve`;
    const d = differs(got[0], { book: WANT.id, search: WANT.search, branch: "riverside" });
    return d && `/reserve: ${d}`;
  },
};

/** The tasks of this family. */
export const WEB_TASKS: readonly Task[] = [
  registration("firefox", "firefox-form", "Firefox"),
  registration("chromium", "chromium-form", "Chromium"),
  signInThenOrder("firefox", "firefox-login-then-order", "Firefox"),
  chromiumSearchSelect,
  signInThenOrder("chromium", "chromium-login-then-order", "Chromium"),
];
