"""Writer: type a title, style it Heading 1, a paragraph, Export as PDF (tagged)."""
from common import item, run
from dogtail.rawinput import keyCombo, typeText


def policy(app, v):
    frame = app.child(roleName="frame", recursive=False)
    frame.child(roleName="document text").click()
    typeText(v["title"])
    style = frame.child(name="Paragraph Style", roleName="panel")
    style.child(roleName="text").click()
    keyCombo("<Control>a")
    typeText("Heading 1\n")
    typeText("\n" + v["body"])
    menu = frame.menu("File")
    menu.click()
    export = menu.menu("Export As")
    export.click()
    item(export, "menu item", "Export as PDF...").click()
    options = app.child(name="PDF Options", roleName="dialog", recursive=False)
    options.child(name="Tagged PDF (add document structure)", roleName="check box").click()
    options.button("Export").click()
    chooser = app.child(name="Export", roleName="file chooser", recursive=False)
    chooser.child(roleName="text").text = v["pdf"]
    chooser.button("Export").click()


run(policy)
