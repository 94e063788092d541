// At the table, on the page: one gesture for one checker by both dice (sent as ordinary steps, one
// per confirmed event), the choice when a gesture can end two ways, alerts, the reconnect window's
// countdown, the board's keyboard cursor and the page's shortcuts.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cursorStep, describePoint, keyAtSlot } from "../../static/js/board.js";
import { alertsFor, lowTimeDue, titleFor } from "../../static/js/match/alerts.js";
import { awayState } from "../../static/js/match/away.js";
import { boardMoves, movesBetween, optionLabel } from "../../static/js/match/combined.js";
import { shortcut } from "../../static/js/match/controls.js";
import { MatchSession } from "../../static/js/match/session.js";
import { MatchModel } from "../../static/js/match/state.js";
import { DEFAULT_STRINGS } from "../../static/js/match/strings.js";
import { translator } from "../../static/js/strings.js";
import { applyStep } from "../e2e/harness/scenarios.js";
import { FakeTimers, fakeWebSocketClass, scenarioSnapshot } from "./fakes.mjs";

function session(scenario) {
  const WebSocketImpl = fakeWebSocketClass();
  const seen = { choices: [] };
  const s = new MatchSession({
    url: "ws://test/ws/matches/42/",
    t: translator(DEFAULT_STRINGS),
    WebSocketImpl,
    timers: new FakeTimers(),
    random: () => 0.5,
    on: { choose: (options, pick) => seen.choices.push({ options, pick }) },
  });
  s.connect();
  const ws = WebSocketImpl.last();
  ws.open();
  const snapshot = scenarioSnapshot(scenario);
  ws.push(snapshot);
  return { s, ws, seen, snapshot };
}

const stepEvent = (version, state, step) => ({
  type: "event", version, kind: "step", detail: { side: "w", step }, state: { game: state.game },
});

test("the board offers the combined destination beside the single steps", () => {
  const { game } = scenarioSnapshot("white_combined").state;
  assert.deepEqual(boardMoves(game), [{ from: 23, to: 18 }, { from: 23, to: 20 }, { from: 23, to: 15 }]);
  assert.deepEqual(movesBetween(game, 23, 15), [{ steps: [[24, 19, 5], [19, 16, 3]], dice: [5, 3] }]);
  assert.deepEqual(movesBetween(game, 23, 18), [{ steps: [[24, 19, 5]], dice: [5] }]);
  assert.deepEqual(movesBetween(game, 23, 14), []);
  assert.deepEqual(movesBetween({ ...game, phase: "roll" }, 23, 15), []);
});

test("a combined move is sent as ordinary steps, each with the version its predecessor made", () => {
  const { s, ws, snapshot } = session("white_combined");
  assert.equal(s.move(23, 15), true);
  assert.deepEqual(ws.sent.at(-1), { type: "step", version: 12, step: [24, 19, 5], id: ws.sent.at(-1).id });
  assert.equal(s.model.view.game.board[15], 1, "the whole move is drawn at once");
  assert.equal(s.model.view.game.board[23], 14);
  const sent = ws.sent.length;
  // The first step's event: the server offers 19/16 next; the page sends it with version 13.
  const first = applyStep(snapshot.state, [24, 19, 5]);
  first.game.legal_steps = [[19, 16, 3], [24, 21, 3]];
  ws.push(stepEvent(13, first, [24, 19, 5]));
  assert.equal(ws.sent.length, sent + 1);
  assert.deepEqual(ws.sent.at(-1), { type: "step", version: 13, step: [19, 16, 3], id: ws.sent.at(-1).id });
  assert.equal(s.model.view.game.board[15], 1, "still drawn where the gesture ended");
  const second = applyStep(first, [19, 16, 3]);
  ws.push(stepEvent(14, second, [19, 16, 3]));
  assert.equal(ws.sent.length, sent + 1, "nothing more to send");
  assert.deepEqual(s.queue, []);
});

test("when the first step is refused, the rest of the combined move is dropped", () => {
  const { s, ws } = session("white_combined");
  s.move(23, 15);
  const sent = ws.sent.length;
  ws.push({ type: "error", id: ws.sent.at(-1).id, code: "stale_version", message: "changed" });
  assert.deepEqual(s.queue, []);
  assert.equal(s.model.view.game.board[15], 0);
  assert.equal(ws.sent.length, sent + 1, "only the snapshot request a stale version asks for");
  assert.equal(ws.sent.at(-1).type, "snapshot");
});

test("when the server no longer offers the next step, the page stops and shows the truth", () => {
  const { s, ws, snapshot } = session("white_combined");
  s.move(23, 15);
  const first = applyStep(snapshot.state, [24, 19, 5]);
  first.game.legal_steps = [[24, 21, 3]]; // 19/16 is not legal any more
  const sent = ws.sent.length;
  ws.push(stepEvent(13, first, [24, 19, 5]));
  assert.equal(ws.sent.length, sent);
  assert.deepEqual(s.model.view, s.model.confirmed);
});

