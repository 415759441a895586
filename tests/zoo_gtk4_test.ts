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
zooTable("GTK 4", () => zooApp("gtk4_zoo.py", "GTK 4 zoo"));
