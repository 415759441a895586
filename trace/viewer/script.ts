/**
 * The viewer's script: plain browser JavaScript, inlined into the page. It reads the
 * trace from the page's JSON block and builds everything with DOM calls and
 * `textContent`, never `innerHTML`: a trace holds text from apps and web pages, which
 * must show as text, not run.
 *
 * @module
 */

/** JavaScript of the viewer page. */
export const VIEWER_SCRIPT = String.raw`
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("trace-data").textContent);
  var ops = data.ops;
  var images = data.images;
  var current = -1;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function fmtMs(ms) { return ms >= 1000 ? (ms / 1000).toFixed(2) + " s" : Math.round(ms) + " ms"; }
  function windowOf(op) {
    if (op.answer && typeof op.answer.window === "string") return op.answer.window;
    return typeof op.params.window === "string" ? op.params.window : undefined;
  }
  function describe(e) {
    var s = e.role + " \"" + e.name + "\"";
    if (e.value !== undefined) s += " = " + JSON.stringify(e.value);
    return s + " [" + e.id + "]";
  }

  // Each window's map replayed through the trace: a full read replaces it, a diff patches it.
  var maps = {}, versions = {}, before = [], after = [];
  ops.forEach(function (op, i) {
    var w = windowOf(op);
    before[i] = w !== undefined ? maps[w] : undefined;
    var a = op.answer;
    if (w !== undefined && a) {
      var m;
      if (Array.isArray(a.elements)) {
        m = {};
        a.elements.forEach(function (e) { m[e.id] = e; });
      } else if (maps[w] && (a.added || a.changed || a.removed)) {
        m = Object.assign({}, maps[w]);
        (a.added || []).concat(a.changed || []).forEach(function (e) { m[e.id] = e; });
        (a.removed || []).forEach(function (id) { delete m[id]; });
      }
      if (m) maps[w] = m;
      if (m && typeof a.version === "number") versions[w] = a.version;
    }
    after[i] = w !== undefined && maps[w] ? { window: w, map: maps[w], version: versions[w] } : undefined;
  });

  // Header.
  var head = document.getElementById("summary");
  var started = data.header ? data.header.started : "";
  head.append(el("span", null, ops.length + " ops"), el("span", null, Object.keys(images).length + " images"),
    el("span", null, started ? "started " + started : ""));
  if (data.end && data.end.images_capped) {
    head.append(el("span", "warn", "image cap reached at op #" + data.end.capped_at + ": later steps have no screenshots"));
  }
  if (!data.end) head.append(el("span", "warn", "recording did not stop cleanly"));
  head.append(el("span", "keys", "\u2191/\u2193 or j/k: steps \u00b7 /: search the map"));

  // Timeline.
  var list = document.getElementById("timeline");
  var maxMs = Math.max.apply(null, ops.map(function (o) { return o.ms; }).concat([1]));
  var rows = ops.map(function (op, i) {
    var row = el("li", "step" + (op.error ? " err" : ""));
    row.id = "step-" + op.seq;
    row.setAttribute("data-op", op.op);
    var name = el("span", "op", op.op);
    if (op.images) name.append(el("span", "cam", "\u25a3"));
    var track = el("span", "track"), bar = el("span", "bar");
    bar.style.width = Math.max(1, Math.round(100 * op.ms / maxMs)) + "%";
    track.append(bar);
    row.append(el("span", "seq", "#" + op.seq), name, el("span", "ms", fmtMs(op.ms)), track);
    row.addEventListener("click", function () { select(i); });
    list.append(row);
    return row;
  });

  function box(ref, b, cls, title) {
    var r = el("div", cls);
    r.style.left = (100 * (b.x - ref.origin.x) * ref.scale / ref.width) + "%";
    r.style.top = (100 * (b.y - ref.origin.y) * ref.scale / ref.height) + "%";
    r.style.width = (100 * b.w * ref.scale / ref.width) + "%";
    r.style.height = (100 * b.h * ref.scale / ref.height) + "%";
    if (title) r.title = title;
    return r;
  }
  function marks(op) {
    var out = [];
    (op.targets || []).forEach(function (t) {
      if (t.bounds) out.push({ b: t.bounds, title: (t.role || "") + " " + (t.name || "") + " [" + t.id + "]" });
    });
    var p = op.params;
    var pts = typeof p.x === "number" && typeof p.y === "number" ? [p] : p.from && p.to ? [p.from, p.to] : [];
    pts.forEach(function (q) { out.push({ b: { x: q.x - 6, y: q.y - 6, w: 12, h: 12 }, title: "(" + q.x + ", " + q.y + ")" }); });
    return out;
  }
  function shot(label, ref, op) {
    var fig = el("figure", "shot");
    fig.append(el("figcaption", null, label + " (" + ref.width + "\u00d7" + ref.height + ")"));
    var frame = el("div", "frame");
    var img = el("img");
    img.alt = label + " screenshot";
    img.addEventListener("load", function () { img.setAttribute("data-natural-width", String(img.naturalWidth)); });
    img.addEventListener("error", function () { img.setAttribute("data-failed", "1"); });
    img.src = images[ref.sha] || "";
    frame.append(img);
    marks(op).forEach(function (m) { frame.append(box(ref, m.b, "target", m.title)); });
    fig.append(frame);
    return fig;
  }
  function json(title, value, open) {
    var d = el("details");
    if (open) d.open = true;
    d.append(el("summary", null, title));
    d.append(el("pre", null, JSON.stringify(value, null, 2)));
    return d;
  }
  function diff(op, prev) {
    var a = op.answer;
    if (!a || Array.isArray(a.elements) || !(a.added || a.changed || a.removed)) return null;
    var sec = el("section", "diff");
    sec.append(el("h3", null, "Diff" + (typeof a.version === "number" ? " (to version " + a.version + ")" : "")));
    var ul = el("ul");
    (a.added || []).forEach(function (e) { ul.append(el("li", "added", "+ added " + describe(e))); });
    (a.changed || []).forEach(function (e) {
      var old = prev && prev[e.id];
      ul.append(el("li", "changed", "~ changed " + describe(e) + (old ? "   was " + describe(old) : "")));
    });
    (a.removed || []).forEach(function (id) {
      ul.append(el("li", "removed", "- removed " + (prev && prev[id] ? describe(prev[id]) : "[" + id + "]")));
    });
    if (!ul.children.length) ul.append(el("li", null, "no change"));
    sec.append(ul);
    return sec;
  }
  function steps(op, prev) {
    var a = op.answer;
    if (!a || !Array.isArray(a.results)) return null;
    var sec = el("section", "steps");
    sec.append(el("h3", null, "Batch steps"));
    var ul = el("ul");
    a.results.forEach(function (r, i) {
      var s = (op.params.steps || [])[i] || {};
      var named = prev && prev[s.id];
      var what = s.op ? s.op : s.action + " " + (named ? named.role + " \"" + named.name + "\" " : "") + "[" + s.id + "]";
      var text = (i + 1) + ". " + what + ": " + (r.skipped ? "skipped" : r.ok ? "ok" : "failed");
      if (r.error) text += " (" + r.error.code + ": " + r.error.message + ")";
      var li = el("li", r.ok ? null : "removed", text);
      // The window after this step, its own target outlined (the next step's before).
      var ref = (op.step_images || [])[i];
      if (ref) {
        var one = { targets: (op.targets || []).filter(function (t) { return t.id === s.id; }), params: s };
        li.append(shot("After step " + (i + 1), ref, one));
      }
      ul.append(li);
    });
    sec.append(ul);
    return sec;
  }
  function tree(state, op) {
    var sec = el("section", "tree");
    sec.append(el("h3", null, "Element map of " + state.window + (state.version !== undefined ? " at version " + state.version : "")));
    var search = el("input");
    search.type = "search";
    search.id = "map-search";
    search.placeholder = "Search role, name, value or id";
    sec.append(search);
    var hits = {};
    (op.targets || []).forEach(function (t) { hits[t.id] = true; });
    var kids = {}, roots = [];
    Object.keys(state.map).forEach(function (id) {
      var e = state.map[id];
      if (e.parent && state.map[e.parent]) (kids[e.parent] = kids[e.parent] || []).push(e);
      else roots.push(e);
    });
    function node(e) {
      var li = el("li", hits[e.id] ? "hit" : null);
      li.setAttribute("data-text", (e.role + " " + e.name + " " + (e.value || "") + " " + e.id).toLowerCase());
      var label = e.role + " \"" + e.name + "\"" + (e.value !== undefined ? " = " + JSON.stringify(e.value) : "");
      li.append(el("span", "node", label), el("span", "id", e.id));
      var ch = kids[e.id];
      if (ch) {
        var ul = el("ul");
        ch.forEach(function (c) { ul.append(node(c)); });
        li.append(ul);
      }
      return li;
    }
    var top = el("ul");
    roots.forEach(function (e) { top.append(node(e)); });
    sec.append(top);
    function filter(li, q) {
      var own = q !== "" && li.getAttribute("data-text").indexOf(q) >= 0;
      var any = q === "" || own;
      var sub = li.querySelector(":scope > ul");
      if (sub) for (var i = 0; i < sub.children.length; i++) any = filter(sub.children[i], q) || any;
      li.hidden = !any;
      li.classList.toggle("match", own);
      return any;
    }
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      for (var i = 0; i < top.children.length; i++) filter(top.children[i], q);
    });
    return sec;
  }

  function render(i) {
    var op = ops[i];
    var d = document.getElementById("detail");
    d.textContent = "";
    d.append(el("h2", null, "#" + op.seq + " " + op.op));
    var meta = "started " + op.start + " \u00b7 " + fmtMs(op.ms);
    if (op.engine || op.route) meta += " \u00b7 engine " + (op.answer && op.answer.engine || (op.route && op.route.engine) || op.engine);
    if (op.route) meta += " \u00b7 route: " + op.route.reason + (op.route.app ? " (" + op.route.app + ")" : "");
    d.append(el("div", "meta", meta));
    if (op.error) {
      var err = el("div", "error");
      err.append(el("strong", null, op.error.code + ": "), el("span", null, op.error.message));
      d.append(err);
    }
    if (op.images_note) d.append(el("p", "note", op.images_note));
    var shots = el("div", "shots");
    if (op.images && op.images.before) shots.append(shot("Before", op.images.before, op));
    if (op.images && op.images.after) shots.append(shot("After", op.images.after, op));
    var png = op.answer && op.answer.png;
    if (typeof png === "string" && png.indexOf("images/") === 0) {
      var sha = png.slice(7, -4);
      shots.append(shot("Answered image", { sha: sha, width: op.answer.width, height: op.answer.height, scale: 1, origin: { x: 0, y: 0 } }, { params: {} }));
    }
    if (shots.children.length) d.append(shots);
    var df = diff(op, before[i]);
    if (df) d.append(df);
    var st = steps(op, before[i]);
    if (st) d.append(st);
    d.append(json("Params", op.params, true));
    if (op.answer) {
      var shown = op.answer;
      if (Array.isArray(shown.elements)) {
        shown = Object.assign({}, shown, { elements: "(" + shown.elements.length + " elements: see the element map)" });
      }
      d.append(json("Answer", shown, true));
    }
    if (after[i]) d.append(tree(after[i], op));
  }

  function select(i) {
    if (i < 0 || i >= ops.length) return;
    if (current >= 0) rows[current].classList.remove("sel");
    current = i;
    rows[i].classList.add("sel");
    if (rows[i].scrollIntoView) rows[i].scrollIntoView({ block: "nearest" });
    if (history.replaceState) history.replaceState(null, "", "#step-" + ops[i].seq);
    render(i);
  }

  document.addEventListener("keydown", function (ev) {
    var t = ev.target;
    if (t && t.tagName === "INPUT") {
      if (ev.key === "Escape") t.blur();
      return;
    }
    if (ev.key === "ArrowDown" || ev.key === "j") { select(current + 1); ev.preventDefault(); }
    else if (ev.key === "ArrowUp" || ev.key === "k") { select(current - 1); ev.preventDefault(); }
    else if (ev.key === "/") {
      var s = document.getElementById("map-search");
      if (s) { s.focus(); ev.preventDefault(); }
    }
  });

  var wanted = /^#step-(\d+)$/.exec(location.hash);
  var start = 0;
  if (wanted) ops.forEach(function (op, i) { if (String(op.seq) === wanted[1]) start = i; });
  if (ops.length) select(start);
  else document.getElementById("detail").textContent = "This trace has no ops.";
})();
`;
