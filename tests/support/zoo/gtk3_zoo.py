"""The widget zoo in GTK 3: one window holding the zoo's common widget set (tests/README's
zoo spec), each widget printing its state changes on stdout (one `key: state` line each,
flushed) from its own handlers, so a test checks an action's effect by the app's word.

GTK 3 has no input masks: "Phone" is an entry that rejects anything but digits. Lists and
the table are GtkTreeViews (as zenity's and Thunar's); the dialog runs `gtk_dialog_run`.

    python3 gtk3_zoo.py TITLE
"""
import sys

import gi

gi.require_version("Gtk", "3.0")
from gi.repository import Gtk  # noqa: E402

COLORS = ["Red", "Green", "Blue", "Cyan", "Magenta"]
TAGS = ["alpha", "beta", "gamma", "delta"]
PEOPLE = [("Ann", 31), ("Bob", 25), ("Cid", 40)]
PLACES = [("Europe", ["Paris", "Rome"]), ("Asia", ["Tokyo"])]


def say(line):
    print(line.replace("\n", "\\n"), flush=True)


def named(widget, name):
    widget.get_accessible().set_name(name)
    return widget


def text_of(buffer):
    return buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), True)


def ask(window):
    """The modal dialog, run in the handler's own nested loop (gtk_dialog_run)."""
    dialog = Gtk.Dialog(title="Zoo dialog", transient_for=window, modal=True)
    dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
    dialog.add_button("OK", Gtk.ResponseType.OK)
    entry = named(Gtk.Entry(), "Answer")
    dialog.get_content_area().add(entry)
    dialog.show_all()
    say("dialog: shown")
    response = dialog.run()
    if response == Gtk.ResponseType.OK:
        say("dialog: ok %s" % entry.get_text())
    else:
        say("dialog: cancel")
    dialog.destroy()


def palette(window):
    win = Gtk.Window(title="Zoo palette", transient_for=window)
    button = Gtk.Button(label="Close palette")
    button.connect("clicked", lambda _b: win.destroy())
    win.connect("destroy", lambda _w: say("palette: closed"))
    win.add(button)
    win.show_all()
    say("palette: shown")


def field(grid, row, label, widget):
    grid.attach(Gtk.Label(label=label, xalign=0), 0, row, 1, 1)
    grid.attach(widget, 1, row, 1, 1)


def text_fields(grid):
    name = named(Gtk.Entry(), "Name")
    name.connect("changed", lambda e: say("name: %s" % e.get_text()))
    field(grid, 0, "Name", name)
    notes = named(Gtk.TextView(), "Notes")
    notes.get_buffer().connect("changed", lambda b: say("notes: %s" % text_of(b)))
    frame = Gtk.ScrolledWindow(min_content_height=60, shadow_type=Gtk.ShadowType.IN)
    frame.add(notes)
    field(grid, 1, "Notes", frame)
    password = named(Gtk.Entry(visibility=False), "Password")
    password.connect("changed", lambda e: say("password: %d" % len(e.get_text())))
    field(grid, 2, "Password", password)
    phone = named(Gtk.Entry(), "Phone")

    def digits_only(entry, text, _length, _position):
        if not text.isdigit():
            entry.stop_emission_by_name("insert-text")

    phone.connect("insert-text", digits_only)
    phone.connect("changed", lambda e: say("phone: %s" % e.get_text()))
    field(grid, 3, "Phone", phone)


def count_field(grid):
    count = named(Gtk.SpinButton.new_with_range(0, 10, 1), "Count")

    def shown(spin):
        spin.set_text("%d / 10" % spin.get_value_as_int())
        return True

    def parsed(spin):
        head = spin.get_text().split("/")[0].strip()
        try:
            return True, float(int(head))
        except ValueError:
            return Gtk.INPUT_ERROR, 0.0

    count.connect("output", shown)
    count.connect("input", parsed)
    count.connect("value-changed", lambda s: say("count: %d" % s.get_value_as_int()))
    field(grid, 4, "Count", count)


