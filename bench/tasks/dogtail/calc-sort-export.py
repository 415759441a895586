"""Calc: select a table, Data > Sort ascending by Score in its dialog, save as CSV.

Windows are looked up among the app's own children only: a recursive search from the app
walks into the sheet's millions of cells.
"""
from common import item, run
from dogtail.rawinput import keyCombo


def policy(app, v):
    frame = app.child(roleName="frame", recursive=False)
    frame.child(name="Sheet Scores", roleName="table").click()
    keyCombo("<Control>Home")
    keyCombo("<Control><Shift>End")
    menu = frame.menu("Data")
    menu.click()
    item(menu, "menu item", "Sort...").click()
    sort = app.child(name="Sort", roleName="dialog", recursive=False)
    key = sort.child(name="Sort Key 1", roleName="panel")
    key.child(roleName="toggle button").click()
    popup = app.child(roleName="window", recursive=False)
    popup.child(name="Score", roleName="table cell").click()
    key.child(name="Ascending", roleName="radio button").click()
    sort.button("OK").click()
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
    options.button("OK").click()


run(policy)
