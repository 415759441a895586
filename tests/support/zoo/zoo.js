// The web zoo's handlers (zoo.html): each state change is reported by the page itself.
"use strict";

const params = new URLSearchParams(location.search);
document.title = params.get("title") ?? "Zoo web";

// One POST at a time, in order: the test reads the lines as the page said them.
let sending = Promise.resolve();
function say(line) {
  const body = line.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
  sending = sending.then(() => fetch("/report", { method: "POST", body }).catch(() => {}));
}

const $ = (id) => document.getElementById(id);

// Text fields: every change of their text.
$("name").addEventListener("input", (e) => say(`name: ${e.target.value}`));
$("notes").addEventListener("input", (e) => say(`notes: ${e.target.value}`));
$("password").addEventListener("input", (e) => say(`password: ${e.target.value.length}`));
$("city").addEventListener("input", (e) => say(`city: ${e.target.value}`));

// No masks on the web: the Phone field drops anything but digits and one dash.
$("phone").addEventListener("input", (e) => {
  const clean = e.target.value.replace(/[^0-9-]/g, "");
  if (clean !== e.target.value) e.target.value = clean;
  say(`phone: ${clean}`);
});

// The spin box reports committed values only (Enter, blur, its arrows).
let count = $("count").value;
$("count").addEventListener("change", (e) => {
  if (e.target.value === count) return;
  count = e.target.value;
  say(`count: ${count}`);
});

$("fruit").addEventListener("change", (e) => say(`fruit: ${e.target.value}`));

const selected = (select) => [...select.selectedOptions].map((o) => o.value).join(",");
$("colors").addEventListener("change", (e) => say(`colors: ${selected(e.target)}`));
$("colors").addEventListener("dblclick", (e) => {
  if (e.target instanceof HTMLOptionElement) say(`colors activated: ${e.target.value}`);
});
$("colors").addEventListener("keydown", (e) => {
  if (e.key === "Enter") say(`colors activated: ${$("colors").value}`);
});
$("tags").addEventListener("change", (e) => say(`tags: ${selected(e.target)}`));

$("agree").addEventListener("change", (e) => say(`agree: ${e.target.checked ? "on" : "off"}`));
for (const radio of document.querySelectorAll("input[name=size]")) {
  radio.addEventListener("change", (e) => {
    if (e.target.checked) say(`size: ${e.target.value}`);
  });
}
$("bold").addEventListener("click", (e) => {
  const on = e.currentTarget.getAttribute("aria-pressed") !== "true";
  e.currentTarget.setAttribute("aria-pressed", String(on));
  say(`bold: ${on ? "on" : "off"}`);
});
$("volume").addEventListener("input", (e) => say(`volume: ${e.target.value}`));
$("refresh").addEventListener("click", () => say("refresh: clicked"));

// Menus: the File menu under its bar item, the Colors list's context menu at the pointer.
function openMenu(menu, x, y) {
  menu.style.left = `${x}px`;
  menu.style.top = `${y}px`;
  menu.hidden = false;
  menu.querySelector("[role=menuitem]").focus();
}
function closeMenus() {
  for (const m of document.querySelectorAll("div[role=menu]")) m.hidden = true;
  $("file").setAttribute("aria-expanded", "false");
}
$("file").addEventListener("click", () => {
  const open = $("file-menu").hidden;
  closeMenus();
  if (!open) return;
  const r = $("file").getBoundingClientRect();
  $("file").setAttribute("aria-expanded", "true");
  openMenu($("file-menu"), r.left, r.bottom);
});
$("colors").addEventListener("contextmenu", (e) => {
  e.preventDefault();
  closeMenus();
  openMenu($("colors-menu"), e.clientX, e.clientY);
});
$("say-hello").addEventListener("click", () => {
  closeMenus();
  say("menu: Say hello");
});
$("open-dialog").addEventListener("click", () => {
  closeMenus();
  openModal();
});
$("clear-colors").addEventListener("click", () => {
  closeMenus();
  $("colors").selectedIndex = -1;
  say("menu: Clear colors");
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape") closeMenus();
});

