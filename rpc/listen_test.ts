import assert from "node:assert/strict";
import { listenUnix } from "./listen.ts";

const linuxOnly = Deno.build.os === "windows";

/**
 * Whether a user other than the owner could connect to the socket at `path` right now:
 * the socket must grant others write, and every folder up to it search.
 */
function othersCanConnect(path: string): boolean {
  if ((Deno.lstatSync(path).mode! & 0o002) === 0) return false;
  let dir = path.slice(0, path.lastIndexOf("/"));
  while (dir !== "") {
    if ((Deno.statSync(dir).mode! & 0o001) === 0) return false;
    dir = dir.slice(0, dir.lastIndexOf("/"));
  }
  return true;
}

Deno.test({
  name: "listenUnix() with umask 000 in a 0755 folder: no instant where others can connect",
  ignore: linuxOnly,
  async fn() {
    const base = await Deno.makeTempDir();
    await Deno.chmod(base, 0o755);
    const dir = `${base}/sock`;
    await Deno.mkdir(dir);
    await Deno.chmod(dir, 0o755); // an existing folder: left as it is
    const path = `${dir}/driver.sock`;
    const seen: { bound: string; open: boolean; atPath: boolean }[] = [];
    const realListen = Deno.listen;
    // Checks the socket the very moment it is bound, before listenUnix can chmod anything.
    const spy = ((options: Deno.UnixListenOptions & { transport: "unix" }) => {
      const listener = realListen(options);
      seen.push({
        bound: options.path,
        open: othersCanConnect(options.path),
        atPath: (() => {
          try {
            return othersCanConnect(path);
          } catch {
            return false; // Not there yet.
          }
        })(),
      });
      return listener;
    }) as typeof Deno.listen;
    const umask = Deno.umask(0);
    Deno.listen = spy;
    let listener: Deno.UnixListener | undefined;
    try {
      listener = await listenUnix(path);
    } finally {
      Deno.listen = realListen;
      Deno.umask(umask);
    }
    try {
      assert.equal(seen.length, 1, "one bind");
      assert.deepEqual(seen[0]!.open, false, `reachable by others when bound: ${seen[0]!.bound}`);
      assert.equal(seen[0]!.atPath, false, "nothing reachable at the path when bound");
      const stat = await Deno.lstat(path);
      assert.ok(stat.isSocket);
      assert.equal(stat.mode! & 0o777, 0o600);
      assert.equal((await Deno.stat(dir)).mode! & 0o777, 0o755, "the folder is left as it was");
      const names = [];
      for await (const e of Deno.readDir(dir)) names.push(e.name);
      assert.deepEqual(names, ["driver.sock"], "no temporary folder left behind");
      const conn = await Deno.connect({ transport: "unix", path });
      const accepted = await listener.accept();
      conn.close();
      accepted.close();
    } finally {
      listener.close();
      await Deno.remove(base, { recursive: true });
    }
  },
});

Deno.test({
  name: "listenUnix() replaces a stale socket and refuses a live one",
  ignore: linuxOnly,
  async fn() {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/driver.sock`;
    const first = await listenUnix(path);
    await assert.rejects(listenUnix(path), /already listening/);
    first.close();
    const second = await listenUnix(path); // the file stayed; nobody answers it now
    assert.equal((await Deno.lstat(path)).mode! & 0o777, 0o600);
    second.close();
    await Deno.remove(dir, { recursive: true });
  },
});
