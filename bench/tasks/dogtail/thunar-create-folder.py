"""Thunar: create a folder through File > Create Folder… and name it."""
from common import item, run


def policy(app, v):
    frame = app.child(roleName="frame")
    view = frame.menu("View")
    view.click()
    item(view, "check menu item", "List View").click()
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Create Folder...").click()
    dialog = app.child(name="Create New Folder", roleName="dialog")
    dialog.child(roleName="text").text = v["name"]
    dialog.button("Create").click()
    frame.child(name=v["name"], roleName="table cell")


run(policy)