// The People grid: rows selected by click or focus, sorted by its headers.
let people = [["Ann", 31], ["Bob", 25], ["Cid", 40]];
let chosen;
function showPeople() {
  const body = $("people").tBodies[0];
  body.replaceChildren(...people.map(([name, age]) => {
    const tr = document.createElement("tr");
    tr.tabIndex = -1;
    tr.setAttribute("aria-selected", String(name === chosen));
    tr.dataset.name = name;
    for (const text of [name, String(age)]) {
      const td = document.createElement("td");
      td.setAttribute("role", "gridcell");
      td.textContent = text;
      tr.append(td);
    }
    return tr;
  }));
}
function choosePerson(name) {
  if (name === chosen) return;
  chosen = name;
  for (const tr of $("people").tBodies[0].rows) {
    tr.setAttribute("aria-selected", String(tr.dataset.name === name));
  }
  say(`people selected: ${name}`);
}
const reportPeople = () => say(`people: ${people.map(([n]) => n).join(",")}`);
$("people").tBodies[0].addEventListener("click", (e) => {
  const tr = e.target.closest("tr");
  if (tr) choosePerson(tr.dataset.name);
});
$("people").tBodies[0].addEventListener("focusin", (e) => {
  const tr = e.target.closest("tr");
  if (tr) choosePerson(tr.dataset.name);
});
for (const button of $("people").tHead.querySelectorAll("button")) {
  button.addEventListener("click", () => {
    const th = button.parentElement;
    const order = th.getAttribute("aria-sort") === "ascending" ? "descending" : "ascending";
    for (const other of $("people").tHead.querySelectorAll("th")) {
      other.setAttribute("aria-sort", "none");
    }
    th.setAttribute("aria-sort", order);
    const i = button.dataset.col === "Name" ? 0 : 1;
    const sign = order === "ascending" ? 1 : -1;
    people.sort((a, b) => sign * (a[i] < b[i] ? -1 : a[i] > b[i] ? 1 : 0));
    showPeople();
    say(`people sorted: ${button.dataset.col} ${order === "ascending" ? "asc" : "desc"}`);
    reportPeople();
  });
}
$("add-person").addEventListener("click", () => {
  people = [["Dee", 22], ...people];
  showPeople();
  reportPeople();
});
$("remove-person").addEventListener("click", () => {
  people = people.slice(1);
  showPeople();
  reportPeople();
});
showPeople();

// The Places tree: a click selects a row, and opens or closes one that has rows inside.
const rowName = (item) => item.firstElementChild.textContent;
function selectPlace(item) {
  if (item.getAttribute("aria-selected") === "true") return;
  for (const other of document.querySelectorAll("#places [role=treeitem]")) {
    other.setAttribute("aria-selected", "false");
    other.tabIndex = -1;
  }
  item.setAttribute("aria-selected", "true");
  item.tabIndex = 0;
  say(`places selected: ${rowName(item)}`);
}
function expandPlace(item, open) {
  if (!item.hasAttribute("aria-expanded")) return;
  if ((item.getAttribute("aria-expanded") === "true") === open) return;
  item.setAttribute("aria-expanded", String(open));
  say(`places ${open ? "expanded" : "collapsed"}: ${rowName(item)}`);
}
$("places").addEventListener("click", (e) => {
  const item = e.target.closest("[role=treeitem]");
  if (!item) return;
  selectPlace(item);
  expandPlace(item, item.getAttribute("aria-expanded") === "false");
});
$("places").addEventListener("keydown", (e) => {
  const item = e.target.closest("[role=treeitem]");
  if (!item) return;
  if (e.key === "ArrowRight") expandPlace(item, true);
  if (e.key === "ArrowLeft") expandPlace(item, false);
});
for (const item of document.querySelectorAll("#places [role=treeitem]")) item.tabIndex = -1;
document.querySelector("#places [role=treeitem]").tabIndex = 0;

// Tabs.
function chooseTab(tab) {
  if (tab.getAttribute("aria-selected") === "true") return;
  for (const other of document.querySelectorAll("[role=tab]")) {
    const on = other === tab;
    other.setAttribute("aria-selected", String(on));
    other.tabIndex = on ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !on;
  }
  say(`tab: ${tab.textContent}`);
}
for (const tab of document.querySelectorAll("[role=tab]")) {
  tab.addEventListener("click", () => chooseTab(tab));
}

// The modal dialog and the palette.
function openModal() {
  $("answer").value = "";
  $("modal").showModal();
  say("dialog: shown");
}
$("open-modal").addEventListener("click", openModal);
$("ok").addEventListener("click", () => {
  $("modal").close();
  say(`dialog: ok ${$("answer").value}`);
});
$("cancel").addEventListener("click", () => {
  $("modal").close();
  say("dialog: cancel");
});
$("modal").addEventListener("cancel", () => say("dialog: cancel"));
$("open-palette").addEventListener("click", () => {
  if ($("palette").open) return;
  $("palette").show();
  say("palette: shown");
});
$("close-palette").addEventListener("click", () => {
  $("palette").close();
  say("palette: closed");
});

say("ready");
