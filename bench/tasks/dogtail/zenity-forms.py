"""zenity --forms: fill two entries, a password and a combo, OK."""
from common import run


def field(dialog, label):
    """The field zenity puts just before its label (sniff shows no label relation)."""
    lbl = dialog.child(name=label, roleName="label")
    return lbl.parent.children[lbl.indexInParent - 1]


def policy(app, v):
    dialog = app.child(name="New contact", roleName="dialog")
    for label, value in (("Name", v["name"]), ("Email", v["email"]), ("PIN", v["pin"])):
        field(dialog, label).typeText(value)
    team = field(dialog, "Team")
    team.click()
    team.child(name=v["team"], roleName="menu item").click()
    dialog.button("OK").click()


run(policy)