def combos(grid):
    fruit = named(Gtk.ComboBoxText(), "Fruit")
    for option in ("Apple", "Banana", "Cherry"):
        fruit.append_text(option)
    fruit.set_active(0)
    fruit.connect("changed", lambda c: say("fruit: %s" % c.get_active_text()))
    fruit.connect(
        "notify::popup-shown",
        lambda c, _p: say("fruit menu: %s" % ("shown" if c.get_property("popup-shown") else "hidden")),
    )
    field(grid, 5, "Fruit", fruit)
    city = named(Gtk.ComboBoxText.new_with_entry(), "City")
    for option in ("Paris", "Rome", "Oslo"):
        city.append_text(option)
    named(city.get_child(), "City")
    city.get_child().connect("changed", lambda e: say("city: %s" % e.get_text()))
    field(grid, 6, "City", city)
    volume = named(Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1), "Volume")
    volume.connect("value-changed", lambda s: say("volume: %d" % round(s.get_value())))
    field(grid, 7, "Volume", volume)


def toggles(box, window):
    agree = Gtk.CheckButton(label="Agree")
    agree.connect("toggled", lambda b: say("agree: %s" % ("on" if b.get_active() else "off")))
    box.add(agree)
    small = Gtk.RadioButton(label="Small")
    large = Gtk.RadioButton(label="Large", group=small)
    for radio in (small, large):
        radio.connect("toggled", lambda r: r.get_active() and say("size: %s" % r.get_label()))
        box.add(radio)
    bold = Gtk.ToggleButton(label="Bold")
    bold.connect("toggled", lambda b: say("bold: %s" % ("on" if b.get_active() else "off")))
    box.add(bold)
    refresh = Gtk.Button.new_from_icon_name("view-refresh", Gtk.IconSize.BUTTON)
    refresh.set_tooltip_text("Refresh")
    refresh.get_accessible().set_description("Refresh")
    refresh.connect("clicked", lambda _b: say("refresh: clicked"))
    box.add(refresh)
    modal = Gtk.Button(label="Open modal")
    modal.connect("clicked", lambda _b: ask(window))
    box.add(modal)
    opener = Gtk.Button(label="Open palette")
    opener.connect("clicked", lambda _b: palette(window))
    box.add(opener)


def listed(name, rows, mode, height):
    store = Gtk.ListStore(str)
    for row in rows:
        store.append([row])
    view = named(Gtk.TreeView(model=store, headers_visible=False), name)
    view.append_column(Gtk.TreeViewColumn(name, Gtk.CellRendererText(), text=0))
    view.get_selection().set_mode(mode)
    key = name.lower()

    def selected(selection):
        model, paths = selection.get_selected_rows()
        say("%s: %s" % (key, ",".join(model[p][0] for p in paths)))

    view.get_selection().connect("changed", selected)
    scroller = Gtk.ScrolledWindow(min_content_height=height, shadow_type=Gtk.ShadowType.IN)
    scroller.add(view)
    return view, scroller


def colors_menu(view):
    menu = Gtk.Menu()
    clear = Gtk.MenuItem(label="Clear colors")
    clear.connect("activate", lambda _i: (view.get_selection().unselect_all(), say("menu: Clear colors")))
    menu.append(clear)
    menu.show_all()
    menu.attach_to_widget(view)
    menu.connect("show", lambda _m: say("colors menu: shown"))
    menu.connect("hide", lambda _m: say("colors menu: hidden"))

    def pop(_widget, event=None):
        if event is None or event.button == 3:
            menu.popup_at_pointer(event)
            return True
        return False

    view.connect("button-press-event", pop)
    view.connect("popup-menu", pop)


