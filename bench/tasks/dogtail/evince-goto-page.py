"""evince: read on the contents page where a chapter starts and go there by page number."""
import re

from common import run
from dogtail.rawinput import keyCombo, typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    contents = frame.findChild(lambda n: n.roleName == "page" and "Contents" in (n.text or ""))
    page = re.search(r"%s \.+ page (\d+)" % v["chapter"], contents.text).group(1)
    entry = frame.child(name="page-label-entry", roleName="text")
    entry.click()
    keyCombo("<Control>a")
    typeText(page)
    keyCombo("Return")
    frame.findChild(lambda n: n.roleName == "page" and "Chapter: " + v["chapter"] in (n.text or ""))


run(policy)
