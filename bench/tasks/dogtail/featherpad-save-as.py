"""FeatherPad: type a new document and save it through Qt's Save As dialog."""
from common import run
from dogtail.rawinput import typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    text = frame.child(roleName="text")
    text.click()
    typeText(v["text"])
    # Qt's menu bar lists its menus as menu items.
    frame.menuItem("File").click()
    frame.menuItem("Save As").click()
    dialog = app.child(name="Save as...", roleName="dialog")
    dialog.child(name="File name:", roleName="text").text = v["saved"]
    dialog.button("Save").click()


run(policy)
