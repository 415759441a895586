"""The widget zoo in GTK 4: one window holding the zoo's common widget set (the zoo spec),
each widget printing its state changes on stdout (one `key: state` line each, flushed) from
its own handlers, so a test checks an action's effect by the app's word.

GTK 4 has no input masks: "Phone" is an entry that rejects anything but digits. It has no
gtk_dialog_run either: "Open modal" presents a modal Gtk.Dialog answered by "response", the
File menu's "Open dialog…" a modal Gtk.Window answered by its buttons' "clicked". The lists
are Gtk.ListBoxes, the table a Gtk.ColumnView, the tree a Gtk.ListView of a
Gtk.TreeListModel (GTK 4's tree view publishes no rows). GTK 4.8 cannot say which column
a column view sorts by, so the zoo tells it from the order it shows.

    python3 gtk4_zoo.py TITLE
"""
import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gdk, Gio, GLib, GObject, Gtk  # noqa: E402

COLORS = ["Red", "Green", "Blue", "Cyan", "Magenta"]
TAGS = ["alpha", "beta", "gamma", "delta"]
PEOPLE = [("Ann", 31), ("Bob", 25), ("Cid", 40)]
PLACES = [("Europe", ["Paris", "Rome"]), ("Asia", ["Tokyo"])]


def say(line):
    print(line.replace("\n", "\\n"), flush=True)


def named(widget, name):
    widget.update_property([Gtk.AccessibleProperty.LABEL], [name])
    return widget


class Item(GObject.Object):
    """A row of the table or the tree: a name, an age, children."""

    def __init__(self, name, age=0, children=()):
        super().__init__()
        self.name, self.age, self.children = name, age, list(children)


def compare(key):
    return Gtk.CustomSorter.new(lambda a, b, _d: (key(a) > key(b)) - (key(a) < key(b)), None)


def labelled(key):
    """A factory showing `key(item)` of each row in a label."""
    factory = Gtk.SignalListItemFactory()
    factory.connect("setup", lambda _f, cell: cell.set_child(Gtk.Label(xalign=0)))
    factory.connect("bind", lambda _f, cell: cell.get_child().set_text(key(cell.get_item())))
    return factory


def answered(dialog, ok, entry):
    say("dialog: ok %s" % entry.get_text() if ok else "dialog: cancel")
    dialog.destroy()


def ask_dialog(window):
    dialog = Gtk.Dialog(title="Zoo dialog", transient_for=window, modal=True, use_header_bar=0)
    dialog.add_button("Cancel", Gtk.ResponseType.CANCEL)
    dialog.add_button("OK", Gtk.ResponseType.OK)
    entry = named(Gtk.Entry(), "Answer")
    dialog.get_content_area().append(entry)
    dialog.connect("response", lambda d, r: answered(d, r == Gtk.ResponseType.OK, entry))
    dialog.present()
    say("dialog: shown")


def ask_window(window):
    dialog = Gtk.Window(title="Zoo dialog", transient_for=window, modal=True)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=6)
    entry = named(Gtk.Entry(), "Answer")
    box.append(entry)
    buttons = Gtk.Box(spacing=6)
    for label, ok in (("Cancel", False), ("OK", True)):
        button = Gtk.Button(label=label)
        button.connect("clicked", lambda _b, ok=ok: answered(dialog, ok, entry))
        buttons.append(button)
    box.append(buttons)
    dialog.set_child(box)
    dialog.present()
    say("dialog: shown")


def palette(window):
    win = Gtk.Window(title="Zoo palette", transient_for=window)
    button = Gtk.Button(label="Close palette")
    # GTK 4 emits "destroy" only once the last reference goes, which Python may hold.
    button.connect("clicked", lambda _b: win.close())
    win.connect("close-request", lambda _w: say("palette: closed") or False)
    win.set_child(button)
    win.present()
    say("palette: shown")


def field(grid, row, label, widget):
    grid.attach(Gtk.Label(label=label, xalign=0), 0, row, 1, 1)
    grid.attach(widget, 1, row, 1, 1)


