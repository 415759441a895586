import assert from "node:assert/strict";
import { DBusConnection } from "./connection.ts";
import { DBusClosedError, DBusError, DBusTimeoutError } from "./errors.ts";
import type { DBusSignal, IncomingCall, MethodCall } from "./types.ts";
import { Variant } from "./variant.ts";

/** A private dbus-daemon, killed on dispose. */
interface TestBus extends AsyncDisposable {
  address: string;
  pid: number;
  kill(): void;
}

async function startBus(listen?: string): Promise<TestBus> {
  const args = ["--session", "--fork", "--nosyslog", "--print-address=1", "--print-pid=1"];
  const out = await new Deno.Command("dbus-daemon", {
    args: listen === undefined ? args : [...args, `--address=${listen}`],
    stdout: "piped",
  }).output();
  assert.ok(out.success, "dbus-daemon failed to start");
  const [address = "", pid = ""] = new TextDecoder().decode(out.stdout).trim().split("\n");
  let alive = true;
  const kill = (): void => {
    if (alive) Deno.kill(Number(pid), "SIGTERM");
    alive = false;
  };
  return { address, pid: Number(pid), kill, [Symbol.asyncDispose]: () => Promise.resolve(kill()) };
}

const BUS = {
  destination: "org.freedesktop.DBus",
  path: "/org/freedesktop/DBus",
  interface: "org.freedesktop.DBus",
} as const;
const SERVICE = "com.example.Service";

/** Connects a second client that owns SERVICE and hands its calls to `onCall`. */
async function startService(
  address: string,
  onCall: (call: IncomingCall, bus: DBusConnection) => void,
): Promise<DBusConnection> {
  const bus = await DBusConnection.connect(address);
  bus.onMethodCall((call) => onCall(call, bus));
  const [reply] = await bus.call({
    ...BUS,
    member: "RequestName",
    signature: "su",
    body: [SERVICE, 4], // DBUS_NAME_FLAG_DO_NOT_QUEUE
  });
  assert.equal(reply, 1); // PRIMARY_OWNER
  return bus;
}

const toService = (member: string, signature = "", body: unknown[] = []): MethodCall => ({
  destination: SERVICE,
  path: "/com/example",
  interface: SERVICE,
  member,
  signature,
  body,
});

Deno.test("connection: Hello gives a unique name; ListNames includes the bus", async () => {
  await using daemon = await startBus();
  await using bus = await DBusConnection.connect(daemon.address);
  assert.match(bus.uniqueName, /^:\d+\.\d+$/);
  assert.match(bus.guid, /^[0-9a-f]{32}$/);
  const [names] = await bus.call({ ...BUS, member: "ListNames" });
  assert.ok(Array.isArray(names) && names.includes("org.freedesktop.DBus"));
  assert.ok(names.includes(bus.uniqueName));
});

Deno.test("connection: abstract-namespace sockets work", async () => {
  await using daemon = await startBus(`unix:abstract=/tmp/allternit-dbus-${crypto.randomUUID()}`);
  assert.match(daemon.address, /^unix:abstract=/);
  await using bus = await DBusConnection.connect(daemon.address);
  assert.match(bus.uniqueName, /^:\d+\.\d+$/);
});

Deno.test("connection: an ERROR reply rejects with DBusError", async () => {
  await using daemon = await startBus();
  await using bus = await DBusConnection.connect(daemon.address);
  const missing = { ...BUS, member: "GetNameOwner", signature: "s", body: ["com.example.None"] };
  await assert.rejects(bus.call(missing), (e: unknown) => {
    assert.ok(e instanceof DBusError);
    assert.equal(e.errorName, "org.freedesktop.DBus.Error.NameHasNoOwner");
    assert.match(e.message, /com\.example\.None/);
    return true;
  });
  // A peer with no method handler answers UnknownMethod, but does answer Peer.Ping.
  await using other = await DBusConnection.connect(daemon.address);
  const ping = { destination: other.uniqueName, path: "/", interface: "org.freedesktop.DBus.Peer" };
  assert.deepEqual(await bus.call({ ...ping, member: "Ping" }), []);
  await assert.rejects(
    bus.call({ ...ping, interface: "com.example.X", member: "Nope" }),
    (e: unknown) => e instanceof DBusError && e.errorName.endsWith("UnknownMethod"),
  );
});