test("a gesture that can end two ways asks which, and plays the choice", () => {
  const { s, ws, seen } = session("white_bear_off_choice");
  const options = movesBetween(s.model.view.game, 4, "off");
  assert.deepEqual(options.map(optionLabel), ["6", "3 + 6"]);
  const sent = ws.sent.length;
  assert.equal(s.move(4, "off"), true);
  assert.equal(ws.sent.length, sent, "nothing sent before the choice");
  assert.equal(seen.choices.length, 1);
  seen.choices[0].pick(seen.choices[0].options[1]);
  assert.deepEqual(ws.sent.at(-1).step, [5, 2, 3]);
  assert.deepEqual(s.queue, [[2, 0, 6]]);
});

test("alerts: dice, checker, your turn and the match's end", () => {
  const before = scenarioSnapshot("white_move").state;
  const theirs = JSON.parse(JSON.stringify(before));
  theirs.game.turn = "b";
  assert.deepEqual(alertsFor({ kind: "rolled" }, theirs, theirs, 0), ["dice"]);
  assert.deepEqual(alertsFor({ kind: "step" }, before, before, 0), ["checker"]);
  assert.deepEqual(alertsFor({ kind: "turn" }, theirs, before, 0), ["your_turn"]);
  assert.deepEqual(alertsFor({ kind: "turn" }, theirs, before, null), [], "a spectator has no turn");
  const over = JSON.parse(JSON.stringify(before));
  over.match.status = "finished";
  assert.deepEqual(alertsFor({ kind: "match_over" }, before, over, 1), ["match_end"]);
  assert.equal(titleFor("Match 42", true), "● Match 42");
  assert.equal(titleFor("Match 42", false), "Match 42");
});

test("the low-time warning is due in the last ten seconds of the viewer's turn only", () => {
  const state = scenarioSnapshot("white_move").state;
  state.game.clock = { turn_ms_left: 5000, deadline_ms_left: 25000, reserve_ms: { w: 0, b: 0 }, running: true };
  assert.equal(lowTimeDue(state, 0, 10000), null);
  assert.equal(lowTimeDue(state, 0, 16000), "2:5");
  assert.equal(lowTimeDue(state, 1, 16000), null, "not the opponent's turn");
  assert.equal(lowTimeDue(state, 0, 26000), null, "run out: the server plays");
});

test("the reconnect window counts down, then the viewer may claim", () => {
  const model = new MatchModel();
  model.applySnapshot(scenarioSnapshot("white_move"));
  model.notePresence({ presence: { 0: true, 1: false }, away_ms: { 0: null, 1: 15000 }, reconnect_seconds: 60 });
  assert.deepEqual(awayState(model, 5000), { seat: 1, msLeft: 40000, canClaim: false });
  assert.deepEqual(awayState(model, 45000), { seat: 1, msLeft: 0, canClaim: true });
  model.notePresence({ presence: { 0: true, 1: true }, away_ms: { 0: null, 1: null } });
  assert.equal(awayState(model, 0), null, "back: nothing to show");
  const spectator = new MatchModel();
  spectator.applySnapshot(scenarioSnapshot("spectator"));
  assert.equal(awayState(spectator, 100000), null);
});

test("the keyboard cursor moves along the board as drawn, to the tray past the bottom row", () => {
  // White's view: top row 13..24 left to right, bottom row 12..1; own 24 is index 23.
  assert.equal(keyAtSlot("w", "top", 11), 23);
  assert.equal(cursorStep("w", 23, "ArrowLeft"), 22);
  assert.equal(cursorStep("w", 23, "ArrowRight"), 23, "the row's end");
  assert.equal(cursorStep("w", 23, "ArrowDown"), 0, "own 1 under own 24");
  assert.equal(cursorStep("w", 0, "ArrowRight"), "off");
  assert.equal(cursorStep("w", "off", "ArrowLeft"), 0);
  assert.equal(cursorStep("w", "off", "ArrowUp"), 23);
  // Black's view: own 24 is index 11.
  assert.equal(keyAtSlot("b", "top", 11), 11);
  assert.equal(describePoint({ point: 13, count: 2, colour: "white", source: true }), "Point 13: 2 white, can move");
  assert.equal(describePoint({ point: 7, count: 0 }), "Point 7: empty");
});

test("shortcuts: Space or R rolls, U or Backspace undoes", () => {
  assert.equal(shortcut({ code: "Space", key: " " }), "roll");
  assert.equal(shortcut({ key: "r" }), "roll");
  assert.equal(shortcut({ key: "U" }), "undo");
  assert.equal(shortcut({ key: "Backspace" }), "undo");
  assert.equal(shortcut({ key: "x" }), null);
});

test("a NARDEON clock shows the free seconds, then the time really left (60 s at most)", async () => {
  const { clockFaces } = await import("../../static/js/match/clocks.js");
  const state = scenarioSnapshot("white_move").state;
  state.match.time_control = "nardeon";
  state.match.turn_seconds = null;
  state.match.reserve_seconds = 0;
  state.game.clock = { turn_ms_left: 12000, deadline_ms_left: 60000, reserve_ms: { w: 120000, b: 120000 }, running: true };
  assert.deepEqual(clockFaces(state, 0).w, { clock: "0:12", low: false, reserve: "+2:00" });
  // 30 s in: 18 s of reserve spent, but the turn's limit leaves 30 s.
  assert.deepEqual(clockFaces(state, 30000).w, { clock: "0:00", low: false, reserve: "+0:30" });
  assert.equal(clockFaces(state, 51000).w.low, true);
  assert.equal(clockFaces(state, 0).b.reserve, "+2:00");
});