def text_fields(grid):
    name = named(Gtk.Entry(), "Name")
    name.connect("changed", lambda e: say("name: %s" % e.get_text()))
    field(grid, 0, "Name", name)
    notes = named(Gtk.TextView(), "Notes")
    buffer = notes.get_buffer()
    buffer.connect(
        "changed",
        lambda b: say("notes: %s" % b.get_text(b.get_start_iter(), b.get_end_iter(), True)),
    )
    field(grid, 1, "Notes", Gtk.ScrolledWindow(child=notes, min_content_height=60, has_frame=True))
    password = named(Gtk.PasswordEntry(), "Password")
    password.connect("changed", lambda e: say("password: %d" % len(e.get_text())))
    field(grid, 2, "Password", password)
    phone = named(Gtk.Entry(), "Phone")
    text = phone.get_delegate()

    def digits_only(editable, inserted, _length, _position):
        if not inserted.isdigit():
            editable.stop_emission_by_name("insert-text")

    text.connect("insert-text", digits_only)
    phone.connect("changed", lambda e: say("phone: %s" % e.get_text()))
    field(grid, 3, "Phone", phone)


def count_field(grid):
    count = named(Gtk.SpinButton.new_with_range(0, 10, 1), "Count")

    def shown(spin):
        spin.set_text("%d / 10" % spin.get_value_as_int())
        return True

    def parsed(spin):
        try:
            return True, float(int(spin.get_text().split("/")[0].strip()))
        except ValueError:
            return Gtk.INPUT_ERROR, 0.0

    count.connect("output", shown)
    count.connect("input", parsed)
    count.connect("value-changed", lambda s: say("count: %d" % s.get_value_as_int()))
    field(grid, 4, "Count", count)


def choosers(grid):
    fruit = named(Gtk.DropDown.new_from_strings(["Apple", "Banana", "Cherry"]), "Fruit")
    fruit.connect(
        "notify::selected", lambda d, _p: say("fruit: %s" % d.get_selected_item().get_string())
    )
    # The drop-down's popover is its last child: GTK 4.8 says nothing else of it showing.
    fruit.get_last_child().connect("show", lambda _p: say("fruit menu: shown"))
    fruit.get_last_child().connect("hide", lambda _p: say("fruit menu: hidden"))
    field(grid, 5, "Fruit", fruit)
    city = named(Gtk.ComboBoxText.new_with_entry(), "City")
    for option in ("Paris", "Rome", "Oslo"):
        city.append_text(option)
    entry = named(city.get_child(), "City")
    entry.connect("changed", lambda e: say("city: %s" % e.get_text()))
    field(grid, 6, "City", city)
    volume = named(Gtk.Scale.new_with_range(Gtk.Orientation.HORIZONTAL, 0, 100, 1), "Volume")
    volume.set_hexpand(True)
    volume.connect("value-changed", lambda s: say("volume: %d" % round(s.get_value())))
    field(grid, 7, "Volume", volume)


def toggles(box, window):
    agree = Gtk.CheckButton(label="Agree")
    agree.connect("toggled", lambda b: say("agree: %s" % ("on" if b.get_active() else "off")))
    box.append(agree)
    small = Gtk.CheckButton(label="Small", active=True)
    large = Gtk.CheckButton(label="Large", group=small)
    for radio in (small, large):
        radio.connect("toggled", lambda r: r.get_active() and say("size: %s" % r.get_label()))
        box.append(radio)
    bold = Gtk.ToggleButton(label="Bold")
    bold.connect("toggled", lambda b: say("bold: %s" % ("on" if b.get_active() else "off")))
    box.append(bold)
    refresh = Gtk.Button(icon_name="view-refresh-symbolic", tooltip_text="Refresh")
    refresh.update_property([Gtk.AccessibleProperty.DESCRIPTION], ["Refresh"])
    refresh.connect("clicked", lambda _b: say("refresh: clicked"))
    box.append(refresh)
    for label, handler in (("Open modal", ask_dialog), ("Open palette", palette)):
        button = Gtk.Button(label=label)
        button.connect("clicked", lambda _b, h=handler: h(window))
        box.append(button)


