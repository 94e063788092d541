// The match page's sentences and buttons from a state (match/strings.js, match/controls.js): the
// words come from the page's strings, the choice of sentence and button from the protocol state.
import assert from "node:assert/strict";
import { test } from "node:test";

import { buttonStates } from "../../static/js/match/controls.js";
import { MatchModel } from "../../static/js/match/state.js";
import {
  DEFAULT_STRINGS, diceAnnouncement, eventNotice, matchInfoText, matchTermsText, ratingChangeLines, statusText,
} from "../../static/js/match/strings.js";
import { finalPoints } from "../../static/js/points.js";
import { ratingText, translator } from "../../static/js/strings.js";
import { scenarioSnapshot } from "./fakes.mjs";

const t = translator(DEFAULT_STRINGS);

function model(name) {
  const m = new MatchModel();
  m.applySnapshot(scenarioSnapshot(name));
  return m;
}

const visible = (states) => Object.keys(states.buttons).filter((id) => states.buttons[id].visible).sort();

test("the status line says whose turn it is, to the mover, the other player and a spectator", () => {
  assert.equal(statusText(model("white_move"), t), "Your turn — move");
  assert.equal(statusText(model("white_roll"), t), "Your turn — roll");
  const other = model("black_move");
  other.you = { user: "ana", seat: 0, side: "w" };
  assert.equal(statusText(other, t), "Waiting for bogdan");
  assert.equal(statusText(model("spectator"), t), "bogdan to move");
  assert.equal(statusText(model("finished"), t), "ana won the match (resigned)");
  assert.equal(statusText(model("open"), t), "Waiting for an opponent to accept");
});

test("translated strings replace the defaults", () => {
  const ro = translator(DEFAULT_STRINGS, { your_turn_move: "Rândul tău — mută" });
  assert.equal(statusText(model("white_move"), ro), "Rândul tău — mută");
});

test("the side panel's rules line is compact; the terms behind it name the rest", () => {
  assert.equal(matchInfoText(model("white_move"), t), "Traditional · to 3 · 60 s");
  assert.equal(matchTermsText(model("white_move"), t), "Match to 3 · 60 s per turn +120 s reserve · rated · game 2");
  const untimed = model("white_move");
  untimed.view.match.turn_seconds = null;
  untimed.view.match.rated = false;
  assert.equal(matchInfoText(untimed, t), "Traditional · to 3 · untimed");
  assert.match(matchTermsText(untimed, t), / · casual · /);
  const slow = model("white_move");
  Object.assign(slow.view.match, { time_control: "correspondence", turn_seconds: null, move_days: 3 });
  assert.equal(matchInfoText(slow, t), "Traditional · to 3 · days per move: 3");
  assert.match(matchTermsText(slow, t), /^Match to 3 · days per move: 3 · /);
  const nardeon = model("white_move");
  nardeon.view.match.time_control = "nardeon";
  assert.equal(matchInfoText(nardeon, t), "Traditional · to 3 · NARDEON");
});

test("a roll is announced to screen readers with its player's name", () => {
  const m = model("white_move");
  assert.equal(diceAnnouncement({ side: "b", dice: [6, 5] }, m, t), "bogdan rolled 6-5");
  assert.equal(diceAnnouncement({ side: "w" }, m, t), "");
});

test("the winner of a match ended by resignation shows the match's points", () => {
  assert.equal(finalPoints(0, 1, 1, 1), 1);
  assert.equal(finalPoints(0, 0, 1, 1), 0);
  assert.equal(finalPoints(3, 0, 0, 3), 3); // won by play: the score as it stands
  assert.equal(finalPoints(2, 0, 0, 5), 5); // resigned at 2-4 in a match to 5: the winner got it
  assert.equal(finalPoints(2, 0, null, 5), 2); // aborted: nobody won
});

test("buttons: roll only for the mover before rolling, nothing while a command is in flight or offline", () => {
  assert.deepEqual(visible(buttonStates(model("white_roll"), t, { pending: false, live: true })), ["resign-button", "roll-button"]);
  assert.equal(buttonStates(model("white_roll"), t, { pending: true, live: true }).buttons["roll-button"].enabled, false);
  assert.equal(buttonStates(model("white_roll"), t, { pending: false, live: false }).buttons["resign-button"].enabled, false);
  assert.deepEqual(visible(buttonStates(model("white_move"), t, { pending: false, live: true })), ["resign-button", "undo-button"]);
  const spectator = buttonStates(model("spectator"), t, { pending: false, live: false, flipped: true });
  assert.deepEqual(visible(spectator), ["flip-button"]);
  assert.equal(spectator.buttons["flip-button"].enabled, true, "turning the board needs no socket");
});

test("a rematch offered by the opponent can be accepted or declined", () => {
  const states = buttonStates(model("finished"), t, { pending: false, live: true });
  assert.deepEqual(visible(states), ["decline-button", "rematch-button"]);
  assert.equal(states.buttons["rematch-button"].text, "Accept rematch");
  assert.equal(states.note, "bogdan offers a rematch");
  assert.equal(states.replay, true);
});

test("events give notices in the page's words", () => {
  const m = model("white_move");
  const before = m.confirmed;
  const notice = (kind, detail) => eventNotice({ kind, detail }, m, before, t);
  assert.deepEqual(notice("turn", { passed: true, dice: [6, 6] }), { text: "No legal move: 6-6, turn passes", ms: 3000 });
  assert.equal(notice("turn", { passed: false }), null);
  assert.equal(notice("game_over", { game: 2, winner: "w", result: "mars", points: 2 }).text, "ana won game 2: mars, 2 points");
  assert.equal(notice("timeout", { seat: 1, timeouts: 2 }).text, "bogdan ran out of time: the server plays this turn (timeout 2 of 3)");
  // The match's end is said once, by the status line and the end panel: no toast as well.
  assert.equal(notice("match_over", { winner_seat: 1, reason: "timeouts" }), null);
  assert.equal(statusText(model("finished"), t), "ana won the match (resigned)");
  assert.equal(notice("rematch", { offered_by: 1 }), null, "an offer shows next to the buttons");
  assert.equal(notice("step", {}), null);
});

test("a rated match's end gives each player's rating change (protocol.md match_over)", () => {
  const m = model("white_move");
  const detail = {
    winner_seat: 1, reason: "resigned",
    rating_changes: [{ before: 1500, after: 1490, delta: -10 }, { before: 1512, after: 1522, delta: 10 }],
  };
  assert.deepEqual(ratingChangeLines(detail, m, t), [
    "ana: rating 1500 → 1490 (-10)", "bogdan: rating 1512 → 1522 (+10)",
  ]);
  assert.deepEqual(ratingChangeLines({ winner_seat: 0, reason: "resigned" }, m, t), [], "a casual match");
  const even = { rating_changes: [null, { before: 1500, after: 1500, delta: 0 }] };
  assert.deepEqual(ratingChangeLines(even, m, t), ["bogdan: rating 1500 → 1500 (±0)"]);
});

test("a provisional rating is shown with a question mark, an established one without", () => {
  assert.equal(ratingText({ rating: 1500, provisional: true }), "1500?");
  assert.equal(ratingText({ rating: 1634, provisional: false }), "1634");
});
