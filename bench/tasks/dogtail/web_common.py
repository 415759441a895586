"""What the web tasks' dogtail policies share (bench/tasks/web.ts): the same pages in
Firefox and Chromium, worked as dogtail's documentation teaches, by finding nodes by role
and name in the browser's tree, clicking them and typing.

A page's <select> opens its drop-down on a click; the options of the open drop-down are
the showing "menu item"s (Firefox draws it in its own process, Chromium in a popup of
its own), clicked like any menu item.
"""
from dogtail.rawinput import typeText


def page(app, title):
    """The document of the page titled `title`, once the browser shows it."""
    return app.child(name=title, roleName="document web")


def fill(doc, role, name, text):
    """Clicks into the field and types `text`, as a user does."""
    doc.child(name=name, roleName=role).click()
    typeText(text)


def choose(app, doc, combo, option):
    """Opens the drop-down `combo` of `doc` and clicks its `option`."""
    doc.child(name=combo, roleName="combo box").click()
    app.child(name=option, roleName="menu item", showingOnly=True).click()


def registration(app, v):
    """Fills the registration form and registers."""
    doc = page(app, v["title"])
    fill(doc, "entry", "Full name", v["name"])
    fill(doc, "entry", "Email", v["email"])
    choose(app, doc, "Ticket", v["ticket"])
    doc.child(name=v["track"], roleName="radio button").click()
    # The date's parts take digits and move on by themselves: month, day, year.
    date = doc.child(name="Arrival date", roleName="date editor")
    date.child(roleName="spin button").click()
    typeText(v["arrivalDigits"])
    fill(doc, "entry", "Comments", v["comments"])
    doc.child(name="Send me the newsletter", roleName="check box").click()
    doc.child(name="I accept the code of conduct", roleName="check box").click()
    doc.child(name="Register", roleName="push button").click()
    page(app, "Registration received")


def sign_in_and_order(app, v):
    """Signs in, then fills the order and places it."""
    doc = page(app, "Sign in")
    fill(doc, "entry", "Username", v["username"])
    fill(doc, "password text", "Password", v["password"])
    doc.child(name="Sign in", roleName="push button").click()
    doc = page(app, "Place an order")
    choose(app, doc, "Product", v["product"])
    quantity = doc.child(name="Quantity", roleName="spin button")
    quantity.click()
    # The field holds 1: select it to type over it.
    quantity.keyCombo("<Control>a")
    typeText(v["quantity"])
    choose(app, doc, "Delivery", v["delivery"])
    fill(doc, "entry", "Delivery note", v["note"])
    doc.child(name="Place order", roleName="push button").click()
    page(app, "Order confirmed").child(name="Order confirmed", roleName="heading")