def listed(name, rows, mode):
    view = named(Gtk.ListBox(selection_mode=mode, activate_on_single_click=False), name)
    for row in rows:
        view.append(Gtk.Label(label=row, xalign=0))
    key = name.lower()

    def selected(listbox):
        rows = listbox.get_selected_rows()
        rows.sort(key=lambda r: r.get_index())
        say("%s: %s" % (key, ",".join(r.get_child().get_label() for r in rows)))

    view.connect("selected-rows-changed", selected)
    return view


def colors_menu(view, actions):
    clear = Gio.SimpleAction.new("clear", None)
    clear.connect("activate", lambda _a, _p: (view.unselect_all(), say("menu: Clear colors")))
    actions.add_action(clear)
    model = Gio.Menu()
    model.append("Clear colors", "zoo.clear")
    popover = Gtk.PopoverMenu.new_from_model(model)
    popover.set_parent(view)
    popover.set_has_arrow(False)
    popover.connect("show", lambda _p: say("colors menu: shown"))
    popover.connect("hide", lambda _p: say("colors menu: hidden"))
    click = Gtk.GestureClick(button=3)
    click.connect("pressed", lambda _g, _n, x, y: popup(popover, x, y))
    view.add_controller(click)
    keys = Gtk.ShortcutController()
    for trigger in ("<Shift>F10", "Menu"):
        keys.add_shortcut(
            Gtk.Shortcut.new(
                Gtk.ShortcutTrigger.parse_string(trigger),
                Gtk.CallbackAction.new(lambda *_a: popup(popover, 20, 20) or True),
            )
        )
    view.add_controller(keys)


def popup(popover, x, y):
    rect = Gdk.Rectangle()
    rect.x, rect.y, rect.width, rect.height = int(x), int(y), 1, 1
    popover.set_pointing_to(rect)
    popover.popup()


def places():
    root = Gio.ListStore(item_type=Item)
    for top, children in PLACES:
        root.append(Item(top, children=[Item(c) for c in children]))

    def children_of(item):
        if not item.children:
            return None
        store = Gio.ListStore(item_type=Item)
        for child in item.children:
            store.append(child)
        return store

    tree = Gtk.TreeListModel.new(root, False, False, children_of)
    watched = {}

    def expanded(row, _p):
        state = "expanded" if row.get_expanded() else "collapsed"
        say("places %s: %s" % (state, row.get_item().name))

    def setup(_f, cell):
        cell.set_child(Gtk.TreeExpander(child=Gtk.Label(xalign=0)))

    def bind(_f, cell):
        row = cell.get_item()
        cell.get_child().set_list_row(row)
        cell.get_child().get_child().set_text(row.get_item().name)
        if watched.get(row.get_item().name) is not row:
            watched[row.get_item().name] = row
            row.connect("notify::expanded", expanded)

    factory = Gtk.SignalListItemFactory()
    factory.connect("setup", setup)
    factory.connect("bind", bind)
    selection = Gtk.SingleSelection(model=tree, autoselect=False, can_unselect=True)
    selection.set_selected(Gtk.INVALID_LIST_POSITION)

    def selected(model, _position, _count):
        row = model.get_selected_item()
        if row is not None:
            say("places selected: %s" % row.get_item().name)

    selection.connect("selection-changed", selected)
    view = named(Gtk.ListView(model=selection, factory=factory), "Places")
    return Gtk.ScrolledWindow(child=view, min_content_height=130, has_frame=True)


