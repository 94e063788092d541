// An exercise's turn played step by step (static/js/exercise_steps.js): the steps offered are
// those that begin a complete legal turn after the steps played, a checker moved on by the next
// dice is one gesture (match/combined.js reads the same shape), the board and dice follow.
import assert from "node:assert/strict";
import { test } from "node:test";

import { boardMoves, movesBetween } from "../../static/js/match/combined.js";
import { diceLeft, playSteps, turnSoFar } from "../../static/js/exercise_steps.js";

// White, 5-3: 24/19/16 (one checker), 24/21/16 (the same end), or 13/8 and 13/10 (two checkers).
const SEQUENCES = [
  [[24, 19, 5], [19, 16, 3]],
  [[24, 21, 3], [21, 16, 5]],
  [[13, 8, 5], [13, 10, 3]],
  [[13, 10, 3], [13, 8, 5]],
];

test("the first steps offered begin some complete turn, each once", () => {
  const state = turnSoFar(SEQUENCES, "w", []);
  assert.deepEqual(state.legal_steps, [[24, 19, 5], [24, 21, 3], [13, 8, 5], [13, 10, 3]]);
  assert.equal(state.complete, false);
  // One checker on by both dice is one gesture, 24 -> 16, in both orders.
  assert.deepEqual(state.combined_moves, [[[24, 19, 5], [19, 16, 3]], [[24, 21, 3], [21, 16, 5]]]);
  assert.equal(movesBetween(state, 23, 15).length, 2);
  assert.ok(boardMoves(state).some((move) => move.from === 23 && move.to === 15));
});

test("after a step only its continuations are offered, then the turn is complete", () => {
  const after = turnSoFar(SEQUENCES, "w", [[13, 8, 5]]);
  assert.deepEqual(after.legal_steps, [[13, 10, 3]]);
  assert.equal(after.complete, false);
  const done = turnSoFar(SEQUENCES, "w", [[13, 8, 5], [13, 10, 3]]);
  assert.deepEqual(done.legal_steps, []);
  assert.equal(done.complete, true);
  // A step that begins no legal turn leaves nothing to play and nothing complete.
  const wrong = turnSoFar(SEQUENCES, "w", [[24, 18, 6]]);
  assert.deepEqual(wrong.legal_steps, []);
  assert.equal(wrong.complete, false);
});

test("the board and the dice follow the steps, for either side, bearing off too", () => {
  const board = new Array(24).fill(0);
  board[23] = 2; // White's 24
  board[11] = -1; // Black's 24
  const white = playSteps(board, "w", [[24, 19, 5], [19, 16, 3]]);
  assert.equal(white[23], 1);
  assert.equal(white[15], 1);
  const black = playSteps(board, "b", [[24, 18, 6]]);
  assert.equal(black[11], 0);
  assert.equal(black[5], -1); // Black's 18 is index (18 + 11) % 24
  const home = new Array(24).fill(0);
  home[0] = 1;
  assert.deepEqual(playSteps(home, "w", [[1, 0, 1]]), new Array(24).fill(0));
  assert.deepEqual(diceLeft([5, 3], [[24, 19, 5]]), [3]);
  assert.deepEqual(diceLeft([2, 2], [[24, 22, 2], [22, 20, 2]]), [2, 2]);
});
