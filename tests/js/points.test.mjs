// Numbering, counts and notation shared by the match and replay pages (docs/rules.md, "Board,
// numbering and notation"), the screen slots of board.js, and the page's clock faces and strings.
import assert from "node:assert/strict";
import { test } from "node:test";

import { pointSlot } from "../../static/js/board.js";
import { formatOpening, formatTurn } from "../../static/js/notation.js";
import {
  borneOff, diceFaces, diceToPlay, indexToOwnPoint, ownPointToIndex, pipCount, stepsToMoves,
} from "../../static/js/points.js";
import { clockFaces, formatMs } from "../../static/js/match/clocks.js";
import { fmt, translator } from "../../static/js/strings.js";
import { board, exampleSnapshot } from "./fakes.mjs";

test("own points and board indices", () => {
  for (const s of ["w", "b"]) for (let p = 1; p <= 24; p++) assert.equal(indexToOwnPoint(s, ownPointToIndex(s, p)), p);
  assert.equal(ownPointToIndex("w", 24), 23);
  assert.equal(ownPointToIndex("b", 24), 11); // Black's head is White's 12
  assert.equal(ownPointToIndex("b", 12), 23); // White's 24 is Black's 12
  assert.equal(ownPointToIndex("b", 1), 12);
  assert.throws(() => ownPointToIndex("w", 0), RangeError);
  assert.throws(() => indexToOwnPoint("w", 24), RangeError);
  assert.deepEqual(stepsToMoves("b", [[24, 18, 6], [3, 0, 3]]), [{ from: 11, to: 5 }, { from: 14, to: "off" }]);
});

test("screen slots: head top right, home bottom right", () => {
  assert.deepEqual(pointSlot(24), { row: "top", col: 11 });
  assert.deepEqual(pointSlot(13), { row: "top", col: 0 });
  assert.deepEqual(pointSlot(12), { row: "bottom", col: 0 });
  assert.deepEqual(pointSlot(1), { row: "bottom", col: 11 });
});

test("pips, borne off and dice", () => {
  const start = board({ 23: 15, 11: -15 });
  assert.equal(pipCount(start, "w"), 360);
  assert.equal(pipCount(start, "b"), 360);
  assert.equal(borneOff(start, "w"), 0);
  assert.equal(borneOff(board({ 0: 2, 11: -15 }), "w"), 13);
  assert.deepEqual(diceToPlay([4, 4]), [4, 4, 4, 4]);
  assert.deepEqual(diceToPlay(null), []);
  assert.deepEqual(diceFaces([5, 3], [3]), [{ value: 5, used: true }, { value: 3, used: false }]);
  assert.equal(diceFaces([4, 4], [4, 4]).filter((f) => f.used).length, 2);
});

test("turns and opening rolls as text", () => {
  assert.equal(formatTurn({ number: 1, side: "w", dice: [5, 3], steps: [[24, 19, 5], [19, 16, 3]] }), "1. W 5-3: 24/19 19/16");
  assert.equal(formatTurn({ number: 2, side: "b", dice: [6, 6], steps: [] }), "2. B 6-6: —");
  assert.equal(formatTurn({ number: 3, side: "w", dice: [2, 1], steps: [[2, 0, 2]] }, { off: "aus" }), "3. W 2-1: 2/aus");
  const t = translator({ opening: "W {white} B {black}", opening_ties: "ties {ties}" });
  assert.equal(formatOpening({ white: 6, black: 2, ties: [[4, 4], [1, 1]] }, t), "W 6 B 2 (ties 4-4, 1-1)");
});

test("the page's strings win over the defaults; unknown keys and placeholders stay visible", () => {
  const t = translator({ won: "{name} won", rated: "rated" }, { won: "{name} a câștigat" });
  assert.equal(t("won", { name: "ana" }), "ana a câștigat");
  assert.equal(t("rated"), "rated");
  assert.equal(t("missing_key"), "missing_key");
  assert.equal(fmt("{a} and {b}", { a: 1 }), "1 and {b}");
});

test("clocks count down from the server's figure, then into the reserve", () => {
  const state = exampleSnapshot().state; // White to move: 41.25 s left, reserves 120 s / 95 s
  assert.deepEqual(clockFaces(state, 0), {
    w: { clock: "0:42", low: false, reserve: "+2:00" },
    b: { clock: "", low: false, reserve: "+1:35" },
  });
  assert.equal(clockFaces(state, 35000).w.low, true);
  const late = clockFaces(state, 51250); // 10 s past the turn time: the reserve pays
  assert.deepEqual(late.w, { clock: "0:00", low: true, reserve: "+1:50" });
  state.game.clock.running = false;
  assert.equal(clockFaces(state, 51250).w.clock, "0:42", "a stopped clock does not move");
  state.game.clock = { turn_ms_left: null, reserve_ms: null, running: false };
  assert.deepEqual(clockFaces(state, 0).w, { clock: "∞", low: false, reserve: "" });
  assert.equal(formatMs(null), "∞");
  assert.equal(formatMs(61001), "1:02");
  // A correspondence turn's days are hours (docs/rules.md, Correspondence).
  assert.equal(formatMs(3_599_000), "59:59");
  assert.equal(formatMs(3_600_000), "1:00:00");
  assert.equal(formatMs(2 * 86_400_000 - 1), "48:00:00");
  assert.equal(formatMs(7 * 86_400_000 - 61_000), "167:58:59");
});
