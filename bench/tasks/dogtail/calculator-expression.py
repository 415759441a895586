"""GNOME Calculator: type (40+2)/6 into its entry and evaluate it."""
from common import run
from dogtail.rawinput import pressKey, typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    # GTK 4 names the entry by its widget type.
    entry = frame.child(name="GtkSourceView", roleName="text")
    entry.click()
    typeText(v["expression"])
    pressKey("Return")


run(policy)
