"""Chromium: search a catalogue, open the book found, pick a branch and reserve it."""
from common import run
from dogtail.rawinput import typeText
from web_common import choose, page


def policy(app, v):
    doc = page(app, "Library catalogue")
    doc.child(name="Search titles", roleName="entry").click()
    typeText(v["search"])
    # The list filters as one types; the book is clicked once it shows.
    doc.child(name=v["title"], roleName="link", showingOnly=True).click()
    book = page(app, v["title"])
    choose(app, book, "Pick up at", v["branch"])
    book.child(name="Reserve this book", roleName="push button").click()
    page(app, "Reservation confirmed")


run(policy)
