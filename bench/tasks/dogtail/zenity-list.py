"""zenity --list --checklist: tick two rows (one scrolled out), untick one, OK."""
from common import run


def policy(app, v):
    dialog = app.child(name="Packages", roleName="dialog")
    table = dialog.child(roleName="table")
    cells = table.findChildren(lambda n: n.roleName == "table cell")
    names = [c.name for c in cells]
    for name in v["tick"].split(",") + [v["untick"]]:
        # The check cell opens its row; a row below the fold has no point to click.
        cells[names.index(name) - 1].doActionNamed("toggle")
    dialog.button("OK").click()


run(policy)
