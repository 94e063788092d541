// The match state: events build on the snapshot (move log included), and an optimistic step moves
// exactly one checker as the server's legal step says, until the server confirms or refuses it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MatchModel } from "../../static/js/match/state.js";
import { board, exampleSnapshot, scenarioSnapshot } from "./fakes.mjs";

function model(snapshot = exampleSnapshot()) {
  const m = new MatchModel();
  m.applySnapshot(snapshot);
  return m;
}

/** Black (seat 1) to move from the start position with 6-4. */
function blackToMove() {
  const s = scenarioSnapshot("black_move");
  s.state.game.pips = { w: 360, b: 360 };
  return s;
}

test("the board offers exactly the server's legal steps, as board indices", () => {
  const m = model();
  assert.deepEqual(m.legalMoves(), [{ from: 23, to: 20 }, { from: 18, to: 15 }]);
  const black = model(blackToMove());
  // Black's own 24 is White's 12 (index 11); its 18 is index 5, its 20 index 7 (docs/rules.md
  // numbering).
  assert.deepEqual(black.legalMoves(), [{ from: 11, to: 5 }, { from: 11, to: 7 }]);
});

test("nothing is offered to the player not on turn, nor to a spectator, nor before rolling", () => {
  const waiting = model(blackToMove());
  waiting.you = { user: "ana", seat: 0, side: "w" };
  assert.deepEqual(waiting.legalMoves(), []);
  const spectator = model();
  spectator.you = { user: null, seat: null, side: null };
  assert.deepEqual(spectator.legalMoves(), []);
  assert.equal(spectator.stepBetween(23, 20), null);
  const s = exampleSnapshot();
  s.state.game.phase = "roll";
  assert.deepEqual(model(s).legalMoves(), []);
});

test("an optimistic step moves one checker from source to destination and uses the die", () => {
  const m = model();
  const before = JSON.parse(JSON.stringify(m.view.game));
  const step = m.stepBetween(18, 15);
  assert.deepEqual(step, [19, 16, 3]);
  assert.equal(m.applyOptimisticStep(step), true);
  const g = m.view.game;
  assert.equal(g.board[18], before.board[18] - 1);
  assert.equal(g.board[15], before.board[15] + 1);
  const changed = g.board.map((v, i) => v !== before.board[i]).filter(Boolean).length;
  assert.equal(changed, 2, "no other point changes");
  assert.deepEqual(g.dice_left, []);
  assert.deepEqual(g.steps, [[24, 19, 5], [19, 16, 3]]);
  assert.equal(g.pips.w, before.pips.w - 3);
  assert.deepEqual(g.legal_steps, [], "the server's next state says what is legal next");
  assert.equal(g.can_undo, false);
  assert.deepEqual(m.confirmed.game, before, "the confirmed state is untouched");
});

test("a Black step moves a negative checker in Black's numbering", () => {
  const m = model(blackToMove());
  m.applyOptimisticStep(m.stepBetween(11, 7));
  assert.equal(m.view.game.board[11], -14);
  assert.equal(m.view.game.board[7], -1);
  assert.deepEqual(m.view.game.dice_left, [6]);
  assert.equal(m.view.game.pips.b, 356);
});

test("a step that is not one of the server's legal steps is refused and changes nothing", () => {
  const m = model();
  const before = JSON.stringify(m.view);
  assert.equal(m.stepBetween(23, 15), null);
  assert.equal(m.applyOptimisticStep([24, 16, 8]), false);
  assert.equal(m.applyOptimisticStep([24, 21, 5]), false, "the die must match too");
  assert.equal(JSON.stringify(m.view), before);
});

test("bearing off moves a checker to the tray, with the larger die when both lead there", () => {
  // White's last checkers on its 5 and 2 with 6-5: the 6 and the 5 both bear off from 5.
  const s = exampleSnapshot();
  Object.assign(s.state.game, {
    board: board({ 4: 1, 1: 1, 11: -15 }), dice: [6, 5], dice_left: [6, 5], steps: [],
    legal_steps: [[5, 0, 5], [5, 0, 6], [2, 0, 6]], borne_off: { w: 13, b: 0 }, pips: { w: 7, b: 360 },
  });
  const m = model(s);
  assert.deepEqual(m.stepBetween(4, "off"), [5, 0, 6]);
  m.applyOptimisticStep([5, 0, 6]);
  assert.equal(m.view.game.board[4], 0);
  assert.equal(m.view.game.borne_off.w, 14);
  assert.equal(m.view.game.pips.w, 2);
  assert.deepEqual(m.view.game.dice_left, [5]);
});

test("revert draws the server's state again", () => {
  const m = model();
  m.applyOptimisticStep([24, 21, 3]);
  assert.notDeepEqual(m.view, m.confirmed);
  m.revert();
  assert.deepEqual(m.view, m.confirmed);
  assert.notEqual(m.view, m.confirmed, "a copy: the next optimistic step cannot touch the server's state");
});

test("an event replaces the drawn state, keeps the match when it is left out, and grows the move log", () => {
  const m = model();
  m.applyOptimisticStep([24, 21, 3]);
  const game = { ...exampleSnapshot().state.game, phase: "roll", turn: "b", steps: [], legal_steps: [] };
  const entry = { number: 5, side: "w", dice: [5, 3], steps: [[24, 19, 5], [24, 21, 3]], by_server: false };
  const before = m.applyEvent({ type: "event", version: 13, kind: "turn", detail: { ...entry, passed: false }, state: { game } });
  assert.equal(before.game.turn, "w");
  assert.equal(m.view.game.turn, "b");
  assert.equal(m.view.match.players[0].username, "ana", "the match comes from before when left out");
  assert.deepEqual(m.view.moves.at(-1), entry, "the turn's entry, without `passed`");
  assert.equal(m.view.moves.length, exampleSnapshot().state.moves.length + 1);
});

test("a new game starts an empty move log", () => {
  const m = model();
  const game = { ...exampleSnapshot().state.game, number: 3, steps: [] };
  m.applyEvent({ type: "event", version: 13, kind: "started", detail: { game: 3 }, state: { game } });
  assert.deepEqual(m.view.moves, []);
});

test("presence and spectators are kept from snapshots and presence messages", () => {
  const m = model();
  assert.deepEqual(m.presence, { 0: true, 1: false });
  assert.equal(m.spectators, 3);
  m.notePresence({ presence: { 0: true, 1: true }, spectators: 7 });
  m.applyEvent({ type: "event", version: 13, kind: "step", detail: {}, state: { game: exampleSnapshot().state.game } });
  assert.deepEqual(m.presence, { 0: true, 1: true });
  assert.equal(m.spectators, 7);
});

test("sides follow the seat: the winner of a game plays White in the next", () => {
  const m = model();
  assert.equal(m.mySide(), "w");
  const match = JSON.parse(JSON.stringify(m.confirmed.match));
  match.players[0].side = "b";
  match.players[1].side = "w";
  m.applyEvent({ type: "event", version: 13, kind: "started", detail: { game: 3 }, state: { match, game: exampleSnapshot().state.game } });
  assert.equal(m.mySide(), "b");
  assert.equal(m.isMyTurn(), false);
});
