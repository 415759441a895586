"""The widget zoo's Qt app: the common widget set (tests/support/zoo.ts), each widget named
for accessibility, every state change printed on stdout by the widget's own signal (one
line each, flushed), so a test checks an action's effect by the app's word, not the
driver's. Runs with PyQt5 or PyQt6: the second argument says which (5, the default, or 6).
Qt has every widget kind of the set: none is left out.

    python3 qt_zoo.py TITLE [5|6]
"""
import sys

if len(sys.argv) > 2 and sys.argv[2] == "6":
    from PyQt6.QtCore import Qt
    from PyQt6.QtWidgets import (
        QApplication, QCheckBox, QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel,
        QLineEdit, QListWidget, QMainWindow, QMenu, QPlainTextEdit, QPushButton,
        QRadioButton, QSlider, QSpinBox, QStyle, QTableWidget, QTableWidgetItem,
        QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget, QAbstractItemView,
    )
else:
    from PyQt5.QtCore import Qt
    from PyQt5.QtWidgets import (
        QApplication, QCheckBox, QComboBox, QDialog, QFormLayout, QHBoxLayout,
        QLabel, QLineEdit, QListWidget, QMainWindow, QMenu, QPlainTextEdit, QPushButton,
        QRadioButton, QSlider, QSpinBox, QStyle, QTableWidget, QTableWidgetItem,
        QTabWidget, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget, QAbstractItemView,
    )

ON_OFF = {True: "on", False: "off"}
PEOPLE = [("Ann", "31"), ("Bob", "25"), ("Cid", "40")]


def say(line):
    print(line.replace("\n", "\\n"), flush=True)


def named(widget, name):
    widget.setAccessibleName(name)
    return widget


def selected_texts(view):
    """The selected rows' texts of a list, in shown order (not in the order picked)."""
    return ",".join(view.item(i).text() for i in range(view.count()) if view.item(i).isSelected())


def ask(window):
    """The modal dialog, opened as most Qt apps do: exec()'s nested loop inside the slot."""
    dialog = QDialog(window)
    dialog.setWindowTitle("Zoo dialog")
    layout = QVBoxLayout(dialog)
    answer = named(QLineEdit(dialog), "Answer")
    layout.addWidget(answer)
    row = QHBoxLayout()
    for text, slot in (("OK", dialog.accept), ("Cancel", dialog.reject)):
        button = QPushButton(text, dialog)
        button.clicked.connect(slot)
        row.addWidget(button)
    layout.addLayout(row)
    dialog.setModal(True)
    dialog.show()
    say("dialog: shown")
    if dialog.exec() == 1:
        say("dialog: ok %s" % answer.text())
    else:
        say("dialog: cancel")
    dialog.deleteLater()


def palette(window, keep):
    """The non-modal window; `keep` holds it so Python does not collect it while shown."""
    if keep:
        keep[0].raise_()
        return
    tool = QWidget(window, Qt.WindowType.Window)
    tool.setWindowTitle("Zoo palette")
    layout = QVBoxLayout(tool)
    close = QPushButton("Close palette", tool)
    layout.addWidget(close)

    def closed():
        say("palette: closed")
        keep.clear()
        tool.close()
        tool.deleteLater()

    close.clicked.connect(closed)
    keep.append(tool)
    tool.resize(240, 100)
    tool.show()
    say("palette: shown")


class Combo(QComboBox):
    """A combo that says when its list shows and hides: show_menu's effect, by the app."""

    def __init__(self, key):
        super().__init__()
        self.key = key

    def showPopup(self):
        super().showPopup()
        say("%s popup: shown" % self.key)

    def hidePopup(self):
        super().hidePopup()
        say("%s popup: hidden" % self.key)


