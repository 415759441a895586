"""Gnumeric: add a Total row with =SUM through the name box and edit line, export CSV."""
import re

from common import item, run
from dogtail.rawinput import keyCombo, typeText


def enter(field, text):
    """Types into a field Gnumeric reads on Enter."""
    field.click()
    keyCombo("<Control>a")
    typeText(text)
    keyCombo("Return")


def field(frame, test):
    """The text field whose text passes `test`: the name box and the edit line have no names."""
    return frame.findChild(lambda n: n.roleName == "text" and test(n.text or ""))


def name_box(frame):
    return field(frame, lambda t: re.fullmatch(r"[A-Z]+[0-9]+", t))


def edit_line(frame):
    """The edit line on an empty cell."""
    return field(frame, lambda t: t == "")


def policy(app, v):
    frame = app.child(roleName="frame")
    enter(name_box(frame), "A5")
    enter(edit_line(frame), "Total")
    enter(name_box(frame), "B5")
    enter(edit_line(frame), "=SUM(B2:B4)")
    data = frame.menu("Data")
    data.click()
    export = data.menu("Export Data")
    export.click()
    item(export, "menu item", "Export as CSV File...").click()
    dialog = app.child(name="Export the current workbook or sheet to", roleName="file chooser")
    dialog.child(roleName="text").text = "expenses-total.csv"
    dialog.button("Save").click()


run(policy)
