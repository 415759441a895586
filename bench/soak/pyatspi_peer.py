#!/usr/bin/python3
"""The soak bench's peer: a long-lived pyatspi client doing the reads the driver is asked for.

Reads one JSON line per request on stdin, {"pid": P} or {"pid": P, "name": N}, walks the
front window of the app with process P as bench/pyatspi_walk.py does (showing nodes: role,
name, states, extents, the text of text-like roles) and, with a name, looks for an element
of that name in the walk. Answers one JSON line per request on stdout: {"nodes": N,
"ms": T} (nodes -1 when the app is gone). A GLib main loop runs between requests, as in any
pyatspi client, so the bus's messages are dispatched and the caches kept as pyatspi keeps
them. Its resident memory is sampled by bench/soak_bench.ts beside the driver's.
"""

import json
import os
import sys
import time

import pyatspi
from gi.repository import GLib

TEXT_ROLES = {
    pyatspi.ROLE_TEXT,
    pyatspi.ROLE_ENTRY,
    pyatspi.ROLE_SPIN_BUTTON,
    pyatspi.ROLE_COMBO_BOX,
    pyatspi.ROLE_PARAGRAPH,
    pyatspi.ROLE_LABEL,
    pyatspi.ROLE_TABLE_CELL,
    pyatspi.ROLE_LIST_ITEM,
}
MAX_CHILDREN = 1_000
MAX_NODES = 5_000
MAX_TEXT = 10_000


def front_window(pid):
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None and app.get_process_id() == pid and app.childCount > 0:
            return app.getChildAtIndex(0)
    return None


def walk(window, name):
    """Kept nodes of the window, and whether one is named `name`."""
    count = 0
    found = False
    stack = [(window, window.getState())]
    shown = pyatspi.STATE_SHOWING
    first = True
    while stack and count < MAX_NODES:
        node, states = stack.pop()
        count += 1
        role = node.getRole()
        found = found or (name is not None and node.name == name)
        try:
            node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        except NotImplementedError:
            pass
        if role in TEXT_ROLES:
            try:
                text = node.queryText()
                text.getText(0, min(text.characterCount, MAX_TEXT))
            except NotImplementedError:
                pass
        if states.contains(pyatspi.STATE_MANAGES_DESCENDANTS) or node.childCount > MAX_CHILDREN:
            continue
        kids = []
        for i in range(node.childCount):
            try:
                child = node.getChildAtIndex(i)
                if child is not None:
                    kids.append((child, child.getState()))
            except Exception:  # Gone between the count and the read.
                pass
        if first and not any(s.contains(pyatspi.STATE_SHOWING) for _, s in kids):
            shown = pyatspi.STATE_VISIBLE  # GTK 4 sets SHOWING on no widget below the window
        first = False
        stack.extend(k for k in reversed(kids) if k[1].contains(shown))
    return count, found


def answer(request):
    started = time.perf_counter()
    nodes = -1
    try:
        window = front_window(request["pid"])
        if window is not None:
            nodes, _ = walk(window, request.get("name"))
    except Exception:  # The app went away during the walk.
        nodes = -1
    ms = (time.perf_counter() - started) * 1000
    print(json.dumps({"nodes": nodes, "ms": round(ms, 1)}), flush=True)


def main():
    loop = GLib.MainLoop()
    pending = b""

    def on_input(fd, condition):
        nonlocal pending
        chunk = os.read(fd if isinstance(fd, int) else fd.unix_get_fd(), 65536)
        if not chunk:
            loop.quit()
            return False
        pending += chunk
        *lines, pending = pending.split(b"\n")
        for line in lines:
            if line.strip():
                answer(json.loads(line))
        return True

    GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_input)
    print(json.dumps({"ready": True}), flush=True)
    loop.run()


if __name__ == "__main__":
    main()
