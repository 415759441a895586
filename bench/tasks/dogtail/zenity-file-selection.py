"""zenity --file-selection: open a folder, choose a file in it, OK."""
from common import run


def policy(app, v):
    dialog = app.child(name="Pick an invoice", roleName="file chooser")
    files = dialog.child(name="Files", roleName="table")
    files.child(name=v["folder"], roleName="table cell").doubleClick()
    files.child(name=v["file"], roleName="table cell").click()
    dialog.button("OK").click()


run(policy)
