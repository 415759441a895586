/**
 * A small headless desktop of a test's own, apart from the shared session the other tests
 * use: an Xvfb on a free display, a session bus at a fixed socket path, and the AT-SPI
 * bus launcher and registry on it (as `install/linux/desktop-session.sh` starts them).
 * Each part can be killed and started again at the same address, which is what tests of
 * a failing desktop need; the shared session must never be killed.
 *
 * @module
 */

/** One process of the desktop. */
interface Part {
  child: Deno.ChildProcess;
}

const LAUNCHER = "/usr/libexec/at-spi-bus-launcher";
const REGISTRY = "/usr/libexec/at-spi2-registryd";

/** A desktop of the test's own; {@link stop} ends all of it. */
export interface OwnDesktop {
  /** `":N"`. */
  display: string;
  /** The session bus address (`unix:path=...`), the same across restarts. */
  sessionBus: string;
  /** The environment an app or driver needs to live on this desktop. */
  env: Record<string, string>;
  /**
   * Kills the X server (SIGKILL: a crash, no goodbye to its clients). Its clients go with
   * it: the apps, and the accessibility registry.
   */
  killX(): Promise<void>;
  /** Starts the X server again on the same display, and the registry, as a session would. */
  startX(): Promise<void>;
  /** Kills the session bus (and so the accessibility bus launcher, which lives on it). */
  killSessionBus(): Promise<void>;
  /** Starts the session bus again at the same address, and the accessibility bus on it. */
  startSessionBus(): Promise<void>;
  /** Kills the accessibility bus, its launcher and the registry. */
  killA11yBus(): Promise<void>;
  /** Starts the accessibility bus launcher and the registry again. */
  startA11yBus(): Promise<void>;
  /** Stops everything, apps' X server last. */
  stop(): Promise<void>;
}

