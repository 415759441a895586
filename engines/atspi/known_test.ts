import assert from "node:assert/strict";
import { Known } from "./known.ts";

const fixed = { role: 1, ifaces: new Set<string>() };

Deno.test("known: an app that left the bus is forgotten whole, the others kept", () => {
  const known = new Known();
  for (const bus of [":1.1", ":1.2"]) {
    known.set({ bus, path: "/a" }, fixed);
    known.set({ bus, path: "/b" }, fixed);
    known.walkOnly.add(bus);
    known.toolkits.set(bus, "gtk");
    known.noCollection.add(bus);
    known.filled.add(bus);
    known.warm.set(bus, { skeleton: new Map(), at: 0 });
  }
  known.set({ bus: ":1.1", path: "/a" }, fixed); // the same object again counts once
  assert.equal(known.size, 4);
  known.keep(new Set([":1.2", ":1.3"]));
  assert.equal(known.size, 2);
  assert.equal(known.get({ bus: ":1.1", path: "/a" }), undefined);
  assert.equal(known.get({ bus: ":1.2", path: "/b" }), fixed);
  for (
    const perApp of [known.walkOnly, known.toolkits, known.noCollection, known.filled, known.warm]
  ) {
    assert.deepEqual([...perApp.keys()], [":1.2"]);
  }
});

Deno.test("known: forgetting an app's objects keeps the count true", () => {
  const known = new Known();
  known.set({ bus: ":1.1", path: "/a" }, fixed);
  known.set({ bus: ":1.2", path: "/a" }, fixed);
  known.forget(":1.1");
  known.forget(":1.9");
  assert.equal(known.size, 1);
  assert.equal(known.get({ bus: ":1.2", path: "/a" }), fixed);
});