def entries(form):
    name = named(QLineEdit(), "Name")
    name.textChanged.connect(lambda t: say("name: %s" % t))
    form.addRow("Name", name)
    notes = named(QPlainTextEdit(), "Notes")
    notes.setFixedHeight(70)
    notes.textChanged.connect(lambda: say("notes: %s" % notes.toPlainText()))
    form.addRow("Notes", notes)
    password = named(QLineEdit(), "Password")
    password.setEchoMode(QLineEdit.EchoMode.Password)
    password.textChanged.connect(lambda t: say("password: %d" % len(t)))
    form.addRow("Password", password)
    phone = named(QLineEdit(), "Phone")
    phone.setInputMask("999-9999")
    phone.textChanged.connect(lambda t: say("phone: %s" % t))
    form.addRow("Phone", phone)
    count = named(QSpinBox(), "Count")
    count.setRange(0, 10)
    count.setSuffix(" / 10")
    # Committed values only (Enter, focus out, arrows), as the spec's `count:` line asks.
    count.setKeyboardTracking(False)
    count.valueChanged.connect(lambda n: say("count: %d" % n))
    form.addRow("Count", count)
    fruit = named(Combo("fruit"), "Fruit")
    fruit.addItems(["Apple", "Banana", "Cherry"])
    fruit.currentTextChanged.connect(lambda t: say("fruit: %s" % t))
    form.addRow("Fruit", fruit)
    city = named(QComboBox(), "City")
    city.setEditable(True)
    city.addItems(["Paris", "Rome", "Oslo"])
    city.editTextChanged.connect(lambda t: say("city: %s" % t))
    form.addRow("City", city)
    volume = named(QSlider(Qt.Orientation.Horizontal), "Volume")
    volume.setRange(0, 100)
    volume.valueChanged.connect(lambda n: say("volume: %d" % n))
    form.addRow("Volume", volume)


def lists(column):
    column.addWidget(QLabel("Colors"))
    colors = named(QListWidget(), "Colors")
    colors.addItems(["Red", "Green", "Blue", "Cyan", "Magenta"])
    colors.itemSelectionChanged.connect(lambda: say("colors: %s" % selected_texts(colors)))
    colors.itemActivated.connect(lambda item: say("colors activated: %s" % item.text()))
    colors.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)

    def context(point):
        menu = QMenu(colors)
        clear = menu.addAction("Clear colors")
        if menu.exec(colors.viewport().mapToGlobal(point)) is clear:
            say("menu: Clear colors")
            colors.clearSelection()

    colors.customContextMenuRequested.connect(context)
    column.addWidget(colors)
    column.addWidget(QLabel("Tags"))
    tags = named(QListWidget(), "Tags")
    tags.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    tags.addItems(["alpha", "beta", "gamma", "delta"])
    tags.itemSelectionChanged.connect(lambda: say("tags: %s" % selected_texts(tags)))
    column.addWidget(tags)
    column.addWidget(QLabel("Places"))
    places = named(QTreeWidget(), "Places")
    places.setHeaderHidden(True)
    for region, cities in (("Europe", ["Paris", "Rome"]), ("Asia", ["Tokyo"])):
        top = QTreeWidgetItem(places, [region])
        for c in cities:
            QTreeWidgetItem(top, [c])
    places.itemExpanded.connect(lambda item: say("places expanded: %s" % item.text(0)))
    places.itemCollapsed.connect(lambda item: say("places collapsed: %s" % item.text(0)))
    places.itemSelectionChanged.connect(
        lambda: [say("places selected: %s" % i.text(0)) for i in places.selectedItems()]
    )
    column.addWidget(places)


