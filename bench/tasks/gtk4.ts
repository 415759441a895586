/**
 * Tasks on GTK 4 apps: GNOME Calculator.
 *
 * The checkers read the calculator with pyatspi in their own process: its display (a
 * source view the bus names "GtkSourceView") and its history, whose rows are labels of
 * the expression, "=" and the result.
 *
 * @module
 */
import { settled, type Task } from "./task.ts";
import { launch } from "./launch.ts";
import { oracleNodes } from "../../tests/support/oracle.ts";

/** gnome-calculator, in a home of its own (it starts in Basic mode with no history). */
const calculator = (dir: string) =>
  launch({ cmd: "gnome-calculator", args: [], window: "Calculator", dir });

/**
 * Why the calculator of `pid` does not show `result` for `expression` (as its history
 * writes it), or undefined when its display and its history both do.
 */
function shows(pid: number, expression: string, result: string) {
  return settled(() => showing(pid, expression, result));
}

/** {@link shows}, read once. */
async function showing(pid: number, expression: string, result: string) {
  const nodes = await oracleNodes(pid);
  const display = nodes.find((n) => n.role === "text" && n.name === "GtkSourceView")?.text;
  const labels = nodes.filter((n) => n.role === "label").map((n) => n.name);
  const at = labels.lastIndexOf(expression);
  const history = at >= 0 && labels[at + 1] === "=" && labels[at + 2] === result;
  if (display === result && history) return undefined;
  return `the display shows ${JSON.stringify(display)}, the history ${
    JSON.stringify(labels.filter((l) => l.length > 1 || /[0-9=]/.test(l)).slice(0, 12))
  }`;
}

/** The buttons pressed, by the names the calculator gives them (label and tooltip). */
const KEYS = ["1 1", "2 2", "× ×", "7 7", "= ="];

/** 12 × 7 = by the calculator's buttons. */
const calculatorCompute: Task = {
  id: "calculator-compute",
  title: "GNOME Calculator: press 1 2 × 7 = by its buttons",
  family: "GTK 4",
  prepare(dir) {
    return Promise.resolve({ dir, values: { keys: JSON.stringify(KEYS) } });
  },
  launch: (f) => calculator(f.dir),
  async ours(agent, app) {
    const main = await agent.window(app.pid, /Calculator/);
    for (const key of KEYS) await agent.press(main, key, "AXButton");
  },
  check: (_f, app) => shows(app.pid, "12×7", "84"),
};

/** An expression typed into the calculator's entry and evaluated with Return. */
const calculatorExpression: Task = {
  id: "calculator-expression",
  title: "GNOME Calculator: type (40+2)/6 into its entry and evaluate it",
  family: "GTK 4",
  prepare(dir) {
    return Promise.resolve({ dir, values: { expression: "(40+2)/6" } });
  },
  launch: (f) => calculator(f.dir),
  async ours(agent, app, f) {
    const main = await agent.window(app.pid, /Calculator/);
    await agent.set(
      main,
      { role: "AXTextArea", name: "GtkSourceView" },
      f.values.expression!,
      "enter",
    );
  },
  // The calculator writes a typed "/" as "÷" in its history.
  check: (_f, app) => shows(app.pid, "(40+2)÷6", "7"),
};

/** The GTK 4 tasks. */
export const GTK4_TASKS: readonly Task[] = [calculatorCompute, calculatorExpression];
