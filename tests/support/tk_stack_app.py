#!/usr/bin/python3
"""A Tk app (no accessibility tree: read by vision) with a left half and a right half,
for tests that cover its right half with another window. It prints every state change
on stdout, one line each, so a test checks where input landed by the app's own word:
"pressed Left", "pressed Right", "left: <text>", "right: <text>".

With `--cover`, it is instead a window that stays above others (`-topmost`: the window
manager's _NET_WM_STATE_ABOVE) over where the other's right half is, titled "TopCover",
printing "cover got <event>" for every click or key it receives."""
import sys
import tkinter as tk

root = tk.Tk()
FONT = ("DejaVu Sans", 18)


def say(line):
    print(line, flush=True)


if sys.argv[1:] == ["--cover"]:
    root.title("TopCover")
    root.geometry("380x360+330+0")
    root.attributes("-topmost", True)
    root.bind_all("<ButtonPress>", lambda e: say(f"cover got button {e.num}"))
    root.bind_all("<KeyPress>", lambda e: say(f"cover got key {e.keysym}"))
    root.after(0, lambda: say("ready"))
    sys.exit(root.mainloop())

root.title("TkStack")
root.geometry("640x300+0+0")


def half(x, side, label, button):
    tk.Label(root, text=label, font=FONT).place(x=x, y=20)
    tk.Button(root, text=button, font=FONT, command=lambda: say(f"pressed {side}")).place(
        x=x, y=90
    )
    text = tk.StringVar()
    text.trace_add("write", lambda *_: say(f"{side.lower()}: {text.get()}"))
    tk.Entry(root, textvariable=text, font=FONT, width=12).place(x=x, y=190)


half(30, "Left", "Visible", "Apply")
half(370, "Right", "Hidden", "Secret")
root.after(0, lambda: say("ready"))
sys.exit(root.mainloop())
