"""Impress: close the template chooser, title slide 1, Slide > New Slide, title it, save .odp.

LibreOffice names a slide's placeholders with a trailing space ("PresentationTitle "):
common.item() compares names stripped.
"""
from common import item, run
from dogtail.rawinput import typeText


def policy(app, v):
    templates = app.child(name="Select a Template", roleName="dialog", recursive=False)
    templates.button("Close").click()
    frame = app.child(roleName="frame", recursive=False)
    item(frame, "panel", "PresentationTitle").click()
    typeText(v["title"])
    menu = frame.menu("Slide")
    menu.click()
    item(menu, "menu item", "New Slide").click()
    item(frame, "panel", "PresentationTitle").click()
    typeText(v["slide"])
    item(frame, "panel", "PresentationOutliner").click()
    typeText(v["point"])
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save As...").click()
    dialog = app.child(name="Save", roleName="file chooser", recursive=False)
    dialog.child(roleName="text").text = v["odp"]
    dialog.button("Save").click()


run(policy)
