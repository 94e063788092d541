// The opponent's move stays on the board: a checker's flight path over the points it passes, the
// board drawn while checkers are in the air, which events fly (an opponent's step, the server's,
// an undo; never the viewer's own step, drawn when sent), and what stays shown of the turn just
// played (its dice until the next roll, its from and to points until the mover's first step).
import assert from "node:assert/strict";
import { test } from "node:test";

import { lastMarks } from "../../static/js/board.js";
import { checkerCenter, columnX, pointSlot } from "../../static/js/board_geometry.js";
import { boardInFlight, flightMs, flightPath, flightsOfEvent, pointAlong, FLIGHT_MS } from "../../static/js/board_motion.js";
import { MatchSession } from "../../static/js/match/session.js";
import { MatchModel } from "../../static/js/match/state.js";
import { DEFAULT_STRINGS } from "../../static/js/match/strings.js";
import { translator } from "../../static/js/strings.js";
import { FakeTimers, board, fakeWebSocketClass, scenarioSnapshot } from "./fakes.mjs";

test("a flight goes from the source stack over every point passed to the destination", () => {
  // White 24/18 seen by White: index 23 (top right) along the top row to index 17.
  const path = flightPath({ orientation: "w", side: "w", from: 23, to: 17, fromCount: 15, toCount: 1 });
  assert.equal(path.length, 2 + 5); // own points 23..19 passed
  assert.deepEqual(path[0], checkerCenter(24, 4)); // the top of a stack drawn five high
  assert.deepEqual(path[path.length - 1], checkerCenter(18, 0));
  const xs = path.slice(1, -1).map((p) => p.x);
  assert.deepEqual(xs, [23, 22, 21, 20, 19].map((p) => columnX(pointSlot(p).col)));
  assert.ok(xs.every((x, i) => i === 0 || x < xs[i - 1]), "right to left along the top row");
});

test("a black step seen by White crosses from the bottom row to the top", () => {
  // Black's own 14 is White's point 2 (index 1), its own 10 White's point 22 (index 21).
  const path = flightPath({ orientation: "w", side: "b", from: 1, to: 21, fromCount: 1, toCount: 1 });
  const rows = path.map((p) => (p.y < 244 ? "top" : "bottom"));
  assert.equal(rows[0], "bottom");
  assert.equal(rows[rows.length - 1], "top");
  assert.equal(path.length, 2 + 3);
});

test("bearing off flies to the mover's tray: the near one for the viewer's side, else the far", () => {
  const near = flightPath({ orientation: "w", side: "w", from: 2, to: "off", fromCount: 2, toCount: 1 });
  const far = flightPath({ orientation: "b", side: "w", from: 2, to: "off", fromCount: 2, toCount: 1 });
  assert.ok(near[near.length - 1].y > 244 && far[far.length - 1].y < 244);
  assert.equal(near.length, 2 + 2);
});

test("pointAlong walks the path by distance, ends included", () => {
  const path = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 30 }];
  assert.deepEqual(pointAlong(path, 0), { x: 0, y: 0 });
  assert.deepEqual(pointAlong(path, 0.25), { x: 10, y: 0 });
  assert.deepEqual(pointAlong(path, 0.5), { x: 10, y: 10 });
  assert.deepEqual(pointAlong(path, 1), { x: 10, y: 30 });
  assert.deepEqual(pointAlong(path, 7), { x: 10, y: 30 });
});

test("flights are short: longer for more pips, never past the cap", () => {
  assert.equal(flightMs(1), FLIGHT_MS.base + FLIGHT_MS.perPip);
  assert.ok(flightMs(6) > flightMs(1));
  assert.equal(flightMs(24), FLIGHT_MS.max);
});

test("the board in flight: the checker in the air is on neither point, the waiting ones at home", () => {
  const after = board({ 23: 13, 17: 0, 12: 1, 20: 1 }); // 24/18/13 then 24/21 played
  const flights = [
    { side: "w", from: 23, to: 17 },
    { side: "w", from: 17, to: 12 },
    { side: "w", from: 23, to: 20 },
  ];
  const shown = boardInFlight(after, flights);
  assert.equal(shown[23], 14); // one in the air from 24, the 24/21 one still home
  assert.equal(shown[17], 0);
  assert.equal(shown[12], 0);
  assert.equal(shown[20], 0);
  assert.deepEqual(boardInFlight(after, []), after);
});

test("which events fly: the opponent's step and undo, not my own step drawn when sent", () => {
  const step = { kind: "step", detail: { side: "b", step: [24, 18, 6] } };
  assert.deepEqual(flightsOfEvent(step, "w"), [{ side: "b", from: 11, to: 5 }]);
  assert.deepEqual(flightsOfEvent(step, null), [{ side: "b", from: 11, to: 5 }]); // a spectator
  assert.deepEqual(flightsOfEvent(step, "b", [[24, 18, 6]]), []); // mine, already drawn
  assert.deepEqual(flightsOfEvent(step, "b", [[24, 18, 5]]), [{ side: "b", from: 11, to: 5 }]);
  const undo = { kind: "undo", detail: { side: "w", step: [24, 19, 5] } };
  assert.deepEqual(flightsOfEvent(undo, "w"), [{ side: "w", from: 18, to: 23 }]);
  assert.deepEqual(flightsOfEvent({ kind: "step", detail: { side: "w", step: [3, 0, 4] } }, "b"), [{ side: "w", from: 2, to: "off" }]);
  for (const bad of [{ kind: "rolled", detail: { side: "w", dice: [1, 2] } }, { kind: "step", detail: { side: "x", step: [1, 0, 1] } }, { kind: "step" }]) {
    assert.deepEqual(flightsOfEvent(bad, "w"), []);
  }
});

