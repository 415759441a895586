"""Mousepad: replace a whole word everywhere (Find and Replace) and save."""
from common import item, run


def policy(app, v):
    frame = app.child(roleName="frame")
    menu = frame.menu("Search")
    menu.click()
    item(menu, "menu item", "Find and Replace...").click()
    dialog = app.child(name="Find and Replace", roleName="dialog")
    # Each field is the entry of a combo box the label names.
    dialog.childLabelled("Search for:").child(roleName="text").text = v["search"]
    dialog.childLabelled("Replace with:").child(roleName="text").text = v["replace"]
    dialog.child(name="Match whole word", roleName="check box").click()
    dialog.child(name="Replace all in:", roleName="check box").click()
    dialog.button("Replace All").click()
    dialog.button("Close").click()
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save").click()


run(policy)