def table(column):
    column.addWidget(QLabel("People"))
    people = named(QTableWidget(0, 2), "People")
    people.setHorizontalHeaderLabels(["Name", "Age"])
    people.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    people.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def put(row, name, age):
        people.insertRow(row)
        # Names are fixed, ages edited in place: Qt says neither (no EDITABLE state).
        fixed = QTableWidgetItem(name)
        fixed.setFlags(fixed.flags() & ~Qt.ItemFlag.ItemIsEditable)
        people.setItem(row, 0, fixed)
        people.setItem(row, 1, QTableWidgetItem(age))

    def shown():
        return ",".join(people.item(r, 0).text() for r in range(people.rowCount()))

    for r, (n, a) in enumerate(PEOPLE):
        put(r, n, a)
    # No sort column until a header is clicked: enabling sorting would sort by column 0.
    people.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
    people.setSortingEnabled(True)
    people.itemSelectionChanged.connect(
        lambda: [say("people selected: %s" % people.item(i.row(), 0).text())
                 for i in people.selectionModel().selectedRows()]
    )
    people.itemChanged.connect(
        lambda i: i.column() == 1 and say("people age: %s %s" % (
            people.item(i.row(), 0).text() if people.item(i.row(), 0) else "?", i.text()))
    )
    people.horizontalHeader().sortIndicatorChanged.connect(
        lambda col, order: say("people sorted: %s %s" % (
            ["Name", "Age"][col],
            "asc" if order == Qt.SortOrder.AscendingOrder else "desc",
        ))
    )
    column.addWidget(people)
    row = QHBoxLayout()
    add = QPushButton("Add person")
    remove = QPushButton("Remove person")

    def added():
        # Sorting would move the new row; the spec wants it first, as inserted.
        sorting = people.isSortingEnabled()
        people.setSortingEnabled(False)
        put(0, "Dee", "22")
        people.setSortingEnabled(sorting)
        say("people: %s" % shown())

    def removed():
        if people.rowCount():
            people.removeRow(0)
        say("people: %s" % shown())

    add.clicked.connect(added)
    remove.clicked.connect(removed)
    row.addWidget(add)
    row.addWidget(remove)
    column.addLayout(row)


def toggles(column, window, keep):
    agree = QCheckBox("Agree")
    agree.toggled.connect(lambda on: say("agree: %s" % ON_OFF[on]))
    column.addWidget(agree)
    for size in ("Small", "Large"):
        radio = QRadioButton(size)
        radio.setChecked(size == "Small")
        radio.toggled.connect(lambda on, s=size: on and say("size: %s" % s))
        column.addWidget(radio)
    bold = QPushButton("Bold")
    bold.setCheckable(True)
    bold.toggled.connect(lambda on: say("bold: %s" % ON_OFF[on]))
    column.addWidget(bold)
    refresh = QPushButton()  # icon only: no text and no accessible name, as the spec asks
    refresh.setIcon(window.style().standardIcon(QStyle.StandardPixmap.SP_BrowserReload))
    refresh.setToolTip("Refresh")
    refresh.setAccessibleDescription("Refresh")
    refresh.clicked.connect(lambda: say("refresh: clicked"))
    column.addWidget(refresh)
    modal = QPushButton("Open modal")
    modal.clicked.connect(lambda _c=False: ask(window))
    column.addWidget(modal)
    tool = QPushButton("Open palette")
    tool.clicked.connect(lambda _c=False: palette(window, keep))
    column.addWidget(tool)
    tabs = QTabWidget()
    for tab in ("General", "Advanced"):
        page = QWidget()
        QVBoxLayout(page).addWidget(QLabel("%s settings" % tab))
        tabs.addTab(page, tab)
    tabs.currentChanged.connect(lambda i: say("tab: %s" % tabs.tabText(i)))
    column.addWidget(tabs)
    column.addStretch(1)


def menus(window):
    file = window.menuBar().addMenu("File")
    dialog = file.addAction("Open dialog…")
    dialog.triggered.connect(lambda _c=False: ask(window))
    hello = file.addAction("Say hello")
    hello.triggered.connect(lambda _c=False: say("menu: Say hello"))


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Qt zoo"
    app = QApplication([sys.argv[0]])
    window = QMainWindow()
    window.setWindowTitle(title)
    menus(window)
    central = QWidget(window)
    columns = QHBoxLayout(central)
    form = QFormLayout()
    entries(form)
    columns.addLayout(form, 3)
    middle = QVBoxLayout()
    lists(middle)
    columns.addLayout(middle, 2)
    right = QVBoxLayout()
    table(right)
    columns.addLayout(right, 3)
    last = QVBoxLayout()
    keep = []
    toggles(last, window, keep)
    columns.addLayout(last, 2)
    window.setCentralWidget(central)
    window.resize(980, 640)
    window.move(20, 20)
    window.show()
    say("ready")
    sys.exit(app.exec())


main()