test("last-turn marks: where checkers left and landed, not the points only passed", () => {
  const marks = lastMarks([{ from: 23, to: 17 }, { from: 17, to: 12 }, { from: 5, to: "off" }]);
  assert.deepEqual([...marks].sort(), [[12, "to"], [23, "from"], [5, "from"], ["off", "to"]].sort());
});

function modelWith(state) {
  const m = new MatchModel();
  m.applySnapshot({ you: { user: "ana", seat: 0, side: "w" }, state });
  return m;
}

test("until I roll, the opponent's dice and last turn stay shown; after my first step, mine", () => {
  const { state } = scenarioSnapshot("white_roll");
  state.moves = [{ number: 4, side: "b", dice: [6, 2], steps: [[24, 18, 6], [18, 16, 2]], by_server: false }];
  const m = modelWith(state);
  let shown = m.turnShown();
  assert.equal(shown.diceLast, true);
  assert.deepEqual(shown.dice, [6, 2]);
  assert.equal(shown.side, "b");
  assert.deepEqual(shown.moves, [{ from: 11, to: 5 }, { from: 5, to: 3 }]);
  // Rolled: my dice, their marks still there until my first step.
  Object.assign(m.view.game, { phase: "move", dice: [5, 3], dice_left: [5, 3], steps: [] });
  shown = m.turnShown();
  assert.equal(shown.diceLast, false);
  assert.deepEqual(shown.dice, [5, 3]);
  assert.equal(shown.movesSide, "b");
  m.view.game.steps = [[24, 19, 5]];
  shown = m.turnShown();
  assert.deepEqual(shown.moves, [{ from: 23, to: 18 }]);
  assert.equal(shown.movesSide, "w");
  // A new game: no log yet, nothing kept.
  Object.assign(m.view.game, { phase: "roll", dice: null, steps: [] });
  m.view.moves = [];
  assert.equal(m.turnShown().dice, null);
});

test("the session flies the opponent's steps and not the viewer's own", () => {
  const WebSocketImpl = fakeWebSocketClass();
  const s = new MatchSession({
    url: "ws://test/ws/matches/42/", t: translator(DEFAULT_STRINGS), WebSocketImpl, timers: new FakeTimers(), random: () => 0.5,
  });
  s.connect();
  const ws = WebSocketImpl.last();
  ws.open();
  ws.push(scenarioSnapshot("white_move"));
  const game = s.model.confirmed.game;
  assert.ok(s.move(18, 15)); // own 19/16 with the 3: drawn at once
  ws.push({ type: "event", version: 13, kind: "step", detail: { side: "w", step: [19, 16, 3] }, state: { game } });
  assert.deepEqual(s.takeFlights(), []);
  ws.push({ type: "event", version: 14, kind: "step", detail: { side: "b", step: [24, 20, 4] }, state: { game } });
  assert.deepEqual(s.takeFlights(), [{ side: "b", from: 11, to: 7 }]);
  assert.deepEqual(s.takeFlights(), []); // taken once
});

test("confirm my turn: a whole turn waiting offers Confirm and Undo, Enter or Space confirm", async () => {
  const { buttonStates, shortcut } = await import("../../static/js/match/controls.js");
  const { statusText } = await import("../../static/js/match/strings.js");
  const t = translator(DEFAULT_STRINGS);
  const WebSocketImpl = fakeWebSocketClass();
  const s = new MatchSession({
    url: "ws://test/ws/matches/42/", t, WebSocketImpl, timers: new FakeTimers(), random: () => 0.5,
  });
  s.connect();
  const ws = WebSocketImpl.last();
  ws.open();
  const snapshot = scenarioSnapshot("white_move");
  Object.assign(snapshot.state.game, {
    steps: [[24, 19, 5], [19, 16, 3]], dice_left: [], legal_steps: [], can_undo: true, awaiting_confirm: true,
  });
  ws.push(snapshot);
  assert.ok(s.model.awaitingConfirm() && s.canConfirm());
  const shown = buttonStates(s.model, t, { pending: false, live: true }).buttons;
  assert.ok(shown["confirm-button"].visible && shown["undo-button"].visible);
  assert.equal(statusText(s.model, t), "Your turn — confirm (Enter) or undo");
  assert.equal(shortcut({ key: "Enter" }, true), "confirm");
  assert.equal(shortcut({ key: " ", code: "Space" }, true), "confirm");
  assert.equal(shortcut({ key: "Enter" }, false), null);
  s.confirm();
  assert.deepEqual(ws.sent.at(-1), { type: "confirm", id: ws.sent.at(-1).id, version: 12 });
  s.confirm(); // in flight: not sent twice
  assert.equal(ws.sent.filter((m) => m.type === "confirm").length, 1);
  // A spectator, or a turn not waiting: nothing to confirm.
  snapshot.you = { user: null, seat: null, side: null };
  ws.push({ ...snapshot, version: 13 });
  assert.equal(s.model.awaitingConfirm(), false);
});
