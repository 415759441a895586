"""What every dogtail policy of the task benchmark shares (bench/tasks/dogtail/<id>.py).

Each policy is dogtail as its documentation teaches it: the app's tree searched by role
and name (`child`, `childNamed`, `menuItem`), `click()`, `typeText`, `keyCombo`, and the
delays dogtail's config sets by default (actionDelay 1 s after an action, typingDelay
0.1 s per key, searchBackoffDuration 0.5 s between searches). A policy is run as
`python3 <id>.py <pid> <values as JSON>`; it prints {"ms": <its own time>} and exits 0, or
prints the failure on stderr and exits 1.
"""
import json
import sys
import time

from dogtail.config import config

config.logDebugToFile = False
config.logDebugToStdOut = False
config.checkForA11y = False

from dogtail import tree  # noqa: E402  (after the config, as dogtail's examples do)


def app_of(pid, tries=20):
    """The application node of process `pid`."""
    for _ in range(tries):
        for app in tree.root.applications():
            try:
                if app.get_process_id() == pid:
                    return app
            except Exception:
                continue
        time.sleep(config.searchBackoffDuration)
    raise RuntimeError(f"no application of pid {pid} on the bus")


def run(policy):
    """Runs `policy(app, values)` on the app of argv's pid and reports its time."""
    pid, values = int(sys.argv[1]), json.loads(sys.argv[2])
    started = time.monotonic()
    try:
        policy(app_of(pid), values)
    except Exception as err:  # the harness records why
        print(f"{type(err).__name__}: {err}".replace("\n", " "), file=sys.stderr)
        sys.exit(1)
    print(json.dumps({"ms": round((time.monotonic() - started) * 1000, 1)}))


def item(node, role, name):
    """The descendant of `node` of `role` whose name, stripped, is `name`: GTK pads menu
    items' names with spaces to align their accelerators ("Save As...      ")."""
    return node.findChild(lambda x: x.roleName == role and x.name.strip() == name)
