#!/usr/bin/python3
"""Walks one app's first window with pyatspi, the reference AT-SPI client.

The peer of the engine's readWindow in bench/atspi_walk_bench.ts. It reads what the
engine reads for each kept node (role, name, state set, children, screen extents, and
the text of text-like roles) and prunes as the engine does (engines/atspi/tree.ts and
skeleton.ts): below the window it descends only into children that have STATE_SHOWING,
or STATE_VISIBLE when none of the window's children is SHOWING (GTK 4 sets SHOWING on
no widget below the window).

Usage (inside the desktop session, with the system Python that has python3-pyatspi):

    /usr/bin/python3 bench/pyatspi_walk.py APP_NAME [RUNS] [--pid PID] [--pause MS]

Prints one JSON line per walk: first {"nodes": N, "ms": T, "says": D, "warmup": true,
"find_ms": F}, then RUNS lines {"nodes": N, "ms": T, "says": D}, D a digest of every
node's role, name, text and whether its extents are known: a first walk of answers the
app had not filled yet says otherwise than the later ones. Finding the window (F: the
desktop's apps listed, and libatspi's first contact with each, which fetches its cache)
is timed apart. The warm-up walk matters for GTK 4: its objects appear on the bus only
once some client asked for a widget's children, so the first walk also pays for exposing
them. With --pause, the first walk starts MS after the window was found (not timed), as
an agent's read comes some time after it listed the apps.
"""

import hashlib
import json
import sys
import time

import pyatspi

# The roles whose text the engine reads (tree.ts TEXT_ROLES); password fields never.
TEXT_ROLES = {
    pyatspi.ROLE_TEXT,
    pyatspi.ROLE_ENTRY,
    pyatspi.ROLE_TERMINAL,
    pyatspi.ROLE_DOCUMENT_TEXT,
    pyatspi.ROLE_SPIN_BUTTON,
    pyatspi.ROLE_COMBO_BOX,
    pyatspi.ROLE_EDITBAR,
    pyatspi.ROLE_AUTOCOMPLETE,
    pyatspi.ROLE_PARAGRAPH,
    pyatspi.ROLE_HEADING,
    pyatspi.ROLE_LABEL,
    pyatspi.ROLE_STATIC,
    pyatspi.ROLE_CAPTION,
    pyatspi.ROLE_TABLE_CELL,
    pyatspi.ROLE_LIST_ITEM,
    pyatspi.ROLE_TREE_ITEM,
    pyatspi.ROLE_BLOCK_QUOTE,
    pyatspi.ROLE_SECTION,
    pyatspi.ROLE_LINK,
    pyatspi.ROLE_PANEL,
    pyatspi.ROLE_FORM,
    pyatspi.ROLE_ARTICLE,
    pyatspi.ROLE_LANDMARK,
    pyatspi.ROLE_DOCUMENT_WEB,
}
# Children lists longer than this, and containers that manage their descendants (a
# spreadsheet's sheet), are not walked: a screen reader does not walk them either.
MAX_CHILDREN = 1_000
MAX_TEXT = 10_000
MAX_NODES = 5_000


def find_window(app_name, pid, timeout_s=10.0):
    """The app's first window; waits a little for the app to register."""
    deadline = time.monotonic() + timeout_s
    while True:
        desktop = pyatspi.Registry.getDesktop(0)
        for i in range(desktop.childCount):
            app = desktop.getChildAtIndex(i)
            if app is None or app.childCount == 0:
                continue
            if pid is not None and app.get_process_id() != pid:
                continue
            if pid is None and app.name != app_name:
                continue
            return app.getChildAtIndex(0)
        if time.monotonic() > deadline:
            raise SystemExit(f"pyatspi_walk: no window of app {app_name!r} on the bus")
        time.sleep(0.05)


def children_with_states(node):
    """Children with their state sets, by index (iterating an Accessible in pyatspi asks
    the child count again for every child, which would be an extra round trip each)."""
    out = []
    count = node.childCount
    if count > MAX_CHILDREN:
        return out
    for i in range(count):
        try:
            child = node.getChildAtIndex(i)
            if child is not None:
                out.append((child, child.getState()))
        except Exception:  # The child went away between the count and the read.
            pass
    return out


def read_node(node, states):
    """The attributes the engine keeps for a node, as a plain dict."""
    role = node.getRole()
    out = {"role": int(role), "name": node.name or "", "states": states, "children": []}
    try:
        x, y, w, h = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        out["bounds"] = (x, y, w, h)
    except NotImplementedError:
        pass
    if role in TEXT_ROLES:
        try:
            text = node.queryText()
            out["value"] = text.getText(0, min(text.characterCount, MAX_TEXT))
        except NotImplementedError:
            pass
    return out


def walk(window):
    """Reads the window's kept nodes; returns (node count, tree, a digest of every node's
    role, name and text in walk order)."""
    count = 0
    digest = hashlib.sha1()
    kids = children_with_states(window)
    shown = pyatspi.STATE_SHOWING
    if not any(s.contains(pyatspi.STATE_SHOWING) for _, s in kids):
        shown = pyatspi.STATE_VISIBLE

    def visit(node, states, kids):
        nonlocal count
        count += 1
        raw = read_node(node, states)
        unknown = raw.get("bounds", (0, 0, 0, 0))[2] < 0
        digest.update(f"{raw['role']}|{raw['name']}|{raw.get('value', '')}|{unknown}\n".encode())
        if states.contains(pyatspi.STATE_MANAGES_DESCENDANTS):
            return raw
        for child, child_states in kids if kids is not None else children_with_states(node):
            if count >= MAX_NODES:
                break
            if child_states.contains(shown):
                try:
                    raw["children"].append(visit(child, child_states, None))
                except Exception:  # A vanished node costs its subtree, not the read.
                    pass
        return raw

    root = visit(window, window.getState(), kids)
    return count, root, digest.hexdigest()


def main(argv):
    args = [a for a in argv[1:]]
    pid = None
    pause_ms = 0
    if "--pause" in args:
        i = args.index("--pause")
        pause_ms = int(args[i + 1])
        del args[i : i + 2]
    if "--pid" in args:
        i = args.index("--pid")
        pid = int(args[i + 1])
        del args[i : i + 2]
    if not args:
        raise SystemExit(__doc__)
    app_name = args[0]
    runs = int(args[1]) if len(args) > 1 else 15
    found = time.perf_counter()
    window = find_window(app_name, pid)
    find_ms = (time.perf_counter() - found) * 1000
    time.sleep(pause_ms / 1000)
    for run in range(runs + 1):
        started = time.perf_counter()
        nodes, _, says = walk(window)
        ms = (time.perf_counter() - started) * 1000
        line = {"nodes": nodes, "ms": round(ms, 3), "says": says}
        if run == 0:
            line["warmup"] = True
            line["find_ms"] = round(find_ms, 3)
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main(sys.argv)