Deno.test("connection: 500 pipelined calls each get their own reply", async () => {
  await using daemon = await startBus();
  const held: IncomingCall[] = [];
  await using service = await startService(daemon.address, (call, bus) => {
    if (call.member === "Echo") return bus.reply(call, call.signature, call.body);
    held.push(call);
    // Answer in reverse arrival order so replies cannot line up with calls by accident.
    if (held.length === 500) {
      for (const c of held.reverse()) bus.reply(c, "u", [(c.body[0] as number) * 2]);
    }
  });
  await using bus = await DBusConnection.connect(daemon.address);
  const n = Array.from({ length: 500 }, (_, i) => i);
  const doubled = await Promise.all(n.map((i) => bus.call(toService("Double", "u", [i]))));
  assert.deepEqual(doubled, n.map((i) => [i * 2]));
  const owners = await Promise.all(n.map((i) =>
    bus.call({
      ...BUS,
      member: "GetNameOwner",
      signature: "s",
      body: [i % 2 ? SERVICE : bus.uniqueName],
    })
  ));
  assert.deepEqual(owners, n.map((i) => [i % 2 ? service.uniqueName : bus.uniqueName]));
  // Messages far larger than the socket buffer, queued together, must arrive intact.
  const big = [1, 2, 3].map((k) => String(k).repeat(3 * 1024 * 1024 + k));
  const echoes = await Promise.all(big.map((text) => bus.call(toService("Echo", "s", [text]))));
  assert.ok(echoes.every((body, k) => body[0] === big[k]));
});

Deno.test("connection: a signal emitted by one client reaches a matching one", async () => {
  await using daemon = await startBus();
  const listenerErrors: unknown[] = [];
  await using a = await DBusConnection.connect(daemon.address, {
    onListenerError: (e) => listenerErrors.push(e),
  });
  await using b = await DBusConnection.connect(daemon.address);
  await a.addMatch("type='signal',interface='com.example.Events'");
  a.onSignal(() => {
    throw new Error("listener bug");
  });
  const next = (): Promise<DBusSignal> => {
    return new Promise((resolve) => {
      const off = a.onSignal((s) => {
        if (s.interface !== "com.example.Events") return;
        off();
        resolve(s);
      });
    });
  };
  const body = ["hello", new Map([["n", new Variant("i", 5)]]), [1n, 2n]];
  const first = next();
  b.emit({
    path: "/com/example",
    interface: "com.example.Events",
    member: "Happened",
    signature: "sa{sv}at",
    body,
  });
  const s = await first;
  assert.deepEqual(s, {
    sender: b.uniqueName,
    path: "/com/example",
    interface: "com.example.Events",
    member: "Happened",
    signature: "sa{sv}at",
    body,
  });
  // The throwing listener was reported, and the read loop is still delivering.
  assert.ok(listenerErrors.length >= 1);
  const second = next();
  b.emit({ path: "/com/example", interface: "com.example.Events", member: "Again" });
  assert.equal((await second).member, "Again");
  await a.removeMatch("type='signal',interface='com.example.Events'");
});

Deno.test("connection: a per-call timeout fires and the connection stays usable", async () => {
  await using daemon = await startBus();
  await using _silent = await startService(daemon.address, () => {});
  await using bus = await DBusConnection.connect(daemon.address);
  const started = performance.now();
  await assert.rejects(bus.call(toService("Wait"), { timeoutMs: 200 }), (e: unknown) => {
    assert.ok(e instanceof DBusTimeoutError);
    assert.equal(e.ms, 200);
    return true;
  });
  assert.ok(performance.now() - started >= 190);
  const [names] = await bus.call({ ...BUS, member: "ListNames" });
  assert.ok(Array.isArray(names) && names.includes(SERVICE));
});

