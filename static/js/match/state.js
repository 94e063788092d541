// The match as the page knows it: the server's last state ("confirmed") and what is drawn ("view":
// the confirmed state, or it with the viewer's step applied before the server answers). Pure data,
// no DOM. The rules are the server's: the steps offered are its `legal_steps`, and an optimistic
// step only moves one checker from the step's source to its destination (protocol.md "step").
import { ownPointToIndex, keyToOwnPoint, sideSign, stepsToMoves } from "../points.js";
import { boardMoves, isLegalStep, movesBetween } from "./combined.js";

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

const NOBODY = Object.freeze({ user: null, seat: null, side: null });

export class MatchModel {
  constructor() {
    this.you = NOBODY;
    this.confirmed = null; // last state from the server
    this.view = null; // what is drawn
    this.presence = {};
    this.spectators = 0;
    this.awayMs = {}; // per seat: ms away when the presence came (null: here)
    this.reconnectSeconds = 60;
  }

  /** A snapshot replaces everything (protocol.md "snapshot"). */
  applySnapshot(msg) {
    this.you = msg.you || NOBODY;
    this.notePresence(msg.state);
    this.setConfirmed(msg.state);
  }

  /**
   * An event in version order (protocol.md "event"): `state.match` only when it changed, no move
   * log (it grows by the entry a `turn` event carries and starts empty with each game). Returns
   * the state before it, which the event's notice may need (the winner of a game that just ended).
   */
  applyEvent(msg) {
    const before = this.confirmed;
    this.notePresence(msg.state);
    const match = msg.state.match || (before && before.match);
    const number = msg.state.game ? msg.state.game.number : null;
    const sameGame = !!(before && before.game && number === before.game.number);
    let moves = (before && before.moves) || [];
    if (before && before.game && !sameGame) moves = [];
    if (msg.kind === "turn" && msg.detail && msg.detail.number !== undefined && (!before || !before.game || sameGame)) {
      const { passed, ...entry } = msg.detail;
      moves = moves.concat([entry]);
    }
    this.setConfirmed({ ...msg.state, match, moves });
    return before;
  }

  /** A presence message (not versioned): kept until the next one. */
  notePresence(from) {
    if (from.presence) this.presence = from.presence;
    if (typeof from.spectators === "number") this.spectators = from.spectators;
    if (from.away_ms) this.awayMs = from.away_ms;
    if (typeof from.reconnect_seconds === "number") this.reconnectSeconds = from.reconnect_seconds;
  }

  setConfirmed(state) {
    this.confirmed = state;
    this.view = clone(state);
  }

  /** Draw the server's state again (a refused or unanswered step). */
  revert() {
    if (this.confirmed) this.view = clone(this.confirmed);
  }

  // ---- who is who ----
  mySeat() {
    const seat = this.you && this.you.seat;
    return seat === 0 || seat === 1 ? seat : null;
  }

  /** The viewer's colour in the current game (seats keep, colours change between games). */
  mySide(state = this.view) {
    const seat = this.mySeat();
    if (seat === null || !state) return null;
    const p = state.match.players.find((x) => x.seat === seat);
    return p && p.side ? p.side : this.you.side || null;
  }

  seatName(seat, state = this.view) {
    const p = state.match.players.find((x) => x.seat === seat);
    return p ? p.username : "?";
  }

  playerOfSide(side, state = this.view) {
    return state.match.players.find((x) => x.side === side) || null;
  }

  /** The winner's name once the match is finished (`match.winner` is a seat: protocol.md). */
  winnerName(state = this.view) {
    const w = state.match.winner;
    if (w === null || w === undefined) return null;
    return this.seatName(w, state);
  }

  isMyTurn() {
    const v = this.view;
    const side = this.mySide();
    return !!(v && v.match.status === "active" && v.game && side && v.game.turn === side);
  }

  phaseIs(phase) {
    return !!(this.view && this.view.game && this.view.game.phase === phase);
  }

