// Where the bots, the reconnect window and alerts, and the doubling cube meet on the page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { alertsFor, lowTimeDue } from "../../static/js/match/alerts.js";
import { awayState } from "../../static/js/match/away.js";
import { MatchModel } from "../../static/js/match/state.js";
import { scenarioSnapshot } from "./fakes.mjs";

test("a bot opponent is never shown disconnected: no countdown, no claim", () => {
  const model = new MatchModel();
  const snapshot = scenarioSnapshot("white_move");
  model.applySnapshot(snapshot);
  const away = { presence: { 0: true, 1: false }, away_ms: { 0: null, 1: 600000 }, reconnect_seconds: 60 };
  model.notePresence(away);
  assert.deepEqual(awayState(model, 0), { seat: 1, msLeft: 0, canClaim: true }, "a person away: claim");
  const withBot = scenarioSnapshot("white_move");
  withBot.state.match.players.find((p) => p.seat === 1).bot = true;
  const botModel = new MatchModel();
  botModel.applySnapshot(withBot);
  botModel.notePresence(away);
  assert.equal(awayState(botModel, 0), null);
});

test("a double offered to the viewer is the viewer's turn to act: alert and low time", () => {
  const before = scenarioSnapshot("white_move").state; // White (seat 0) to move
  const offered = JSON.parse(JSON.stringify(before));
  offered.game.clock = { turn_ms_left: 5000, deadline_ms_left: 25000, reserve_ms: { w: 0, b: 0 }, running: true, side: "b" };
  const blackSeat = offered.match.players.find((p) => p.side === "b").seat;
  const whiteSeat = offered.match.players.find((p) => p.side === "w").seat;
  assert.deepEqual(alertsFor({ kind: "cube_offer" }, before, offered, blackSeat), ["your_turn"]);
  assert.deepEqual(alertsFor({ kind: "cube_offer" }, before, offered, whiteSeat), []);
  assert.equal(lowTimeDue(offered, blackSeat, 16000), `${offered.game.number}:${offered.game.turn_number}`);
  assert.equal(lowTimeDue(offered, whiteSeat, 16000), null, "the doubler's clock is not running");
});
