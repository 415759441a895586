"""Mousepad: turn on line numbers and a margin at 72, tab width 4 with spaces (Preferences)."""
from common import item, run
from dogtail.rawinput import keyCombo


def policy(app, v):
    frame = app.child(roleName="frame")
    menu = frame.menu("Edit")
    menu.click()
    item(menu, "menu item", "Preferences...").click()
    dialog = app.child(name="Mousepad Preferences", roleName="dialog")
    view = dialog.tab("View")
    view.child(name="Show line numbers", roleName="check box").click()
    margin = view.child(name="Long line margin at column:", roleName="check box")
    margin.click()
    # The column's spin button sits beside the check box, in the same row.
    margin.parent.child(roleName="spin button").value = 72
    editor = dialog.tab("Editor")
    editor.click()
    editor.child(roleName="spin button").value = 4
    mode = editor.child(name="Insert Tabs", roleName="combo box")
    mode.click()
    mode.child(name="Insert Spaces", roleName="menu item").click()
    keyCombo("Escape")


run(policy)
