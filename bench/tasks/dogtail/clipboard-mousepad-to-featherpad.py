"""Clipboard: copy all of a note in mousepad, paste it into FeatherPad and save."""
from common import item, run
from dogtail import tree


def policy(app, v):
    frame = app.child(roleName="frame")
    edit = frame.menu("Edit")
    edit.click()
    item(edit, "menu item", "Select All").click()
    edit.click()
    item(edit, "menu item", "Copy").click()
    # FeatherPad (Qt): its menu bar's entries are menu items; a menu's items are searched
    # among those showing (the text's context menu holds another, hidden, Paste).
    pad = tree.root.application("FeatherPad")
    bar = pad.child(roleName="frame").child(roleName="menu bar")
    bar.child(name="Edit", roleName="menu item", recursive=False).click()
    pad.child(name="Paste", roleName="menu item", showingOnly=True).click()
    bar.child(name="File", roleName="menu item", recursive=False).click()
    pad.child(name="Save", roleName="menu item", showingOnly=True).click()


run(policy)
