/**
 * Processes by pid, from `/proc`: the name a person calls a program by, and the command
 * lines X clients can be matched against. Pure parsing is kept apart from the reads so it
 * can be tested without a process.
 *
 * @module
 */

/** `comm` holds at most this many characters: a longer name is cut (TASK_COMM_LEN - 1). */
const COMM_MAX = 15;

/** The arguments of a NUL-separated list (`/proc/PID/cmdline`, X's `WM_COMMAND`). */
export function splitArgs(bytes: Uint8Array): string[] {
  const text = new TextDecoder().decode(bytes);
  const args = text.split("\0");
  if (args.at(-1) === "") args.pop(); // the list ends in a NUL
  return args;
}

/**
 * The name of a process as `ps` shows it (`comm`), whole: the kernel cuts `comm` at 15
 * characters, so a cut one is completed from the program's path in `argv[0]` when that
 * starts the same way (`gnome-calculato` → `gnome-calculator`).
 */
export function processNameOf(comm: string, argv: readonly string[]): string {
  const name = comm.replace(/\n$/, "");
  if (name.length < COMM_MAX) return name;
  const base = (argv[0] ?? "").split("/").at(-1) ?? "";
  return base.startsWith(name) ? base : name;
}

/** The name of process `pid` ({@link processNameOf}); `undefined` when it is gone. */
export function processName(pid: number): string | undefined {
  if (!(pid > 0)) return undefined;
  try {
    const comm = Deno.readTextFileSync(`/proc/${pid}/comm`);
    return processNameOf(comm, commandLine(pid) ?? []);
  } catch {
    return undefined;
  }
}

/** The arguments process `pid` was started with; `undefined` when it is gone or hidden. */
export function commandLine(pid: number): string[] | undefined {
  try {
    return splitArgs(Deno.readFileSync(`/proc/${pid}/cmdline`));
  } catch {
    return undefined;
  }
}

/** One process and its arguments. */
export interface ProcessArgs {
  /** Process id. */
  pid: number;
  /** Its command line. */
  argv: readonly string[];
}

/** Every process this one may see, with its command line (kernel threads have none). */
export function processes(): ProcessArgs[] {
  const out: ProcessArgs[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const pid = Number(entry.name);
    const argv = commandLine(pid);
    if (argv && argv.length > 0) out.push({ pid, argv });
  }
  return out;
}

/**
 * The one process whose command line is `command` (an X client's `WM_COMMAND`);
 * `undefined` when none is, or when several are (two xcalcs started alike cannot be told
 * apart this way, and a wrong pid is worse than none).
 */
export function matchCommand(
  command: readonly string[],
  procs: readonly ProcessArgs[],
): number | undefined {
  if (command.length === 0) return undefined;
  const same = (argv: readonly string[]) =>
    argv.length === command.length && argv.every((a, i) => a === command[i]);
  const found = procs.filter((p) => same(p.argv));
  return found.length === 1 ? found[0]!.pid : undefined;
}

/**
 * Whether an X client's `WM_CLIENT_MACHINE` names this host: a pid means something only
 * on the machine it came from. The short and the fully qualified name both count.
 */
export function sameHost(machine: string, hostname: string): boolean {
  const a = machine.toLowerCase();
  const b = hostname.toLowerCase();
  return a === b || a.split(".")[0] === b.split(".")[0];
}
