import assert from "node:assert/strict";
import { parseAddress, resolveUnixAddress } from "./address.ts";
import { externalIdentity } from "./sasl.ts";

Deno.test("address: unix path and guid", () => {
  const a = resolveUnixAddress("unix:path=/tmp/dbus-x,guid=0123456789abcdef0123456789abcdef");
  assert.deepEqual(a, {
    socketPath: "/tmp/dbus-x",
    abstract: false,
    guid: "0123456789abcdef0123456789abcdef",
  });
});

Deno.test("address: abstract names get a leading NUL", () => {
  const a = resolveUnixAddress("unix:abstract=/tmp/dbus-y");
  assert.equal(a.socketPath, "\0/tmp/dbus-y");
  assert.equal(a.abstract, true);
  assert.equal(a.guid, undefined);
});

Deno.test("address: the first usable unix entry wins; escapes are decoded", () => {
  const a = resolveUnixAddress(
    "tcp:host=localhost,port=1;unix:tmpdir=/tmp;unix:path=/run/a%2cb%20%c3%a9;unix:path=/z",
  );
  assert.equal(a.socketPath, "/run/a,b é");
  assert.equal(parseAddress("unix:path=/a;;tcp:host=h").length, 2);
});

Deno.test("address: errors name the address and the reason", () => {
  assert.throws(
    () => resolveUnixAddress("tcp:host=localhost,port=1"),
    { message: 'Cannot parse D-Bus address "tcp:host=localhost,port=1": no unix transport' },
  );
  assert.throws(() => resolveUnixAddress(""), /no unix transport/);
  assert.throws(() => parseAddress("nocolon"), /has no transport/);
  assert.throws(() => parseAddress("unix:path"), /is not key=value/);
  assert.throws(() => parseAddress("unix:path=/a%zz"), /bad escape/);
  assert.throws(() => parseAddress("unix:path=/a,path=/b"), /repeats/);
  assert.throws(() => resolveUnixAddress("unix:path=/a,abstract=b"), /both path and abstract/);
});

Deno.test("sasl: EXTERNAL identity is the hex of the decimal uid", () => {
  assert.equal(externalIdentity(0), "30");
  assert.equal(externalIdentity(1000), "31303030");
});
