"""Mousepad: add a line to a file and save it under a new name (file chooser)."""
from common import item, run
from dogtail.rawinput import keyCombo, typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    text = frame.child(roleName="text")
    text.click()
    keyCombo("<Control>End")
    typeText("approved\n")
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save As...").click()
    dialog = app.child(name="Save As", roleName="file chooser")
    dialog.child(roleName="text").text = "final.txt"
    dialog.button("Save").click()


run(policy)
