import assert from "node:assert/strict";
import { isDriverError } from "../protocol/errors.ts";
import { openBackend, safeToResend } from "./backend.ts";

/**
 * A fake driver on a unix socket: answers `list_apps` with its connection number and
 * ends each connection as `drop` says, counting the requests that reached it.
 */
function fakeDriver(path: string, drop: (conn: number, method: string) => "answer" | "close") {
  const listener = Deno.listen({ transport: "unix", path });
  const seen: string[] = [];
  const conns: Deno.Conn[] = [];
  const serving = (async () => {
    let n = 0;
    for await (const conn of listener) {
      const me = ++n;
      conns.push(conn);
      (async () => {
        const dec = new TextDecoder();
        let buf = "";
        try {
          for await (const chunk of conn.readable) {
            buf += dec.decode(chunk);
            let nl;
            while ((nl = buf.indexOf("\n")) >= 0) {
              const req = JSON.parse(buf.slice(0, nl));
              buf = buf.slice(nl + 1);
              seen.push(`${me}:${req.method}`);
              if (drop(me, req.method) === "close") {
                conn.close();
                return;
              }
              const line = JSON.stringify({ jsonrpc: "2.0", id: req.id, result: { conn: me } });
              await conn.write(new TextEncoder().encode(line + "\n"));
            }
          }
        } catch {
          // Closed by the test.
        }
      })();
    }
  })().catch(() => {});
  return {
    seen,
    /** Ends connection `i` (1-based), as the driver's idle timer does. */
    closeConn(i: number) {
      conns[i - 1]!.close();
    },
    async stop() {
      listener.close();
      await serving;
    },
  };
}

Deno.test("safeToResend() allows reads only", () => {
  assert.deepEqual(
    ["list_apps", "read_ui", "find", "act", "run_batch", "pixel_click", "nope"].map(safeToResend),
    [true, true, true, false, false, false, false],
  );
});

Deno.test("RemoteBackend reopens a connection the driver closed while idle", async () => {
  const dir = await Deno.makeTempDir();
  const driver = fakeDriver(`${dir}/d.sock`, () => "answer");
  const backend = await openBackend({ socket: `${dir}/d.sock` });
  try {
    assert.deepEqual(await backend.call("list_apps", {}), { conn: 1 });
    driver.closeConn(1);
    // The client sees the close on its own read loop, which nothing outside it can wait
    // on; a moment is plenty on a local socket. The act is sent on a new connection.
    await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual(await backend.call("act", {}), { conn: 2 });
    assert.deepEqual(driver.seen, ["1:list_apps", "2:act"]);
  } finally {
    await backend.close();
    await driver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("RemoteBackend resends once a read the connection died under", async () => {
  const dir = await Deno.makeTempDir();
  // The first connection dies with each request on it, as if the idle timer won the race.
  const driver = fakeDriver(`${dir}/d.sock`, (conn) => conn === 1 ? "close" : "answer");
  const backend = await openBackend({ socket: `${dir}/d.sock` });
  try {
    assert.deepEqual(await backend.call("read_ui", {}), { conn: 2 });
    assert.deepEqual(driver.seen, ["1:read_ui", "2:read_ui"]);
  } finally {
    await backend.close();
    await driver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("RemoteBackend does not resend an act that may have run", async () => {
  const dir = await Deno.makeTempDir();
  const driver = fakeDriver(`${dir}/d.sock`, (conn) => conn === 1 ? "close" : "answer");
  const backend = await openBackend({ socket: `${dir}/d.sock` });
  try {
    await assert.rejects(
      backend.call("act", {}),
      (err) => isDriverError(err, "driver_unavailable"),
    );
    assert.deepEqual(driver.seen, ["1:act"]);
    // The next call goes out on a new connection.
    assert.deepEqual(await backend.call("act", {}), { conn: 2 });
  } finally {
    await backend.close();
    await driver.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
