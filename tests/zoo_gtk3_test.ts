/**
 * The widget zoo in GTK 3 (tests/support/zoo/gtk3_zoo.py): every action on every kind of
 * widget, one test per cell, each effect checked by the line the app printed. One app and
 * one driver serve the whole file. GTK 3 has no input masks: Phone rejects non-digits.
 */
import { requireDesktop } from "./support/apps.ts";
import { zooApp } from "./support/zoo.ts";
import { zooTable } from "./support/zoo_cells.ts";

requireDesktop();
zooTable("GTK 3", () => zooApp("gtk3_zoo.py", "GTK 3 zoo"));
