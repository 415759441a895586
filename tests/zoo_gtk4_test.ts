/**
 * The widget zoo in GTK 4 (tests/support/zoo/gtk4_zoo.py): every action on every kind of
 * widget, one test per cell, each effect checked by the line the app printed. One app and
 * one driver serve the whole file. GTK 4 has no input masks (Phone rejects non-digits) and no
 * gtk_dialog_run (its dialogs are modal windows answered by signal).
 */
import assert from "node:assert/strict";
import { DriverError } from "../protocol/errors.ts";
import { requireDesktop } from "./support/apps.ts";
import { zooApp } from "./support/zoo.ts";
import { zooTable } from "./support/zoo_cells.ts";
import { act, element, mark, named, notSaid, saidSince } from "./support/zoo_steps.ts";

requireDesktop();
zooTable("GTK 4", () => zooApp("gtk4_zoo.py", "GTK 4 zoo"), {
  "check and uncheck toggle button Bold":
    "GTK 4.8 exposes a toggle button as a push button, PRESSED only while on: off, nothing " +
    "tells it from a plain button, so `check` is refused (naming `press`, which toggles it)",
}, {
  // What GTK 4.8's toggle button allows instead: off, it is a plain button on the bus.
  "toggle button Bold: check while off is refused naming press, press turns it on, uncheck off":
    async (z) => {
      const bold = named("Bold", "AXButton");
      const from = mark(z.app);
      const off = (await element(z.client, z.window, bold)).element;
      assert.ok(!off.actions.includes("check"), `Bold while off offers ${off.actions}`);
      const refused = await act(z.client, z.window, bold, "check").catch((e) => e);
      assert.ok(refused instanceof DriverError, `check answered ${JSON.stringify(refused)}`);
      assert.equal(refused.code, "action_not_supported");
      assert.match(refused.message, /`press`/);
      notSaid(z.app, from, (l) => l.startsWith("bold"));
      const pressed = await act(z.client, z.window, bold, "press");
      assert.equal(pressed.ok, true, JSON.stringify(pressed));
      await saidSince(z.app, from, "bold: on", pressed);
      // On, it says PRESSED: a toggle, checked already and unchecked by `uncheck`.
      const lit = (await element(z.client, z.window, bold)).element;
      assert.equal(lit.checked, true, JSON.stringify(lit));
      const on = mark(z.app);
      const again = await act(z.client, z.window, bold, "check");
      assert.equal(again.already, true, JSON.stringify(again));
      notSaid(z.app, on, (l) => l.startsWith("bold"));
      const unchecked = await act(z.client, z.window, bold, "uncheck");
      assert.equal(unchecked.ok, true, JSON.stringify(unchecked));
      await saidSince(z.app, from, "bold: off", unchecked);
    },
});
