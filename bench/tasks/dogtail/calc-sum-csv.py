"""Calc: fill a range, add a =SUM formula, save as CSV (file chooser, keep format, options).

A sheet has millions of cells on the bus, and a recursive search that walks into it asks
for each one: windows are looked up among the app's own children only, and the sheet is
reached by the keyboard, the way dogtail scripts drive a spreadsheet.
"""
from common import item, run
from dogtail.rawinput import keyCombo, typeText


def policy(app, v):
    frame = app.child(roleName="frame", recursive=False)
    sheet = frame.child(name="Sheet Budget", roleName="table")
    sheet.click()
    keyCombo("<Control>Home")
    keyCombo("Down")
    typeText("Rent\t1200\nFood\t350\nTravel\t80\nTotal\t=SUM(B2:B4)\n")
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save As...").click()
    dialog = app.child(name="Save", roleName="file chooser", recursive=False)
    # The chooser keeps hidden combo boxes of its other modes: the shown one is the type.
    dialog.child(roleName="combo box", showingOnly=True).click()
    # The CSV filter sits below the screen's edge in the long list: its own action.
    item(dialog, "menu item", "Text CSV (.csv)").doActionNamed("click")
    dialog.child(roleName="text").text = v["csv"]
    dialog.button("Save").click()
    keep = app.child(name="Question", roleName="alert", recursive=False)
    keep.button("Use Text CSV Format").click()
    options = app.child(name="Export Text File", roleName="dialog", recursive=False)
    options.child(name="Save cell formulas instead of calculated values",
                  roleName="check box").click()
    options.button("OK").click()


run(policy)
