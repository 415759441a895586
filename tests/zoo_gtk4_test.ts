/**
 * The widget zoo in GTK 4 (tests/support/zoo/gtk4_zoo.py): every action on every kind of
 * widget, one test per cell, each effect checked by the line the app printed. One app and
 * one driver serve the whole file. GTK 4 has no input masks (Phone rejects non-digits) and no
 * gtk_dialog_run (its dialogs are modal windows answered by signal).
 */
import { requireDesktop } from "./support/apps.ts";
import { zooApp } from "./support/zoo.ts";
import { zooTable } from "./support/zoo_cells.ts";

requireDesktop();
zooTable("GTK 4", () => zooApp("gtk4_zoo.py", "GTK 4 zoo"), {
  "select Fruit option Banana makes it the combo's choice":
    "GTK 4.8's drop-down commits an option only by a click in its popover, whose extents are " +
    "relative to its own surface: refused (`action_not_supported`) rather than a missed click",
  "show_menu Fruit shows its options":
    "the drop-down's popover is not told from its button's own parts (GTK 4 never says SHOWING)",
  "check and uncheck toggle button Bold":
    "GTK 4.8 exposes a toggle button as a push button, PRESSED only while on: `check` is " +
    "refused (press toggles it)",
  "ids: People row Bob keeps its id when Add person inserts a row before it":
    "a ColumnView recycles its row widgets: a row's object shows another person after an insert",
});