  /**
   * What the board shows of the turns: until the next roll, the dice of the turn just played (in
   * its player's half) and its from and to points; after the roll the new dice, and the turn
   * just played stays marked until the mover's first step. {dice, diceLeft, diceLast, side,
   * moves, movesSide}; `side` is the dice's owner, `moves` board moves {from, to}.
   */
  turnShown() {
    const v = this.view;
    const g = v && v.game;
    if (!g) return { dice: null, diceLeft: [], diceLast: false, side: null, moves: [], movesSide: null };
    const log = v.moves || [];
    const last = log.length ? log[log.length - 1] : null;
    const lastMoves = last ? stepsToMoves(last.side, last.steps) : [];
    const steps = g.steps || [];
    if (g.phase === "roll" || !g.dice) {
      if (!last || !last.dice || !last.dice.length) return { dice: null, diceLeft: [], diceLast: false, side: g.turn, moves: [], movesSide: null };
      return { dice: last.dice, diceLeft: [], diceLast: true, side: last.side, moves: lastMoves, movesSide: last.side };
    }
    const own = steps.length > 0 || !last;
    return {
      dice: g.dice, diceLeft: g.dice_left || [], diceLast: false, side: g.turn,
      moves: own ? stepsToMoves(g.turn, steps) : lastMoves, movesSide: own ? g.turn : last.side,
    };
  }

  /** The viewer played a whole turn that waits for Confirm or Undo (protocol.md "confirm"). */
  awaitingConfirm() {
    return this.isMyTurn() && this.phaseIs("move") && !!this.view.game.awaiting_confirm;
  }

  /** Whether a double awaits an answer (protocol.md `game.cube`). */
  cubeOffered() {
    const cube = this.view && this.view.game && this.view.game.cube;
    return !!cube && cube.offered_by !== null && cube.offered_by !== undefined;
  }

  // ---- steps (own numbering on the wire, board keys on the screen) ----
  /**
   * The moves the board offers now as {from: index, to: index|"off"}: the server's legal steps
   * and its combined moves of one checker by several dice (combined.js).
   */
  legalMoves() {
    if (!this.isMyTurn() || !this.phaseIs("move")) return [];
    return boardMoves(this.view.game);
  }

  /** Every way (single step or combined) from board key `from` to `to`: combined.js. */
  movesBetween(from, to) {
    if (!this.isMyTurn() || !this.phaseIs("move")) return [];
    return movesBetween(this.view.game, from, to);
  }

  /** True when `step` is legal in the state drawn now. */
  isLegalNow(step) {
    return this.isMyTurn() && isLegalStep(this.view && this.view.game, step);
  }

  /**
   * The server's legal step from board key `from` to `to`, or null. When two dice lead there
   * (bearing off with a larger die), the larger die is played: it is the one the server offers
   * for the highest checker, and the smaller one stays for another step.
   */
  stepBetween(from, to) {
    if (!this.isMyTurn() || !this.phaseIs("move")) return null;
    const g = this.view.game;
    const source = keyToOwnPoint(g.turn, from);
    const destination = keyToOwnPoint(g.turn, to);
    const options = (g.legal_steps || []).filter((s) => s[0] === source && s[1] === destination);
    if (!options.length) return null;
    return options.reduce((a, b) => (b[2] > a[2] ? b : a));
  }

  /**
   * Draw `step` before the server confirms it: one checker of the mover leaves the source and
   * lands on the destination (or in the tray), the die is used, and nothing more is offered until
   * the server's next state says what is legal. Only a step of the server's `legal_steps` is
   * applied (anything else is refused here and changes nothing). True when applied.
   */
  applyOptimisticStep(step, { trusted = false } = {}) {
    const g = this.view && this.view.game;
    if (!g || (!trusted && !isLegalStep(g, step))) return false;
    const sign = sideSign(g.turn);
    g.board[ownPointToIndex(g.turn, step[0])] -= sign;
    if (step[1] === 0) {
      if (g.borne_off) g.borne_off[g.turn] = (g.borne_off[g.turn] || 0) + 1;
    } else {
      g.board[ownPointToIndex(g.turn, step[1])] += sign;
    }
    // The mover's pip count falls by the distance moved (own numbering: a point's pips are its number).
    if (g.pips) g.pips[g.turn] -= step[0] - step[1];
    const left = [...(g.dice_left || [])];
    const at = left.indexOf(step[2]);
    if (at >= 0) left.splice(at, 1);
    g.dice_left = left;
    g.steps = [...(g.steps || []), step];
    g.legal_steps = [];
    g.combined_moves = [];
    g.can_undo = false;
    return true;
  }

  /**
   * Draw a combined move before the server confirms it: its first step must be legal now; the
   * rest follow it as the server listed them (its `combined_moves`). True when applied.
   */
  applyOptimisticPath(steps) {
    if (!steps.length || !this.applyOptimisticStep(steps[0])) return false;
    for (const step of steps.slice(1)) this.applyOptimisticStep(step, { trusted: true });
    return true;
  }
}
