/** The observe bench's parsers, on answers copied from real runs of both servers. */
import assert from "node:assert/strict";
import { ourHandles, playwrightHandles, tokens, webArea, words, wordShare } from "./parse.ts";

const PLAYWRIGHT = `### Page
- Page URL: http://127.0.0.1:40173/widgets.html?side=pw
- Page Title: Account settings
### Snapshot
\`\`\`yaml
- generic [active] [ref=f4e1]:
  - heading "Account settings" [level=1] [ref=f4e2]
  - tablist "Sections" [ref=f4e3]:
    - tab "Overview" [selected] [ref=f4e4]
    - tab "Billing" [ref=f4e5]
  - tabpanel "Overview" [ref=f4e7]:
    - paragraph [ref=f4e8]: "The overview panel lists the fleet."
  - heading [level=3] [ref=f4e10]:
    - button "Shipping" [ref=f4e11]
  - paragraph [ref=f4e16]:
    - text: Region
    - combobox "Region" [ref=f4e17]:
      - option "Europe" [selected]
      - option "Asia"
  - generic [ref=f4e20]:
    - checkbox "Email alerts" [checked] [ref=f4e21]
    - text: Email alerts
  - textbox "Say \\"hi\\"" [ref=f4e30]
  - link "Forgot your password?" [ref=e15] [cursor=pointer]:
    - /url: "#forgot"
  - button "No ref"
\`\`\``;

const OURS = `app=Chromium pid=1 window=w1 version=1 live elements=68 folded=35
nw8xxy9bqp04 AXWindow "Account settings - Chromium" @10,10,900,700 focused
  jqkgcpbnymex AXToolbar "" @10,50,900,46
    vjpk1cphwb85 AXButton "Reload" @88,56,34,34
    zkc5894jt46k AXTextField "Address and search bar" [127.0.0.1/w.html] @168,61,613,24
  th17fm6v6hg5 AXWebArea "Account settings" @10,153,900,557 focused
    swk9a12ya6yd AXHeading "Account settings" @26,173,868,43
    r8aq6p3jg78q AXTabGroup "Sections" @26,235,868,22
      st9kmgphhkhg AXRadioButton "Overview" @26,235,87,22 selected
    9h0xqyvvs8ez AXStaticText "" [Region] @26,488,52,19
    hvnndcawwsyg AXPopUpButton "Region" [Europe] @82,488,85,20 collapsed
    xsy9ptmtf1sw AXCheckBox "Email alerts" @45,552,14,14 checked
    58hy4tzsgb8z AXSecureTextField "Password" @26,349,179,22
    nsqzfab4smr3 AXLink "Say \\"hi\\"" @26,459,171,19
  kkh984hqgqtr AXGroup "Infobar Container" @10,97,900,56
    mc1t8pez1weq AXButton "Close" @866,111,28,28`;

Deno.test("playwrightHandles counts interactive roles with a ref, options with their select", () => {
  const h = playwrightHandles(PLAYWRIGHT);
  assert.deepEqual(h.map((x) => `${x.role}:${x.name}:${x.ref}`), [
    "tab:Overview:f4e4",
    "tab:Billing:f4e5",
    "button:Shipping:f4e11",
    "combobox:Region:f4e17",
    "checkbox:Email alerts:f4e21",
    'textbox:Say \\"hi\\":f4e30',
    "link:Forgot your password?:e15",
  ]);
});

Deno.test("ourHandles counts interactive roles by id, in outlines and diffs", () => {
  const h = ourHandles(OURS);
  assert.deepEqual(h.map((x) => `${x.role}:${x.name}`), [
    "AXButton:Reload",
    "AXTextField:Address and search bar",
    "AXRadioButton:Overview",
    "AXPopUpButton:Region",
    "AXCheckBox:Email alerts",
    "AXSecureTextField:Password",
    'AXLink:Say \\"hi\\"',
    "AXButton:Close",
  ]);
  assert.equal(h[0]!.ref, "vjpk1cphwb85");
  const diff =
    `ok version=3 effect=changed\n~ 49jb5b0vhzz8 AXRadioButton "Billing" @117,235,57,22 focused selected
+ c945e5s26pqr AXGroup "" [text] @26,271,868,22\n- a8jsbm4hv51p`;
  assert.deepEqual(ourHandles(diff).map((x) => x.ref), ["49jb5b0vhzz8"]);
  // Short ids, and no name when the children say it.
  assert.deepEqual(
    ourHandles('  kh73rq AXCell\n    10p756 AXButton "Restart 001"\n  w64yjh AXTextField []'),
    [
      { role: "AXButton", name: "Restart 001", ref: "10p756" },
      { role: "AXTextField", name: "", ref: "w64yjh" },
    ],
  );
  // The header line is never an element.
  assert.equal(ourHandles("version=1 found=0").length, 0);
});

Deno.test("webArea keeps the page's lines", () => {
  const page = webArea(OURS);
  assert.match(page, /^ {2}th17fm6v6hg5 AXWebArea/);
  assert.ok(page.includes("Email alerts") && !page.includes("Reload") && !page.includes("Close"));
  assert.equal(ourHandles(page).length, 5);
  assert.equal(webArea("no page here"), "");
});

Deno.test("words and wordShare count words with repeats", () => {
  assert.deepEqual(words("Restart 037, Sign-in… Ünïcode"), [
    "restart",
    "037",
    "sign",
    "in",
    "ünïcode",
  ]);
  const page = words("ok ok cancel");
  assert.equal(wordShare("OK", page), 1 / 3);
  assert.equal(wordShare("ok ok ok cancel", page), 1);
  assert.equal(wordShare("", []), 1);
  assert.equal(tokens("abcde"), 2);
});
