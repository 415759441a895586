"""GNOME Calculator: press 1 2 × 7 = by its buttons."""
import json

from common import run


def policy(app, v):
    frame = app.child(roleName="frame")
    # GTK 4 names each button by its label and its tooltip ("7 7").
    for key in json.loads(v["keys"]):
        frame.button(key).click()


run(policy)
