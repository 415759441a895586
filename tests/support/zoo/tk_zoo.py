#!/usr/bin/python3
"""The widget zoo's Tk app: the common widget set (tests/support/zoo.ts) in tkinter, every
state change printed on stdout by the widget's own handler (one line each, flushed), so a
test checks an action's effect by the app's word, not the driver's. Tk has no
accessibility tree: an agent reads it by vision, so the texts are large and each widget is
labelled by visible text. What Tk lacks: input masks (Phone is an entry that rejects
non-digits but the one dash), accessible names and descriptions (the icon-only button has
a bitmap and no text; nothing can carry "Refresh" but its visible word nowhere).

    tk_zoo TITLE
"""
import sys
import tkinter as tk
from tkinter import ttk

FONT = ("DejaVu Sans", 14)
ON_OFF = {1: "on", 0: "off", True: "on", False: "off"}


def say(line):
    print(line.replace("\n", "\\n"), flush=True)


def traced(var, line):
    var.trace_add("write", lambda *_: say(line(var.get())))
    return var


def labelled(parent, text, widget, row):
    tk.Label(parent, text=text, font=FONT).grid(row=row, column=0, sticky="w", padx=4, pady=3)
    widget.grid(row=row, column=1, sticky="we", padx=4, pady=3)
    return widget


def ask(root):
    """The modal dialog, as tkinter apps make one: a grab and a loop inside the command."""
    dialog = tk.Toplevel(root)
    dialog.title("Zoo dialog")
    dialog.geometry("380x170+200+200")
    dialog.transient(root)
    answer = tk.StringVar()
    labelled(dialog, "Answer", tk.Entry(dialog, textvariable=answer, font=FONT, width=14), 0)
    said = {"how": "cancel"}

    def close(how):
        said["how"] = how
        dialog.destroy()

    buttons = tk.Frame(dialog)
    buttons.grid(row=1, column=0, columnspan=2, pady=12)
    tk.Button(buttons, text="OK", font=FONT, command=lambda: close("ok")).pack(
        side="left", padx=10
    )
    tk.Button(buttons, text="Cancel", font=FONT, command=lambda: close("cancel")).pack(
        side="left", padx=10
    )
    dialog.wait_visibility()
    dialog.grab_set()
    say("dialog: shown")
    dialog.wait_window()
    say("dialog: ok %s" % answer.get() if said["how"] == "ok" else "dialog: cancel")


def palette(root, keep):
    if keep:
        return
    tool = tk.Toplevel(root)
    tool.title("Zoo palette")
    tool.geometry("260x90+600+420")

    def close():
        keep.clear()
        tool.destroy()
        say("palette: closed")

    tk.Button(tool, text="Close palette", font=FONT, command=close).pack(pady=20)
    keep.append(tool)
    say("palette: shown")


def entries(frame):
    name = traced(tk.StringVar(), lambda t: "name: %s" % t)
    labelled(frame, "Name", tk.Entry(frame, textvariable=name, font=FONT, width=14), 0)
    notes = labelled(frame, "Notes", tk.Text(frame, font=FONT, width=14, height=2), 1)
    notes.bind("<<Modified>>", lambda _e: (
        say("notes: %s" % notes.get("1.0", "end-1c")), notes.edit_modified(False)))
    password = traced(tk.StringVar(), lambda t: "password: %d" % len(t))
    labelled(frame, "Password", tk.Entry(frame, textvariable=password, show="*", font=FONT,
                                         width=14), 2)
    phone = traced(tk.StringVar(), lambda t: "phone: %s" % t)
    digits = frame.register(lambda text: all(c.isdigit() or c == "-" for c in text))
    labelled(frame, "Phone", tk.Entry(frame, textvariable=phone, font=FONT, width=14,
                                      validate="key", validatecommand=(digits, "%P")), 3)
    # Tk's own format takes no suffix: the shown values carry it.
    count = tk.Spinbox(frame, values=["%d / 10" % n for n in range(11)], font=FONT, width=7,
                       state="readonly")
    count.configure(command=lambda: say("count: %s" % count.get().split(" ")[0]))
    labelled(frame, "Count", count, 4)
    fruit = ttk.Combobox(frame, values=["Apple", "Banana", "Cherry"], state="readonly",
                         font=FONT, width=12)
    fruit.set("Apple")
    fruit.bind("<<ComboboxSelected>>", lambda _e: say("fruit: %s" % fruit.get()))
    labelled(frame, "Fruit", fruit, 5)
    city = traced(tk.StringVar(value="Paris"), lambda t: "city: %s" % t)
    labelled(frame, "City", ttk.Combobox(frame, textvariable=city, font=FONT, width=12,
                                         values=["Paris", "Rome", "Oslo"]), 6)
    volume = tk.Scale(frame, from_=0, to=100, orient="horizontal", font=FONT,
                      command=lambda n: say("volume: %s" % n))
    labelled(frame, "Volume", volume, 7)


def selected(listbox):
    return ",".join(listbox.get(i) for i in listbox.curselection())


