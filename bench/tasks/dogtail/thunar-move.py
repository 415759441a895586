"""Thunar: move a file into a subfolder by Edit > Cut, opening it, Edit > Paste."""
from common import item, run


def list_view(frame):
    view = frame.menu("View")
    view.click()
    item(view, "check menu item", "List View").click()


def policy(app, v):
    frame = app.child(roleName="frame")
    list_view(frame)
    frame.child(name=v["file"], roleName="table cell").click()
    edit = frame.menu("Edit")
    edit.click()
    item(edit, "menu item", "Cut").click()
    frame.child(name=v["folder"], roleName="table cell").doubleClick()
    frame = app.child(name="%s - Thunar" % v["folder"], roleName="frame")
    edit = frame.menu("Edit")
    edit.click()
    item(edit, "menu item", "Paste").click()
    list_view(frame)
    frame.child(name=v["file"], roleName="table cell")


run(policy)
