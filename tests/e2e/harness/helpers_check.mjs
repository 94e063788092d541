// node tests/e2e/harness/helpers_check.mjs — checks board.js's pure helpers (no DOM needed).
import assert from "node:assert/strict";
import {
  ownPointToIndex, indexToOwnPoint, pointSlot, pipCount, borneOff, diceFaces, formatTurn,
} from "../../../static/js/board.js";

for (const s of ["w", "b"]) for (let p = 1; p <= 24; p++) assert.equal(indexToOwnPoint(s, ownPointToIndex(s, p)), p);
assert.equal(ownPointToIndex("w", 24), 23);
assert.equal(ownPointToIndex("b", 24), 11); // Black's head is White's 12
assert.equal(ownPointToIndex("b", 12), 23); // White's 24 is Black's 12
assert.equal(ownPointToIndex("b", 1), 12);
assert.deepEqual(pointSlot(24), { row: "top", col: 11 }); // head top right
assert.deepEqual(pointSlot(13), { row: "top", col: 0 });
assert.deepEqual(pointSlot(12), { row: "bottom", col: 0 });
assert.deepEqual(pointSlot(1), { row: "bottom", col: 11 }); // home bottom right
const start = Array(24).fill(0);
start[23] = 15;
start[11] = -15;
assert.equal(pipCount(start, "w"), 360);
assert.equal(pipCount(start, "b"), 360);
assert.equal(borneOff(start, "w"), 0);
assert.deepEqual(diceFaces([5, 3], [3]), [{ value: 5, used: true }, { value: 3, used: false }]);
assert.equal(diceFaces([4, 4], [4, 4]).filter((f) => f.used).length, 2);
assert.equal(formatTurn({ number: 1, side: "w", dice: [5, 3], steps: [[24, 19, 5], [19, 16, 3]] }), "1. W 5-3: 24/19 19/16");
assert.equal(formatTurn({ number: 2, side: "b", dice: [6, 6], steps: [] }), "2. B 6-6: —");
assert.equal(formatTurn({ number: 3, side: "w", dice: [2, 1], steps: [[2, 0, 2]] }), "3. W 2-1: 2/off");
console.log("board.js helpers OK");
