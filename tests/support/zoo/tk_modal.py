#!/usr/bin/python3
"""A Tk window (no accessibility tree: read by vision) whose button opens a modal dialog the
way tkinter apps do: a Toplevel that takes the grab (grab_set) and a loop of its own inside
the button's command (wait_window), with an entry and an OK button. It prints every state
change on stdout (one line each, flushed), so a test checks the effect by the app's own
word, not the driver's: "ready", "dialog: shown", "dialog: ok <text>", "pressed Again".

    python3 tk_modal.py TITLE
"""
import sys
import tkinter as tk

FONT = ("DejaVu Sans", 18)


def say(line):
    print(line, flush=True)


def ask(root):
    dialog = tk.Toplevel(root)
    dialog.title("Name dialog")
    dialog.geometry("360x200+120+260")
    dialog.transient(root)
    tk.Label(dialog, text="Your name", font=FONT).pack(pady=6)
    text = tk.StringVar()
    tk.Entry(dialog, textvariable=text, font=FONT, width=14).pack(pady=6)
    tk.Button(dialog, text="OK", font=FONT, command=dialog.destroy).pack(pady=6)
    dialog.wait_visibility()
    dialog.grab_set()  # modal: the main window takes no input until it closes
    say("dialog: shown")
    dialog.wait_window()  # the dialog's own loop, inside the button's command
    say("dialog: ok %s" % text.get())


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Tk Modal"
    root = tk.Tk()
    root.title(title)
    root.geometry("420x220+40+40")
    tk.Label(root, text="Main window", font=FONT).pack(pady=8)
    tk.Button(root, text="Open dialog", font=FONT, command=lambda: ask(root)).pack(pady=6)
    tk.Button(root, text="Again", font=FONT, command=lambda: say("pressed Again")).pack(pady=6)
    root.after(0, lambda: say("ready"))
    root.mainloop()


main()
