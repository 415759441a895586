"""FeatherPad: replace a word everywhere with its Replace dock and save the file."""
from common import run


def policy(app, v):
    frame = app.child(roleName="frame")
    # Qt's menu bar lists its menus as menu items; the dock's fields and buttons say what
    # they are for in their descriptions, their names are empty.
    frame.menuItem("Search").click()
    frame.menuItem("Replace").click()
    frame.child(description="To be replaced", roleName="text").text = v["find"]
    frame.child(description="Replacing text", roleName="text").text = v["replace"]
    frame.child(description="Replace all (F10)", roleName="push button").click()
    frame.menuItem("File").click()
    frame.menuItem("Save").click()


run(policy)