def lists(frame):
    tk.Label(frame, text="Colors", font=FONT).pack(anchor="w")
    colors = tk.Listbox(frame, font=FONT, height=5, width=12, exportselection=False)
    for c in ("Red", "Green", "Blue", "Cyan", "Magenta"):
        colors.insert("end", c)
    colors.bind("<<ListboxSelect>>", lambda _e: say("colors: %s" % selected(colors)))
    activate = lambda _e: say("colors activated: %s" % colors.get("active"))
    colors.bind("<Double-Button-1>", activate)
    colors.bind("<Return>", activate)
    menu = tk.Menu(colors, tearoff=0, font=FONT)

    def clear():
        colors.selection_clear(0, "end")
        say("menu: Clear colors")
        say("colors: ")

    menu.add_command(label="Clear colors", command=clear)
    colors.bind("<Button-3>", lambda e: menu.tk_popup(e.x_root, e.y_root))
    colors.pack(fill="x")
    tk.Label(frame, text="Tags", font=FONT).pack(anchor="w")
    tags = tk.Listbox(frame, font=FONT, height=4, width=12, selectmode="extended",
                      exportselection=False)
    for t in ("alpha", "beta", "gamma", "delta"):
        tags.insert("end", t)
    tags.bind("<<ListboxSelect>>", lambda _e: say("tags: %s" % selected(tags)))
    tags.pack(fill="x")
    tk.Label(frame, text="Places", font=FONT).pack(anchor="w")
    places = ttk.Treeview(frame, height=4, show="tree")
    places.column("#0", width=160)
    for region, cities in (("Europe", ["Paris", "Rome"]), ("Asia", ["Tokyo"])):
        top = places.insert("", "end", text=region)
        for c in cities:
            places.insert(top, "end", text=c)
    places.bind("<<TreeviewOpen>>", lambda _e: say("places expanded: %s" %
                                                   places.item(places.focus(), "text")))
    places.bind("<<TreeviewClose>>", lambda _e: say("places collapsed: %s" %
                                                    places.item(places.focus(), "text")))
    places.bind("<<TreeviewSelect>>", lambda _e: [
        say("places selected: %s" % places.item(i, "text")) for i in places.selection()])
    places.pack(fill="x")


def table(frame):
    tk.Label(frame, text="People", font=FONT).pack(anchor="w")
    people = ttk.Treeview(frame, columns=("Name", "Age"), show="headings", height=5)
    order = {"Name": False, "Age": False}

    def shown():
        return ",".join(people.set(i, "Name") for i in people.get_children())

    def sort(column):
        order[column] = not order[column]
        rows = sorted(people.get_children(), key=lambda i: people.set(i, column),
                      reverse=not order[column])
        for at, i in enumerate(rows):
            people.move(i, "", at)
        say("people sorted: %s %s" % (column, "asc" if order[column] else "desc"))

    for column in ("Name", "Age"):
        people.heading(column, text=column, command=lambda c=column: sort(c))
        people.column(column, width=100)
    for n, a in (("Ann", "31"), ("Bob", "25"), ("Cid", "40")):
        people.insert("", "end", values=(n, a))
    people.bind("<<TreeviewSelect>>", lambda _e: [
        say("people selected: %s" % people.set(i, "Name")) for i in people.selection()])
    people.pack(fill="x")
    row = tk.Frame(frame)
    row.pack(fill="x", pady=4)

    def add():
        people.insert("", 0, values=("Dee", "22"))
        say("people: %s" % shown())

    def remove():
        first = people.get_children()
        if first:
            people.delete(first[0])
        say("people: %s" % shown())

    tk.Button(row, text="Add person", font=FONT, command=add).pack(side="left")
    tk.Button(row, text="Remove person", font=FONT, command=remove).pack(side="left", padx=6)


def toggles(frame, root, keep):
    agree = traced(tk.IntVar(), lambda v: "agree: %s" % ON_OFF[v])
    tk.Checkbutton(frame, text="Agree", variable=agree, font=FONT).pack(anchor="w")
    size = traced(tk.StringVar(value="Small"), lambda v: "size: %s" % v)
    for s in ("Small", "Large"):
        tk.Radiobutton(frame, text=s, value=s, variable=size, font=FONT).pack(anchor="w")
    bold = traced(tk.IntVar(), lambda v: "bold: %s" % ON_OFF[v])
    tk.Checkbutton(frame, text="Bold", variable=bold, indicatoron=False, font=FONT,
                   width=8).pack(anchor="w", pady=2)
    tk.Button(frame, bitmap="question", width=40, height=28,
              command=lambda: say("refresh: clicked")).pack(anchor="w", pady=2)
    tk.Button(frame, text="Open modal", font=FONT, command=lambda: ask(root)).pack(
        anchor="w", pady=2)
    tk.Button(frame, text="Open palette", font=FONT,
              command=lambda: palette(root, keep)).pack(anchor="w", pady=2)
    tabs = ttk.Notebook(frame)
    for name in ("General", "Advanced"):
        page = tk.Frame(tabs)
        tk.Label(page, text="%s settings" % name, font=FONT).pack(padx=6, pady=6)
        tabs.add(page, text=name)
    tabs.bind("<<NotebookTabChanged>>", lambda _e: say("tab: %s" % tabs.tab("current", "text")))
    tabs.pack(anchor="w", pady=4)


def main():
    title = sys.argv[1] if len(sys.argv) > 1 else "Tk zoo"
    root = tk.Tk()
    root.title(title)
    root.geometry("990x660+10+10")
    ttk.Style().configure("Treeview", font=FONT, rowheight=26)
    ttk.Style().configure("Treeview.Heading", font=FONT)
    ttk.Style().configure("TNotebook.Tab", font=FONT)
    bar = tk.Menu(root, font=FONT)
    file = tk.Menu(bar, tearoff=0, font=FONT)
    file.add_command(label="Open dialog…", command=lambda: ask(root))
    file.add_command(label="Say hello", command=lambda: say("menu: Say hello"))
    bar.add_cascade(label="File", menu=file)
    root.config(menu=bar)
    keep = []
    left, middle, right, last = (tk.Frame(root) for _ in range(4))
    entries(left)
    lists(middle)
    table(right)
    toggles(last, root, keep)
    for at, frame in enumerate((left, middle, right, last)):
        frame.grid(row=0, column=at, sticky="n", padx=6, pady=6)
    root.after(0, lambda: say("ready"))
    root.mainloop()


main()
