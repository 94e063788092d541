// The match page's texts. The words come from the template (translated, read by readStrings);
// the defaults below only serve a page without that block (the static harness). The functions
// build sentences from a MatchModel and the page's `t`; pure, no DOM.
import { formatOpening } from "../notation.js";

export const DEFAULT_STRINGS = {
  roll: "Roll", undo: "Undo", confirm: "Confirm", your_turn_confirm: "Your turn — confirm (Enter) or undo", resign: "Resign", rematch: "Rematch", rolled: "{name} rolled {dice}",
  to_length: "to {n}", seconds: "{s} s", game_number: "game {n}", clock_nardeon_short: "NARDEON", clock_omerta_short: "Omerta",
  accept_rematch: "Accept rematch", decline: "Decline", withdraw: "Withdraw offer", flip: "Flip board",
  rematch_offered_by_you: "Rematch offered — waiting for {name}",
  rematch_offered_to_you: "{name} offers a rematch",
  rematch_declined: "The rematch was declined",
  abort: "Abort", confirm_abort: "Abort the match? It ends without a result.",
  confirm_resign: "Resign the match? Leaving the table is resigning too: the match is lost.",
  your_turn_roll: "Your turn — roll", your_turn_move: "Your turn — move", waiting_for: "Waiting for {name}",
  to_roll: "{name} to roll", to_move: "{name} to move",
  waiting_open: "Waiting for an opponent to accept", cancelled: "The challenge was withdrawn",
  aborted: "The match was aborted", won_match: "{name} won the match",
  won_match_reason: "{name} won the match ({reason})",
  reason_finished: "", reason_resigned: "resigned", reason_left: "left the table",
  reason_timeouts: "timeouts", reason_aborted: "aborted", reason_banned: "banned by a moderator",
  banned: "Your account was banned by a moderator",
  phrase_good_luck: "Good luck!", phrase_good_game: "Good game!", phrase_thanks: "Thanks!",
  phrase_well_played: "Well played!", spectator: "spectator",
  spectators_hidden: "The spectators’ chat is shown to the players after the match.",
  chat_not_started: "The chat opens when the match starts.",
  timed_out: "{name} ran out of time: the server plays this turn (timeout {n} of 3)",
  game_over: "{name} won game {game}: {result}, {points}", oin: "oin", mars: "mars",
  point_one: "1 point", points_many: "{n} points",
  passed: "No legal move: {dice}, turn passes", opening: "Opening roll: White {white}, Black {black}",
  opening_ties: "ties: {ties}", started: "The match has started",
  watching: "{n} watching", disconnected: "disconnected", online: "online", bot_mark: "computer", offline: "offline",
  logged_out: "You were logged out", no_match: "No such match", too_many: "Too many messages",
  connecting: "Connecting…", reconnecting: "Connection lost — reconnecting…",
  match_to: "Match to {n}", rated: "rated", casual: "casual",
  rules_traditional: "Traditional", rules_tournament: "Tournament",
  untimed: "untimed", per_turn: "{s} s per turn", reserve: "+{s} s reserve", days_per_move: "days per move: {n}",
  pips: "pips", off: "off", white: "White", black: "Black", white_short: "W", black_short: "B",
  by_server: "played by the server", score: "Score", you: "you", replay: "Replay",
  error: "Error: {message}",
  rating_change: "{name}: rating {before} → {after} ({delta})",
  double: "Double", take: "Take", drop: "Drop", confirm_drop: "Drop the double and lose this game?",
  cube_offered_to_you: "{name} doubles to {n}: take or drop?",
  cube_offered_by_you: "You double to {n}: waiting for {name}",
  cube_offered: "{name} doubles to {n}", cube_taken: "{name} takes: the cube is {n}",
  cube_dropped: "{name} drops the double", cube_dropped_timeout: "{name} ran out of time: the double is dropped",
  cube_info: "cube {n}", cube_owned: "cube {n} ({name})", crawford: "Crawford game",
  cube: "at the cube's value", drop_result: "double declined", doubled_taken: "(doubles to {n}, taken)",
  clock_nardeon: "NARDEON clock: 12 s a turn, then a 2-minute reserve", clock_omerta: "Omerta clock: 90 s a step",
  which_dice: "Which dice?", cancel: "Cancel",
  away_countdown: "Your opponent is disconnected: {time} to come back.",
  away_claim: "Your opponent did not come back. Claim the win, or keep waiting.",
  away_waiting: "Waiting for your opponent; you may still claim the win.",
  confirm_claim: "Claim the win? Your opponent loses the match as abandoned.",
  reason_time: "the opponent ran out of time", reason_abandoned: "the opponent did not come back",
  sound_on: "Sound on", sound_off: "Sound off", notify_title: "Your turn", notify_body: "It is your turn.",
  white_checkers: "white", black_checkers: "black",
  sr_point: "Point {point}: {n} {colour}", sr_empty: "Point {point}: empty", sr_tray: "Borne off: {n}",
  sr_selected: "selected", sr_source: "can move", sr_destination: "move here",
};