def people(box):
    store = Gio.ListStore(item_type=Item)
    for name, age in PEOPLE:
        store.append(Item(name, age))
    view = named(Gtk.ColumnView(), "People")
    columns = {}
    for title, key, sorter in (
        ("Name", lambda i: i.name, compare(lambda i: i.name)),
        ("Age", lambda i: str(i.age), compare(lambda i: i.age)),
    ):
        column = Gtk.ColumnViewColumn(title=title, factory=labelled(key), sorter=sorter)
        column.set_expand(True)
        view.append_column(column)
        columns[title] = key
    shown_model = Gtk.SortListModel(model=store, sorter=view.get_sorter())
    selection = Gtk.SingleSelection(model=shown_model, autoselect=False, can_unselect=True)
    selection.set_selected(Gtk.INVALID_LIST_POSITION)
    view.set_model(selection)

    def order():
        return [shown_model.get_item(i) for i in range(shown_model.get_n_items())]

    def shown():
        say("people: %s" % ",".join(i.name for i in order()))

    def sorted_by(_sorter, _change):
        items = order()
        for title, number in (("Name", lambda i: i.name), ("Age", lambda i: i.age)):
            keys = [number(i) for i in items]
            if keys == sorted(keys):
                say("people sorted: %s asc" % title)
            elif keys == sorted(keys, reverse=True):
                say("people sorted: %s desc" % title)
            else:
                continue
            break
        shown()

    view.get_sorter().connect("changed", sorted_by)

    def selected(model, _position, _count):
        item = model.get_selected_item()
        if item is not None:
            say("people selected: %s" % item.name)

    selection.connect("selection-changed", selected)
    box.append(Gtk.ScrolledWindow(child=view, min_content_height=130, has_frame=True))
    add = Gtk.Button(label="Add person")
    add.connect("clicked", lambda _b: (store.insert(0, Item("Dee", 22)), shown()))
    remove = Gtk.Button(label="Remove person")

    def removed(_b):
        if store.get_n_items() > 0:
            store.remove(0)
        shown()

    remove.connect("clicked", removed)
    buttons = Gtk.Box(spacing=6)
    buttons.append(add)
    buttons.append(remove)
    box.append(buttons)


def tabs(box):
    notebook = Gtk.Notebook()
    for title in ("General", "Advanced"):
        notebook.append_page(Gtk.Label(label="%s settings" % title), Gtk.Label(label=title))
    notebook.connect(
        "switch-page", lambda n, page, _i: say("tab: %s" % n.get_tab_label_text(page))
    )
    box.append(notebook)


def menus(window, actions):
    for name, handler in (
        ("open", lambda: ask_window(window)),
        ("hello", lambda: say("menu: Say hello")),
    ):
        action = Gio.SimpleAction.new(name, None)
        action.connect("activate", lambda _a, _p, h=handler: h())
        actions.add_action(action)
    model = Gio.Menu()
    file_menu = Gio.Menu()
    file_menu.append("Open dialog…", "zoo.open")
    file_menu.append("Say hello", "zoo.hello")
    model.append_submenu("File", file_menu)
    return Gtk.PopoverMenuBar.new_from_model(model)


def column(spacing=6):
    return Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=spacing, hexpand=True)


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "GTK 4 zoo"
    loop = GLib.MainLoop()
    window = Gtk.Window(title=title)
    window.set_default_size(900, 600)
    window.connect("close-request", lambda _w: loop.quit() or False)
    actions = Gio.SimpleActionGroup()
    window.insert_action_group("zoo", actions)
    outer = column()
    outer.append(menus(window, actions))
    grid = Gtk.Grid(row_spacing=4, column_spacing=6)
    text_fields(grid)
    count_field(grid)
    choosers(grid)
    first = column(4)
    first.append(grid)
    toggles(first, window)
    second = column()
    colors = listed("Colors", COLORS, Gtk.SelectionMode.SINGLE)
    colors.connect("row-activated", lambda _l, r: say("colors activated: %s" % r.get_child().get_label()))
    colors_menu(colors, actions)
    second.append(colors)
    second.append(listed("Tags", TAGS, Gtk.SelectionMode.MULTIPLE))
    second.append(places())
    third = column()
    people(third)
    tabs(third)
    columns = Gtk.Box(spacing=12, margin_start=8, margin_end=8, margin_top=8, margin_bottom=8)
    for part in (first, second, third):
        columns.append(part)
    outer.append(columns)
    window.set_child(outer)
    window.present()
    say("ready")
    loop.run()


main()
