"""A GTK 4 window whose button and menu item open a modal dialog. GTK 4 has no
gtk_dialog_run(): a modal window transient for its parent is shown, and its answer comes
later through a signal (a Gtk.Dialog's "response" for the button, a plain Gtk.Window's
buttons' "clicked" for the menu item), so both kinds of GTK 4 dialog are covered. It prints
every state change on stdout (one line each, flushed), so a test checks the effect by the
app's own word, not the driver's.

    python3 gtk4_modal.py TITLE
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gio, GLib, Gtk  # noqa: E402

TITLE = "Rename item"


def say(line):
    print(line, flush=True)


def named(widget, name):
    """Gives `widget` the accessible name `name` (GTK 4's LABEL property)."""
    widget.update_property([Gtk.AccessibleProperty.LABEL], [name])
    return widget


def answered(dialog, ok, entry):
    say("dialog: %s %s" % ("ok" if ok else "cancel", entry.get_text()))
    dialog.destroy()


def ask_dialog(window):
    """A Gtk.Dialog with its buttons in the action area, answered by "response"."""
    dialog = Gtk.Dialog(title=TITLE, transient_for=window, modal=True, use_header_bar=0)
    dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
    dialog.add_button("Rename", Gtk.ResponseType.OK)
    entry = named(Gtk.Entry(), "New name")
    dialog.get_content_area().append(entry)
    dialog.connect(
        "response", lambda d, response: answered(d, response == Gtk.ResponseType.OK, entry)
    )
    dialog.present()
    say("dialog: shown")


def ask_window(window):
    """A plain modal Gtk.Window with an entry and two buttons, answered by "clicked"."""
    dialog = Gtk.Window(title=TITLE, transient_for=window, modal=True)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    entry = named(Gtk.Entry(), "New name")
    box.append(entry)
    buttons = Gtk.Box(orientation=Gtk.Orientation.HORIZONTAL, spacing=6)
    for label, ok in (("Cancel", False), ("Rename", True)):
        button = Gtk.Button(label=label)
        button.connect("clicked", lambda _b, ok=ok: answered(dialog, ok, entry))
        buttons.append(button)
    box.append(buttons)
    dialog.set_child(box)
    dialog.present()
    say("dialog: shown")


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Modal app"
    loop = GLib.MainLoop()
    window = Gtk.Window(title=title)
    window.set_default_size(420, 260)
    window.connect("close-request", lambda _w: loop.quit() or False)
    actions = Gio.SimpleActionGroup()
    rename = Gio.SimpleAction.new("rename", None)
    rename.connect("activate", lambda _a, _p: ask_window(window))
    actions.add_action(rename)
    window.insert_action_group("zoo", actions)
    model = Gio.Menu()
    item = Gio.Menu()
    item.append("Rename…", "zoo.rename")
    model.append_submenu("Item", item)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    box.append(Gtk.PopoverMenuBar.new_from_model(model))
    button = Gtk.Button(label="Rename with a dialog")
    button.connect("clicked", lambda _b: ask_dialog(window))
    box.append(button)
    notes = named(Gtk.Entry(), "Notes")
    notes.connect("changed", lambda e: say("notes: %s" % e.get_text()))
    box.append(notes)
    window.set_child(box)
    window.present()
    say("ready")
    loop.run()


main()
