"""DB Browser for SQLite: edit a cell in Browse Data and write the change."""
from common import run
from dogtail.rawinput import typeText


def policy(app, v):
    frame = app.child(roleName="frame")
    frame.child(name="Browse Data", roleName="page tab").click()
    # A double click opens the cell in the Edit Database Cell dock, its text selected:
    # typing replaces it, and Apply puts it in the cell.
    frame.child(name=v["old"], roleName="table cell").doubleClick()
    typeText(v["qty"])
    frame.button("Apply").click()
    frame.button("Write Changes").click()


run(policy)