/** Polls `probe` until true, at most `ms`; throws `what` then. */
async function until(what: string, probe: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await probe())) {
    if (performance.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function succeeds(cmd: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(cmd, { args, env, stdout: "null", stderr: "null" }).output()
    .catch(() => undefined);
  return out?.success ?? false;
}

async function output(cmd: string, args: string[], env: Record<string, string>) {
  const out = await new Deno.Command(cmd, { args, env, stdout: "piped", stderr: "null" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout);
}

/** Ends `part` with `signal` and reaps it. */
async function end(part: Part | undefined, signal: Deno.Signal = "SIGTERM"): Promise<void> {
  if (!part) return;
  try {
    part.child.kill(signal);
  } catch { /* already gone */ }
  await part.child.status;
}

/** The pids of the children of `parent` (from /proc). */
async function childrenOf(parent: number): Promise<number[]> {
  const out: number[] = [];
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid === parent) out.push(Number(e.name));
  }
  return out;
}

function sessionConfig(socket: string, services: string): string {
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <keep_umask/>
  <listen>unix:path=${socket}</listen>
  <auth>EXTERNAL</auth>
  <servicedir>${services}</servicedir>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

/** An Xvfb of a test's own that can be killed and started again on its display. */
export interface OwnXServer {
  /** `":N"`. */
  display: string;
  /** SIGKILL: a crash, no goodbye to its clients. */
  kill(): Promise<void>;
  /** Starts it again on the same display, once it answers. */
  start(): Promise<void>;
  /** Ends it (idempotent). */
  stop(): Promise<void>;
}

/** Starts Xvfb on a free display (`-displayfd`: it picks one no other server has). */
export async function startXvfb(
  args = ["-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"],
): Promise<OwnXServer> {
  const first = new Deno.Command("Xvfb", {
    args: ["-displayfd", "1", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let x: Part | undefined = { child: first };
  const reader = first.stdout.getReader();
  let text = "";
  while (!text.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("Xvfb did not start");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  void first.stdout.cancel().catch(() => {});
  const display = `:${text.trim()}`;
  const up = () => succeeds("xdpyinfo", ["-display", display], {});
  await until(`Xvfb on ${display}`, up);
  return {
    display,
    async kill() {
      await end(x, "SIGKILL");
      x = undefined;
    },
    async start() {
      const quiet = { stdin: "null", stdout: "null", stderr: "null" } as const;
      x = { child: new Deno.Command("Xvfb", { args: [display, ...args], ...quiet }).spawn() };
      await until(`Xvfb on ${display} again`, up);
    },
    async stop() {
      await end(x);
      x = undefined;
    },
  };
}

/** Starts Xvfb on a free display, a session bus and the accessibility bus. */
export async function startOwnDesktop(): Promise<OwnDesktop> {
  const dir = await Deno.makeTempDir({ prefix: "allternit-own-desktop-" });
  const runtime = `${dir}/runtime`;
  await Deno.mkdir(runtime, { mode: 0o700 });
  await Deno.mkdir(`${dir}/services`);
  const socket = `${dir}/session_bus`;
  await Deno.writeTextFile(`${dir}/session.conf`, sessionConfig(socket, `${dir}/services`));
  const sessionBus = `unix:path=${socket}`;
  const quiet = { stdin: "null", stdout: "null", stderr: "null" } as const;
  const xArgs = ["-screen", "0", "1024x768x24", "-nolisten", "tcp", "-noreset"];

  const server = await startXvfb(xArgs);
  const display = server.display;
  const env: Record<string, string> = {
    DISPLAY: display,
    DBUS_SESSION_BUS_ADDRESS: sessionBus,
    XDG_RUNTIME_DIR: runtime,
    GTK_MODULES: "gail:atk-bridge",
    ACCESSIBILITY_ENABLED: "1",
    GNOME_ACCESSIBILITY: "1",
    GDK_BACKEND: "x11",
    GSETTINGS_BACKEND: "memory",
    NO_AT_BRIDGE: "0",
    HOME: Deno.env.get("HOME") ?? dir,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
  };

  let bus: Part | undefined;
  let launcher: Part | undefined;
  let registry: Part | undefined;

  const startBus = async () => {
    await Deno.remove(socket).catch(() => {});
    bus = {
      child: new Deno.Command("dbus-daemon", {
        args: [`--config-file=${dir}/session.conf`, "--nofork", "--nosyslog"],
        env,
        ...quiet,
      }).spawn(),
    };
    await until(
      "the session bus",
      () =>
        succeeds("dbus-send", [
          "--session",
          "--print-reply",
          "--dest=org.freedesktop.DBus",
          "/org/freedesktop/DBus",
          "org.freedesktop.DBus.GetId",
        ], env),
    );
  };
  const startA11y = async () => {
    launcher = {
      child: new Deno.Command(LAUNCHER, {
        args: ["--launch-immediately", "--a11y=1"],
        env,
        ...quiet,
      }).spawn(),
    };
    await until(
      "the accessibility bus",
      () =>
        succeeds("dbus-send", [
          "--session",
          "--print-reply=literal",
          "--dest=org.a11y.Bus",
          "/org/a11y/bus",
          "org.a11y.Bus.GetAddress",
        ], env),
    );
    await startRegistry();
  };
  /** The registry, an X client too: it goes with the X server, and a session restarts it. */
  const startRegistry = async () => {
    registry = {
      child: new Deno.Command(REGISTRY, { args: ["--use-gnome-session=false"], env, ...quiet })
        .spawn(),
    };
    // Ready once the registry answers on the new bus (the driver's first call asks it).
    const address = await output("dbus-send", [
      "--session",
      "--print-reply=literal",
      "--dest=org.a11y.Bus",
      "/org/a11y/bus",
      "org.a11y.Bus.GetAddress",
    ], env);
    await until("the accessibility registry", () =>
      succeeds("dbus-send", [
        `--bus=${address.trim()}`,
        "--print-reply",
        "--dest=org.a11y.atspi.Registry",
        "/org/a11y/atspi/accessible/root",
        "org.a11y.atspi.Accessible.GetChildren",
      ], env));
  };
  /** The launcher's own bus daemon: a launcher killed outright leaves it running. */
  const a11yDaemons = async () => launcher ? await childrenOf(launcher.child.pid) : [];
  const killA11y = async (daemons?: number[]) => {
    daemons ??= await a11yDaemons();
    for (const pid of daemons) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch { /* gone */ }
    }
    await end(registry, "SIGKILL");
    await end(launcher, "SIGKILL");
    registry = launcher = undefined;
  };
  await startBus();
  await startA11y();

  return {
    display,
    sessionBus,
    env,
    killX: () => server.kill(),
    async startX() {
      await server.start();
      if (registry) {
        await end(registry, "SIGKILL");
        await startRegistry();
      }
    },
    async killSessionBus() {
      // Found first: once the launcher has left with the session, they are no one's child.
      const daemons = await a11yDaemons();
      await end(bus, "SIGKILL");
      bus = undefined;
      // The launcher and its bus go with the session on their own, not always at once, and
      // the registry lingers: all of them end here, so the test knows they are gone.
      await killA11y(daemons);
    },
    async startSessionBus() {
      await startBus();
      await startA11y();
    },
    killA11yBus: () => killA11y(),
    startA11yBus: startA11y,
    async stop() {
      await killA11y();
      await end(bus);
      await server.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
