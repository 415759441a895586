/**
 * Listeners for the two transports: a private unix socket, and loopback TCP with a token.
 *
 * @module
 */
import { DriverError } from "../protocol/errors.ts";
import { dirname, ensurePrivateDir } from "../util/paths.ts";

/** Thrown when another driver already serves the socket; `main.ts` exits with it. */
export class AlreadyRunningError extends Error {
  /** Says which socket is taken. */
  constructor(path: string) {
    super(`Another driver is already listening on "${path}"; not taking it over`);
    this.name = "AlreadyRunningError";
  }
}

/**
 * Listens on a unix socket in a 0700 folder, mode 0600 from the first instant anyone
 * can connect (whatever the umask). A stale socket file (nobody answers) is replaced; a
 * live one is left alone and {@link AlreadyRunningError} thrown.
 */
export async function listenUnix(path: string): Promise<Deno.UnixListener> {
  await ensurePrivateDir(dirname(path));
  let stat: Deno.FileInfo | undefined;
  try {
    stat = await Deno.lstat(path);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  if (stat) {
    if (!stat.isSocket) {
      throw new Error(`Cannot listen on "${path}": a file that is not a socket is there`);
    }
    let live = false;
    try {
      const probe = await Deno.connect({ transport: "unix", path });
      probe.close();
      live = true;
    } catch {
      // Refused: the socket file outlived its driver.
    }
    if (live) throw new AlreadyRunningError(path);
    await Deno.remove(path);
  }
  return await bindPrivately(path);
}

/**
 * Binds the socket in a fresh 0700 folder beside `path`, sets it 0600 there, then renames
 * it into place. A socket is created with mode 0777 minus the umask, so bound at `path`
 * directly it would take connections from anyone (umask 000, folder 0755) until the
 * chmod; in the private folder nobody else can reach it, and the rename makes it appear
 * at `path` already 0600. Same folder, so the rename never crosses file systems.
 */
async function bindPrivately(path: string): Promise<Deno.UnixListener> {
  if (Deno.build.os === "windows") return Deno.listen({ transport: "unix", path });
  const dir = dirname(path);
  // Short: a unix socket path holds about 107 bytes, and this one is longer than `path`
  // only when its name is shorter than 10 bytes.
  const tag = crypto.randomUUID().slice(0, 6);
  const tmpDir = `${dir}/.${tag}`;
  await Deno.mkdir(tmpDir, { mode: 0o700 });
  try {
    // mkdir's mode passes through the umask, which may only have taken bits away.
    await Deno.chmod(tmpDir, 0o700);
    const tmp = `${tmpDir}/s`;
    const listener = Deno.listen({ transport: "unix", path: tmp });
    try {
      await Deno.chmod(tmp, 0o600);
      await Deno.rename(tmp, path);
    } catch (err) {
      listener.close();
      await Deno.remove(tmp).catch(() => {});
      throw err;
    }
    return listener;
  } finally {
    await Deno.remove(tmpDir).catch(() => {});
  }
}

/** True for addresses that never leave this machine. */
export function isLoopback(host: string): boolean {
  return /^127(\.\d{1,3}){3}$/.test(host) || host === "::1" || host === "localhost";
}

/** Listens on loopback TCP; any other address is refused. Port 0 picks a free one. */
export function listenTcp(host = "127.0.0.1", port = 0): Deno.TcpListener {
  if (!isLoopback(host)) {
    throw new DriverError(
      "invalid_params",
      `Refusing to listen on "${host}": only loopback addresses are allowed`,
    );
  }
  return Deno.listen({ hostname: host === "localhost" ? "127.0.0.1" : host, port });
}
