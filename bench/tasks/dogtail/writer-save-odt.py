"""Writer: type three paragraphs, save as .odt through the file chooser."""
from common import item, run
from dogtail.rawinput import typeText


def policy(app, v):
    frame = app.child(roleName="frame", recursive=False)
    frame.child(roleName="document text").click()
    typeText(v["text"])
    menu = frame.menu("File")
    menu.click()
    item(menu, "menu item", "Save As...").click()
    dialog = app.child(name="Save", roleName="file chooser", recursive=False)
    dialog.child(roleName="text").text = v["odt"]
    dialog.button("Save").click()


run(policy)
