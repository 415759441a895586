"""A Qt window whose button and menu bar action open a modal dialog the way most Qt apps
do: the slot calls QDialog.exec(), a loop of the dialog's own that returns only when the
dialog closes. Qt's accessibility bridge answers DoAction only once the slot returned, so
the press's reply waits for the dialog. Runs with PyQt5 or PyQt6: the second argument
says which (5, the default, or 6). It prints every state change on stdout (one line each,
flushed), so a test checks the effect by the app's own word, not the driver's.

    python3 qt_modal.py TITLE [5|6]
"""
import sys

if len(sys.argv) > 2 and sys.argv[2] == "6":
    from PyQt6.QtWidgets import (
        QApplication,
        QDialog,
        QHBoxLayout,
        QLineEdit,
        QMainWindow,
        QPushButton,
        QVBoxLayout,
        QWidget,
    )
else:
    from PyQt5.QtWidgets import (
        QApplication,
        QDialog,
        QHBoxLayout,
        QLineEdit,
        QMainWindow,
        QPushButton,
        QVBoxLayout,
        QWidget,
    )


def say(line):
    print(line, flush=True)


def ask(window):
    dialog = QDialog(window)
    dialog.setWindowTitle("Rename item")
    layout = QVBoxLayout(dialog)
    entry = QLineEdit(dialog)
    entry.setAccessibleName("New name")
    layout.addWidget(entry)
    buttons = QHBoxLayout()
    cancel = QPushButton("Cancel", dialog)
    cancel.clicked.connect(dialog.reject)
    rename = QPushButton("Rename", dialog)
    rename.clicked.connect(dialog.accept)
    buttons.addWidget(cancel)
    buttons.addWidget(rename)
    layout.addLayout(buttons)
    dialog.setModal(True)
    dialog.show()
    say("dialog: shown")
    accepted = dialog.exec() == 1  # the nested loop: the slot returns when the dialog closes
    say("dialog: %s %s" % ("ok" if accepted else "cancel", entry.text()))
    dialog.deleteLater()


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Modal app"
    app = QApplication([sys.argv[0]])
    window = QMainWindow()
    window.setWindowTitle(title)
    window.resize(420, 260)
    menu = window.menuBar().addMenu("Item")
    rename = menu.addAction("Rename…")
    rename.triggered.connect(lambda _checked=False: ask(window))
    central = QWidget(window)
    layout = QVBoxLayout(central)
    button = QPushButton("Rename with a dialog", central)
    button.clicked.connect(lambda _checked=False: ask(window))
    layout.addWidget(button)
    notes = QLineEdit(central)
    notes.setAccessibleName("Notes")
    notes.textChanged.connect(lambda text: say("notes: %s" % text))
    layout.addWidget(notes)
    window.setCentralWidget(central)
    window.show()
    say("ready")
    sys.exit(app.exec())


main()
