"""SpeedCrunch: define a variable, evaluate an expression with it, then one with ans."""
import json

import pyatspi
from common import run
from dogtail.rawinput import pressKey, typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    # The editor is the text that is not read-only (the result display is).
    editor = frame.findChild(
        lambda x: x.roleName == "text" and not x.getState().contains(pyatspi.STATE_READ_ONLY)
    )
    editor.click()
    for expression in json.loads(v["sums"]):
        typeText(expression)
        pressKey("Return")


run(policy)