export function sideName(t, side) {
  return t(side === "w" ? "white" : "black");
}

function pointsText(t, points) {
  return points === 1 ? t("point_one") : t("points_many", { n: points });
}

function matchWonText(t, name, reason) {
  const why = reason ? t(`reason_${reason}`) : "";
  return why ? t("won_match_reason", { name, reason: why }) : t("won_match", { name });
}

/** The status line: whose turn it is and what they must do, or how the match ended. */
export function statusText(model, t) {
  const v = model.view;
  const m = v.match;
  if (m.status === "open") return t("waiting_open");
  if (m.status === "cancelled") return t("cancelled");
  if (m.status === "aborted") return t("aborted");
  if (m.status === "finished") return matchWonText(t, model.winnerName() || "?", m.end_reason);
  const g = v.game;
  if (!g) return "";
  const mover = model.playerOfSide(g.turn);
  const name = mover ? mover.username : sideName(t, g.turn);
  if (model.cubeOffered()) {
    const n = g.cube.offered_value;
    if (model.mySeat() === g.cube.offered_by) return t("cube_offered_by_you", { n, name: model.seatName(1 - g.cube.offered_by) });
    if (model.mySeat() !== null) return t("cube_offered_to_you", { n, name });
    return t("cube_offered", { n, name });
  }
  if (model.isMyTurn()) {
    if (model.awaitingConfirm()) return t("your_turn_confirm");
    if (g.phase === "roll") return t("your_turn_roll");
    if (g.phase === "move") return t("your_turn_move");
  }
  if (model.mySeat() !== null) return t("waiting_for", { name });
  return t(g.phase === "roll" ? "to_roll" : "to_move", { name });
}

/** The compact line of the side panel: "Traditional · to 3 · 60 s", and the cube while it counts. */
export function matchInfoText(model, t) {
  const v = model.view;
  const m = v.match;
  const parts = [];
  const rulesName = m.rules && m.rules.name;
  if (rulesName) parts.push(t(`rules_${rulesName}`));
  parts.push(t("to_length", { n: m.length }));
  if (m.time_control === "nardeon" || m.time_control === "omerta") parts.push(t(`clock_${m.time_control}_short`));
  else if (m.move_days) parts.push(t("days_per_move", { n: m.move_days }));
  else parts.push(m.turn_seconds ? t("seconds", { s: m.turn_seconds }) : t("untimed"));
  const cube = v.game && v.game.cube;
  if (cube) {
    const owner = cube.owner === null || cube.owner === undefined ? "" : model.seatName(cube.owner);
    parts.push(owner ? t("cube_owned", { n: cube.value, name: owner }) : t("cube_info", { n: cube.value }));
    if (cube.crawford) parts.push(t("crawford"));
  }
  return parts.join(" · ");
}

/** The details behind that line: "Match to 3 · 60 s per turn +120 s reserve · rated · game 2". */
export function matchTermsText(model, t) {
  const v = model.view;
  const m = v.match;
  const parts = [t("match_to", { n: m.length })];
  if (m.time_control === "nardeon" || m.time_control === "omerta") {
    parts.push(t(`clock_${m.time_control}`));
  } else if (m.move_days) {
    parts.push(t("days_per_move", { n: m.move_days }));
  } else if (m.turn_seconds) {
    parts.push(t("per_turn", { s: m.turn_seconds }) + (m.reserve_seconds ? ` ${t("reserve", { s: m.reserve_seconds })}` : ""));
  } else {
    parts.push(t("untimed"));
  }
  parts.push(m.rated ? t("rated") : t("casual"));
  if (v.game && v.game.number) parts.push(t("game_number", { n: v.game.number }));
  return parts.join(" · ");
}

