"""Mousepad: rewrite a draft and save it over an existing file, confirming the replace."""
from common import item, run
from dogtail.rawinput import keyCombo, typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    text = frame.child(roleName="text")
    text.click()
    keyCombo("<Control>a")
    typeText(v["text"])
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save As...").click()
    dialog = app.child(name="Save As", roleName="file chooser")
    dialog.child(roleName="text").text = "report.txt"
    dialog.button("Save").click()
    question = app.child(name="Question", roleName="alert")
    question.button("Replace").click()


run(policy)
