/**
 * The apps the soak bench starts and stops: small real windows of GTK 3, GTK 4 and Qt, each
 * with what a client looks for in it and, where pressing is harmless, digit buttons to press
 * (gnome-calculator's). gnome-calculator is one instance per session (a second start only
 * raises the first), so one of it runs at a time.
 *
 * @module
 */
import { type App, calculator, mousepad, startApp } from "../../tests/support/apps.ts";

/** A find query, as `find` takes it. */
export type Query = {
  role?: string;
  name?: string;
  name_contains?: string;
  text_contains?: string;
};

/** One kind of app the soak starts. */
export interface Kind {
  /** For the counts. */
  name: string;
  /** Only one may run at a time. */
  single?: true;
  /** Starts instance `n`; resolves once its window is on the bus. */
  start(n: number): Promise<App>;
  /** What a client finds in it. */
  query: Query;
  /** Buttons pressed with `act` (safe to press), by the first word of their names. */
  presses?: readonly string[];
}

const LIST_ROWS = 300;

/** The kinds, in the order the bench's slots take them. */
export const KINDS: readonly Kind[] = [
  {
    name: "gnome-calculator",
    single: true,
    start: () => calculator(),
    query: { role: "AXButton", name_contains: "7" },
    presses: ["4", "2"],
  },
  {
    name: "mousepad",
    start: () => mousepad(),
    query: { name_contains: "File" },
  },
  {
    name: "zenity entry",
    start: (n) =>
      startApp("zenity", ["--entry", `--title=Soak entry ${n}`, "--text=Soak"], `Soak entry ${n}`),
    query: { role: "AXButton" },
  },
  {
    name: "featherpad",
    start: () => startApp("featherpad", ["--standalone"], "Untitled"),
    query: { name_contains: "Edit" },
  },
  {
    name: "zenity list",
    start: (n) =>
      startApp("zenity", [
        "--list",
        `--title=Soak list ${n}`,
        "--height=400",
        "--column=Item",
        ...Array.from({ length: LIST_ROWS }, (_, i) => `Row ${i + 1}`),
      ], `Soak list ${n}`),
    query: { text_contains: "Row 5" },
  },
];
