"""A GTK 3 window whose button and menu item open a modal dialog the way many GTK 3 apps do:
with gtk_dialog_run(), a loop of the dialog's own inside the button's handler. It prints
every state change on stdout (one line each, flushed), so a test checks the effect by the
app's own word, not the driver's.

    python3 gtk3_modal.py TITLE
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402


def say(line):
    print(line, flush=True)


def ask(window):
    dialog = Gtk.Dialog(title="Rename item", transient_for=window, modal=True)
    dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
    dialog.add_button("Rename", Gtk.ResponseType.OK)
    entry = Gtk.Entry()
    entry.get_accessible().set_name("New name")
    dialog.get_content_area().add(entry)
    dialog.show_all()
    say("dialog: shown")
    response = dialog.run()  # the nested loop that holds the accessibility call
    say("dialog: %s %s" % ("ok" if response == Gtk.ResponseType.OK else "cancel", entry.get_text()))
    dialog.destroy()


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Modal app"
    window = Gtk.Window(title=title)
    window.set_default_size(420, 260)
    window.connect("destroy", Gtk.main_quit)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    bar = Gtk.MenuBar()
    top = Gtk.MenuItem(label="Item")
    menu = Gtk.Menu()
    rename = Gtk.MenuItem(label="Rename…")
    rename.connect("activate", lambda _item: ask(window))
    menu.append(rename)
    top.set_submenu(menu)
    bar.append(top)
    box.pack_start(bar, False, False, 0)
    button = Gtk.Button(label="Rename with a dialog")
    button.connect("clicked", lambda _button: ask(window))
    box.pack_start(button, False, False, 0)
    notes = Gtk.Entry()
    notes.get_accessible().set_name("Notes")
    notes.connect("changed", lambda e: say("notes: %s" % e.get_text()))
    box.pack_start(notes, False, False, 0)
    window.add(box)
    window.show_all()
    say("ready")
    Gtk.main()


main()
