// The hub's persistent vector behaves like an array that is copied on every write, at any size.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PersistentVector } from "../../src/main/hub/persistentVector.js";

describe("PersistentVector", () => {
  it("matches a copied array under random pushes and sets, and old versions never change", () => {
    const op = fc.oneof(fc.record({ push: fc.integer() }), fc.record({ set: fc.nat(), value: fc.integer() }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.nat({ max: 1100 }), (ops, prefill) => {
        let vec = PersistentVector.empty<number>();
        let model: number[] = [];
        for (let i = 0; i < prefill; i++) {
          vec = vec.push(i);
          model.push(i);
        }
        const history: [PersistentVector<number>, number[]][] = [];
        for (const o of ops) {
          history.push([vec, model]);
          if ("push" in o) {
            vec = vec.push(o.push);
            model = [...model, o.push];
          } else if (model.length > 0) {
            const at = o.set % model.length;
            vec = vec.set(at, o.value);
            model = model.slice();
            model[at] = o.value;
          }
        }
        expect(vec.toArray()).toEqual(model);
        expect(vec.get(model.length)).toBeUndefined();
        for (const [old, oldModel] of history) expect(old.toArray()).toEqual(oldModel);
      }),
      { numRuns: 40 },
    );
  });
});
