// The doubling cube on the match page: which buttons show, the status line, the match line and
// the move list (match/controls.js, match/strings.js, notation.js) from protocol states.
import assert from "node:assert/strict";
import { test } from "node:test";

import { buttonStates } from "../../static/js/match/controls.js";
import { MatchModel } from "../../static/js/match/state.js";
import { DEFAULT_STRINGS, eventNotice, matchInfoText, statusText } from "../../static/js/match/strings.js";
import { formatTurn, moveWords } from "../../static/js/notation.js";
import { translator } from "../../static/js/strings.js";
import { scenarioSnapshot } from "./fakes.mjs";

const t = translator(DEFAULT_STRINGS);

function model(name) {
  const m = new MatchModel();
  m.applySnapshot(scenarioSnapshot(name));
  return m;
}

const visible = (m) =>
  Object.entries(buttonStates(m, t, { pending: false, live: true }).buttons)
    .filter(([, s]) => s.visible)
    .map(([id]) => id)
    .sort();

test("the mover may double before rolling; the answerer gets take and drop, not roll", () => {
  assert.deepEqual(visible(model("cube_double")), ["double-button", "resign-button", "roll-button"]);
  const offer = model("cube_offer");
  assert.deepEqual(visible(offer), ["drop-button", "resign-button", "take-button"]);
  assert.equal(statusText(offer, t), "ana doubles to 4: take or drop?");
  assert.match(matchInfoText(offer, t), /cube 2 \(ana\)/);
  // The doubler waits: no roll, no double, no answer.
  offer.you = { user: "ana", seat: 0, side: "w" };
  assert.deepEqual(visible(offer), ["resign-button"]);
  assert.equal(statusText(offer, t), "You double to 4: waiting for bogdan");
});

test("the move list shows a taken double and the notices name the cube's events", () => {
  const words = moveWords(t);
  const move = { number: 7, side: "w", dice: [6, 1], steps: [[24, 18, 6]], doubled_to: 2 };
  assert.equal(formatTurn(move, words), "7. W (doubles to 2, taken) 6-1: 24/18");
  assert.equal(formatTurn({ ...move, doubled_to: 0 }, words), "7. W 6-1: 24/18");
  const m = model("cube_offer");
  const drop = { kind: "cube_drop", detail: { seat: 1, side: "b", value: 2, by_server: true } };
  assert.equal(eventNotice(drop, m, null, t).text, "bogdan ran out of time: the double is dropped");
  const over = { kind: "game_over", detail: { game: 2, winner: "w", result: "drop", points: 2 } };
  assert.match(eventNotice(over, m, null, t).text, /double declined, 2 points/);
});
