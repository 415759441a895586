"""A GTK 4 window for tests/map_truths_test.ts: a Name entry whose text enables a Save
button (as a file chooser's), and a Gtk.Stack whose hidden page holds widgets a map must
not list ("Could Not Open File"), and a Flip Page button that shows the other page. It prints each change on stdout (one line, flushed), so
a test checks the effect by the app's own word.

    python3 truths_gtk4.py TITLE
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


def named(widget, name):
    widget.update_property([Gtk.AccessibleProperty.LABEL], [name])
    return widget


def build(app):
    window = Gtk.ApplicationWindow(application=app, title=sys.argv[1])
    window.set_default_size(480, 320)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    entry = named(Gtk.Entry(), "Name")
    save = Gtk.Button(label="Save")
    save.set_sensitive(False)

    def changed(e):
        on = e.get_text() != ""
        if on != save.get_sensitive():
            save.set_sensitive(on)
            say("save: %s" % ("sensitive" if on else "insensitive"))

    entry.connect("changed", changed)
    save.connect("clicked", lambda _b: say("save: clicked"))
    box.append(entry)
    box.append(save)
    stack = Gtk.Stack()
    shown = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    shown.append(Gtk.Label(label="Page shown"))
    hidden = Gtk.Box(orientation=Gtk.Orientation.VERTICAL)
    hidden.append(Gtk.Label(label="Could Not Open File"))
    hidden.append(Gtk.Button(label="Retry Opening"))
    stack.add_named(shown, "shown")
    stack.add_named(hidden, "hidden")
    stack.set_visible_child_name("shown")
    box.append(stack)
    flip = Gtk.Button(label="Flip Page")

    def flipped(_b):
        now = "hidden" if stack.get_visible_child_name() == "shown" else "shown"
        stack.set_visible_child_name(now)
        say("page: %s" % now)

    flip.connect("clicked", flipped)
    box.append(flip)
    window.set_child(box)
    window.present()
    GLib.idle_add(lambda: say("ready"))


app = Gtk.Application(application_id=None)
app.connect("activate", build)
app.run([])
