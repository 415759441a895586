"""Thunar: select a file in the list and rename it through Edit > Rename…."""
from common import item, run


def policy(app, v):
    frame = app.child(roleName="frame")
    view = frame.menu("View")
    view.click()
    item(view, "check menu item", "List View").click()
    frame.child(name=v["from"], roleName="table cell").click()
    edit = frame.menu("Edit")
    edit.click()
    item(edit, "menu item", "Rename...").click()
    dialog = app.child(name='Rename "%s"' % v["from"], roleName="dialog")
    dialog.child(roleName="text").text = v["to"]
    dialog.button("Rename").click()
    frame.child(name=v["to"], roleName="table cell")


run(policy)