Deno.test("connection: aborting rejects with the signal's reason; late replies are dropped", async () => {
  await using daemon = await startBus();
  const held: IncomingCall[] = [];
  let arrived: () => void = () => {};
  await using service = await startService(daemon.address, (call, bus) => {
    if (call.member === "Quick") return bus.reply(call);
    held.push(call);
    arrived();
  });
  await using bus = await DBusConnection.connect(daemon.address);
  const controller = new AbortController();
  const seen = new Promise<void>((resolve) => arrived = resolve);
  const call = bus.call(toService("Slow"), { signal: controller.signal });
  await seen;
  const reason = new Error("user gave up");
  controller.abort(reason);
  await assert.rejects(call, (e: unknown) => e === reason);
  // The late reply is sent before the Quick one, so it has been handled when Quick resolves.
  service.reply(held[0]!, "s", ["too late"]);
  assert.deepEqual(await bus.call(toService("Quick")), []);
  const already = AbortSignal.abort(new Error("before"));
  await assert.rejects(bus.call(toService("Never"), { signal: already }), /before/);
  assert.equal(held.length, 1);
});

Deno.test("connection: callNoReply sends a call flagged NO_REPLY_EXPECTED", async () => {
  await using daemon = await startBus();
  let got: (call: IncomingCall) => void = () => {};
  const received = new Promise<IncomingCall>((resolve) => got = resolve);
  await using _service = await startService(daemon.address, (call) => got(call));
  await using bus = await DBusConnection.connect(daemon.address);
  bus.callNoReply(toService("Fire", "as", [["and", "forget"]]));
  const call = await received;
  assert.equal(call.noReplyExpected, true);
  assert.equal(call.sender, bus.uniqueName);
  assert.deepEqual(call.body, [["and", "forget"]]);
});

Deno.test("connection: killing the daemon rejects pending calls with DBusClosedError", async () => {
  await using daemon = await startBus();
  await using _silent = await startService(daemon.address, () => {});
  await using bus = await DBusConnection.connect(daemon.address);
  const closedReason = new Promise<DBusClosedError>((resolve) => bus.onClose(resolve));
  const pending = bus.call(toService("Wait"));
  // A round trip proves the call above reached the bus before the bus goes away.
  await bus.call({ ...BUS, member: "GetId" });
  daemon.kill();
  await assert.rejects(pending, DBusClosedError);
  assert.ok((await closedReason) instanceof DBusClosedError);
  assert.equal(bus.closed, true);
  await assert.rejects(bus.call({ ...BUS, member: "GetId" }), DBusClosedError);
  assert.throws(() => bus.emit({ path: "/", interface: "a.b", member: "C" }), DBusClosedError);
});

Deno.test("connection: close is idempotent and rejects pending calls", async () => {
  await using daemon = await startBus();
  await using _silent = await startService(daemon.address, () => {});
  const bus = await DBusConnection.connect(daemon.address);
  const pending = bus.call(toService("Wait"));
  bus.close();
  bus.close();
  await assert.rejects(pending, DBusClosedError);
  let calls = 0;
  bus.onClose(() => calls++);
  assert.equal(calls, 1);
  await bus[Symbol.asyncDispose]();
});

Deno.test("connection: connect fails clearly", async () => {
  await assert.rejects(DBusConnection.connect("tcp:host=x,port=1"), /no unix transport/);
  await assert.rejects(DBusConnection.connect("unix:path=/nonexistent/dbus-socket"));
  const reason = new Error("cancelled");
  await using daemon = await startBus();
  await assert.rejects(
    DBusConnection.connect(daemon.address, { signal: AbortSignal.abort(reason) }),
    (e: unknown) => e === reason,
  );
});