def lists(box):
    colors, scroller = listed("Colors", COLORS, Gtk.SelectionMode.SINGLE, 120)
    colors.connect(
        "row-activated", lambda v, p, _c: say("colors activated: %s" % v.get_model()[p][0])
    )
    colors_menu(colors)
    box.pack_start(scroller, False, False, 0)
    _tags, scroller = listed("Tags", TAGS, Gtk.SelectionMode.MULTIPLE, 100)
    box.pack_start(scroller, False, False, 0)
    store = Gtk.TreeStore(str)
    for top, children in PLACES:
        parent = store.append(None, [top])
        for child in children:
            store.append(parent, [child])
    places = named(Gtk.TreeView(model=store, headers_visible=False), "Places")
    places.append_column(Gtk.TreeViewColumn("Places", Gtk.CellRendererText(), text=0))
    places.connect("row-expanded", lambda v, i, _p: say("places expanded: %s" % store[i][0]))
    places.connect("row-collapsed", lambda v, i, _p: say("places collapsed: %s" % store[i][0]))

    def selected(selection):
        model, it = selection.get_selected()
        if it is not None:
            say("places selected: %s" % model[it][0])

    places.get_selection().connect("changed", selected)
    scroller = Gtk.ScrolledWindow(min_content_height=140, shadow_type=Gtk.ShadowType.IN)
    scroller.add(places)
    box.pack_start(scroller, False, False, 0)


def people(box):
    store = Gtk.ListStore(str, int)
    for person in PEOPLE:
        store.append(list(person))
    view = named(Gtk.TreeView(model=store), "People")
    for index, title in enumerate(("Name", "Age")):
        column = Gtk.TreeViewColumn(title, Gtk.CellRendererText(), text=index)
        column.set_sort_column_id(index)
        view.append_column(column)

    def shown():
        say("people: %s" % ",".join(row[0] for row in store))

    def sorted_by(model):
        index, order = model.get_sort_column_id()
        if index is not None and index >= 0:
            direction = "asc" if order == Gtk.SortType.ASCENDING else "desc"
            say("people sorted: %s %s" % (("Name", "Age")[index], direction))

    store.connect("sort-column-changed", sorted_by)
    store.connect("rows-reordered", lambda *_a: shown())

    def selected(selection):
        model, it = selection.get_selected()
        if it is not None:
            say("people selected: %s" % model[it][0])

    view.get_selection().connect("changed", selected)
    scroller = Gtk.ScrolledWindow(min_content_height=130, shadow_type=Gtk.ShadowType.IN)
    scroller.add(view)
    box.pack_start(scroller, False, False, 0)
    add = Gtk.Button(label="Add person")
    add.connect("clicked", lambda _b: (store.insert(0, ["Dee", 22]), shown()))
    remove = Gtk.Button(label="Remove person")

    def removed(_b):
        first = store.get_iter_first()
        if first is not None:
            store.remove(first)
        shown()

    remove.connect("clicked", removed)
    buttons = Gtk.Box(spacing=6)
    buttons.add(add)
    buttons.add(remove)
    box.pack_start(buttons, False, False, 0)


def tabs(box):
    notebook = Gtk.Notebook()
    for title in ("General", "Advanced"):
        notebook.append_page(Gtk.Label(label="%s settings" % title), Gtk.Label(label=title))
    notebook.connect(
        "switch-page", lambda n, page, _i: say("tab: %s" % n.get_tab_label_text(page))
    )
    box.pack_start(notebook, False, False, 0)


def menu_bar(window):
    bar = Gtk.MenuBar()
    top = Gtk.MenuItem(label="File")
    menu = Gtk.Menu()
    opener = Gtk.MenuItem(label="Open dialog…")
    opener.connect("activate", lambda _i: ask(window))
    hello = Gtk.MenuItem(label="Say hello")
    hello.connect("activate", lambda _i: say("menu: Say hello"))
    menu.append(opener)
    menu.append(hello)
    top.set_submenu(menu)
    bar.append(top)
    return bar


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "GTK 3 zoo"
    window = Gtk.Window(title=title)
    window.set_default_size(900, 600)
    window.connect("destroy", Gtk.main_quit)
    outer = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    outer.pack_start(menu_bar(window), False, False, 0)
    columns = Gtk.Box(spacing=12, margin=8)
    grid = Gtk.Grid(row_spacing=4, column_spacing=6)
    text_fields(grid)
    count_field(grid)
    combos(grid)
    first = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=4)
    first.pack_start(grid, False, False, 0)
    toggles(first, window)
    second = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    lists(second)
    third = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    people(third)
    tabs(third)
    for column in (first, second, third):
        columns.pack_start(column, True, True, 0)
    outer.pack_start(columns, True, True, 0)
    window.add(outer)
    window.show_all()
    say("ready")
    Gtk.main()


main()