/** What a screen reader hears of a roll (the page's polite live region): "ana rolled 6-5". */
export function diceAnnouncement(d, model, t) {
  if (!d || !Array.isArray(d.dice)) return "";
  const p = model.playerOfSide(d.side, model.confirmed);
  return t("rolled", { name: p ? p.username : sideName(t, d.side), dice: `${d.dice[0]}-${d.dice[1]}` });
}

/** A game result's word: oin, mars, the cube's value, or a declined double. */
export function resultWord(t, result) {
  return t(result === "drop" ? "drop_result" : result);
}

// What an event tells the viewer beyond the redrawn board: {text, ms, tone}, or null.
const NOTICES = {
  started: (d, model, before, t) => {
    const g = model.confirmed.game;
    return { text: t("started") + (g && g.opening ? ` — ${formatOpening(g.opening, t)}` : ""), ms: 3000 };
  },
  turn: (d, model, before, t) => {
    if (!d.passed) return null;
    return { text: t("passed", { dice: d.dice ? `${d.dice[0]}-${d.dice[1]}` : "" }), ms: 3000 };
  },
  game_over: (d, model, before, t) => {
    // The winner's name as the game was played (colours can change for the next game).
    const p = model.playerOfSide(d.winner, before || model.confirmed);
    const name = p ? p.username : sideName(t, d.winner);
    return {
      text: t("game_over", { name, game: d.game, result: resultWord(t, d.result), points: pointsText(t, d.points) }),
      ms: 6000,
    };
  },
  timeout: (d, model, before, t) => ({
    text: t("timed_out", { name: model.seatName(d.seat, model.confirmed), n: d.timeouts }),
    ms: 5000,
    tone: "bad",
  }),
  // The match's end is said once: the status line and the end-of-match panel (not a toast too).
  match_over: () => null,
  // An offer is shown next to the buttons (#rematch-note); an accepted one moves the page.
  rematch: (d, model, before, t) => (d.declined_by !== undefined ? { text: t("rematch_declined"), ms: 4000 } : null),
  cancelled: (d, model, before, t) => ({ text: t("cancelled"), ms: 6000 }),
  cube_offer: (d, model, before, t) => ({ text: t("cube_offered", { name: model.seatName(d.seat, model.confirmed), n: d.value }), ms: 4000 }),
  cube_take: (d, model, before, t) => ({ text: t("cube_taken", { name: model.seatName(d.seat, model.confirmed), n: d.value }), ms: 4000 }),
  cube_drop: (d, model, before, t) => ({
    text: t(d.by_server ? "cube_dropped_timeout" : "cube_dropped", { name: model.seatName(d.seat, before || model.confirmed) }),
    ms: 5000,
    tone: d.by_server ? "bad" : undefined,
  }),
};

/** A rated match's end: one line per seat with a rating change (protocol.md `match_over`). */
export function ratingChangeLines(d, model, t) {
  const lines = [];
  (d.rating_changes || []).forEach((change, seat) => {
    if (!change) return;
    const delta = change.delta > 0 ? `+${change.delta}` : change.delta < 0 ? `${change.delta}` : "±0";
    const name = model.seatName(seat, model.confirmed);
    lines.push(t("rating_change", { name, before: change.before, after: change.after, delta }));
  });
  return lines;
}

export function eventNotice(msg, model, before, t) {
  const notice = NOTICES[msg.kind];
  return notice ? notice(msg.detail || {}, model, before, t) : null;
}

/** The rematch note and buttons' wording after a finished match (protocol.md `match.rematch`). */
export function rematchOffer(model, t) {
  const m = model.view.match;
  const seat = model.mySeat();
  const r = m.rematch || {};
  const offer = {
    visible: seat !== null && m.status === "finished" && !r.declined && !r.match_id,
    enabled: true, text: t("rematch"), declineVisible: false, declineText: t("decline"), note: "",
  };
  if (offer.visible && r.offered_by !== null && r.offered_by !== undefined) {
    offer.declineVisible = true;
    if (r.offered_by === seat) {
      offer.enabled = false;
      offer.declineText = t("withdraw");
      offer.note = t("rematch_offered_by_you", { name: model.seatName(1 - seat) });
    } else {
      offer.text = t("accept_rematch");
      offer.note = t("rematch_offered_to_you", { name: model.seatName(r.offered_by) });
    }
  }
  if (m.status === "finished" && r.declined) offer.note = t("rematch_declined");
  return offer;
}
