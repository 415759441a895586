"""A Qt 5 window for tests/map_truths_test.ts: a QTableWidget of 15 columns and 40 rows
laid out as a password manager's entry list (KeePassXC's): some columns hidden, and the
header's sections moved, so the column shown first (an icon column, logical 10) is not
logical column 0 and Title, Username and URL (logical 0-2) show after it. A test checks
which of its cells the map holds. Prints "ready" once shown.

    python3 truths_qt_table.py TITLE
"""
import sys

from PyQt5.QtCore import QTimer
from PyQt5.QtWidgets import QApplication, QMainWindow, QTableWidget, QTableWidgetItem

COLUMNS = ["Title", "Username", "URL"] + ["Field %d" % i for i in range(4, 16)]
ROWS = 40

app = QApplication(sys.argv[:1])
window = QMainWindow()
window.setWindowTitle(sys.argv[1])
table = QTableWidget(ROWS, len(COLUMNS))
table.setHorizontalHeaderLabels(COLUMNS)
for r in range(ROWS):
    for c, name in enumerate(COLUMNS):
        table.setItem(r, c, QTableWidgetItem("%s %d" % (name, r + 1)))
# A tree view (KeePassXC's entry list) has no row header: the view starts with a cell.
table.verticalHeader().hide()
header = table.horizontalHeader()
for hidden in range(3, 10):
    table.setColumnHidden(hidden, True)
header.moveSection(header.visualIndex(10), 0)
window.setCentralWidget(table)
window.resize(640, 400)
window.show()
QTimer.singleShot(0, lambda: print("ready", flush=True))
app.exec_()
