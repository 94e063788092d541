// A viewer's whole exchange with a fake server: an optimistic step is drawn at once, confirmed by
// its event, taken back on an error or when the socket is lost, and a reconnect redraws the truth.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MatchSession } from "../../static/js/match/session.js";
import { DEFAULT_STRINGS } from "../../static/js/match/strings.js";
import { translator } from "../../static/js/strings.js";
import { applyStep } from "../e2e/harness/scenarios.js";
import { FakeTimers, fakeWebSocketClass, scenarioSnapshot } from "./fakes.mjs";

function session(scenario = "white_move") {
  const WebSocketImpl = fakeWebSocketClass();
  const timers = new FakeTimers();
  const seen = { draws: 0, notices: [], navigated: [] };
  const s = new MatchSession({
    url: "ws://test/ws/matches/42/",
    t: translator(DEFAULT_STRINGS),
    WebSocketImpl,
    timers,
    random: () => 0.5,
    on: {
      draw: () => seen.draws++,
      notice: (text, ms, tone) => seen.notices.push({ text, tone }),
      navigate: (path) => seen.navigated.push(path),
    },
  });
  s.connect();
  const ws = WebSocketImpl.last();
  ws.open();
  const snapshot = scenarioSnapshot(scenario);
  ws.push(snapshot);
  return { s, ws, WebSocketImpl, timers, seen, snapshot };
}

// White's 19 is board index 18, its 16 index 15 (the white_move scenario: 19/16 with the 3).
const FROM_19 = 18;
const TO_16 = 15;

test("a step is drawn at once, sent with the version, and confirmed by its event", () => {
  const { s, ws, snapshot } = session();
  assert.equal(s.move(FROM_19, TO_16), true);
  assert.deepEqual(ws.sent.at(-1), { type: "step", version: 12, step: [19, 16, 3], id: ws.sent.at(-1).id });
  assert.equal(s.model.view.game.board[TO_16], 1, "drawn before the server answers");
  assert.equal(s.model.confirmed.game.board[TO_16], 0);
  assert.equal(s.move(23, 20), false, "one step in flight at a time");
  const after = applyStep(snapshot.state, [19, 16, 3]);
  ws.push({ type: "event", version: 13, kind: "step", detail: { side: "w", step: [19, 16, 3] }, state: { game: after.game } });
  ws.push({ type: "ack", id: ws.sent.at(-1).id, version: 13 });
  assert.equal(s.version, 13);
  assert.equal(s.pending, null);
  assert.deepEqual(s.model.view.game.board, after.game.board);
});

test("a refused step is taken back and the error shown", () => {
  const { s, ws, seen } = session();
  s.move(FROM_19, TO_16);
  const id = ws.sent.at(-1).id;
  ws.push({ type: "error", id, code: "illegal_step", message: "no such step" });
  assert.deepEqual(s.model.view, s.model.confirmed);
  assert.equal(s.model.view.game.board[TO_16], 0);
  assert.deepEqual(s.model.legalMoves(), [{ from: 23, to: 20 }, { from: 18, to: 15 }], "the step can be tried again");
  assert.deepEqual(seen.notices, [{ text: "Error: no such step", tone: "bad" }]);
});

test("a step whose ack arrives first stays drawn until its event", () => {
  const { s, ws } = session();
  s.move(FROM_19, TO_16);
  ws.push({ type: "ack", id: ws.sent.at(-1).id, version: 13 });
  assert.equal(s.model.view.game.board[TO_16], 1);
  assert.deepEqual(s.model.legalMoves(), [], "nothing offered until the server's next state");
});

test("a step lost with the socket is taken back; the reconnect's snapshot is drawn", () => {
  const { s, ws, WebSocketImpl, timers, snapshot } = session();
  s.move(FROM_19, TO_16);
  ws.close(1006);
  assert.equal(s.model.view.game.board[TO_16], 0, "reverted when the socket goes");
  assert.equal(s.connection, "lost");
  timers.advance(1000);
  const again = WebSocketImpl.last();
  again.open();
  const moved = applyStep(snapshot.state, [19, 16, 3]);
  again.push({ type: "snapshot", version: 14, you: snapshot.you, state: moved });
  assert.equal(s.connection, "open");
  assert.equal(s.version, 14);
  assert.equal(s.model.view.game.board[TO_16], 1, "the server did play it: the snapshot says so");
});

test("a step with no answer is taken back after the timeout, and a snapshot is asked for", () => {
  const { s, ws, timers } = session();
  s.move(FROM_19, TO_16);
  timers.advance(10000);
  assert.equal(s.model.view.game.board[TO_16], 0);
  assert.equal(ws.sent.at(-1).type, "snapshot");
});

test("only the server's legal steps are sent", () => {
  const { s, ws } = session();
  assert.equal(s.move(FROM_19, 14), false);
  assert.equal(s.move(5, 4), false);
  assert.equal(ws.sent.length, 0);
  const spectator = session("spectator");
  assert.equal(spectator.s.move(11, 7), false);
  assert.equal(spectator.ws.sent.length, 0);
});

test("roll only when it is the viewer's turn to roll, once", () => {
  const { s, ws } = session("white_roll");
  assert.equal(s.canRoll(), true);
  s.roll();
  s.roll();
  assert.deepEqual(ws.sent.map((m) => [m.type, m.version]), [["roll", 12]]);
  ws.push({ type: "ack", id: ws.sent.at(-1).id, version: 13 });
  assert.equal(s.canRoll(), false, "not offered again between the roll's ack and its event");
  s.roll();
  assert.equal(ws.sent.length, 1);
  const other = session("white_move");
  other.s.roll();
  assert.equal(other.ws.sent.length, 0);
});

test("an accepted rematch goes to the new match; leaving goes to the play page when answered", () => {
  const { s, ws, seen } = session("finished");
  ws.push({ type: "event", version: 13, kind: "rematch", detail: { match_id: 43 }, state: { game: s.model.confirmed.game } });
  assert.deepEqual(seen.navigated, ["/matches/43/"]);
  const active = session();
  active.s.send("leave");
  active.ws.push({ type: "ack", id: active.ws.sent.at(-1).id, version: 13 });
  assert.deepEqual(active.seen.navigated, ["/play/"]);
});
