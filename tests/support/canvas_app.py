#!/usr/bin/python3
"""A GTK 3 app whose window is one drawing area: on the accessibility bus, with a tree
too thin to use (a frame and an unnamed canvas). It draws a status line and a "Press"
button; a click on the button changes the status to "Pressed". Tests read it with
read_ui source: both and press the button by its vision element."""
import gi

gi.require_version("Gtk", "3.0")
gi.require_version("Gdk", "3.0")
from gi.repository import Gdk, GLib, Gtk  # noqa: E402

GLib.set_prgname("canvas-app")
state = {"text": "Ready"}
BUTTON = (40, 110, 160, 56)  # x, y, w, h in window pixels


def draw(_widget, cr):
    cr.set_source_rgb(1, 1, 1)
    cr.paint()
    cr.set_source_rgb(0, 0, 0)
    cr.select_font_face("DejaVu Sans")
    cr.set_font_size(30)
    cr.move_to(40, 70)
    cr.show_text(state["text"])
    x, y, w, h = BUTTON
    cr.set_source_rgb(0.82, 0.82, 0.82)
    cr.rectangle(x, y, w, h)
    cr.fill()
    cr.set_source_rgb(0.2, 0.2, 0.2)
    cr.set_line_width(2)
    cr.rectangle(x, y, w, h)
    cr.stroke()
    cr.set_source_rgb(0, 0, 0)
    cr.set_font_size(26)
    cr.move_to(x + 36, y + 38)
    cr.show_text("Press")


def click(widget, event):
    x, y, w, h = BUTTON
    if x <= event.x <= x + w and y <= event.y <= y + h:
        state["text"] = "Pressed"
        widget.queue_draw()


win = Gtk.Window(title="Canvas app")
win.set_default_size(420, 220)
area = Gtk.DrawingArea()
area.add_events(Gdk.EventMask.BUTTON_PRESS_MASK)
area.connect("draw", draw)
area.connect("button-press-event", click)
win.add(area)
win.connect("destroy", Gtk.main_quit)
win.show_all()
Gtk.main()
