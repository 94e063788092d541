// One viewer's session at a match: the protocol client (socket.js) feeding the match state
// (state.js), and the viewer's commands going the other way. No DOM: the page passes callbacks
// (draw, notice, navigate), so Node's tests run a whole exchange against a fake server.
import { MatchSocket } from "./socket.js";
import { MatchModel } from "./state.js";
import { flightsOfEvent } from "../board_motion.js";
import { eventNotice, ratingChangeLines } from "./strings.js";

/**
 * new MatchSession({url, t, WebSocketImpl, timers, on: {draw, notice, navigate, chat}})
 *   draw()                    the state, the connection or the command in flight changed
 *   chat(kind, data)          "snapshot" (state.chat, you), "message" (one message) or "muted" (bool)
 *   call(msg), reply(msg, error)  the page's call: call_* messages, answers to its frames
 *   notice(text, ms, tone)    a sentence for the viewer (an error, a game won, a pass)
 *   navigate(path)            go to another page (an accepted rematch, after leaving)
 */
export class MatchSession {
  constructor({ url, t, WebSocketImpl, timers = globalThis, random = Math.random, on = {} }) {
    this.t = t;
    const none = () => {};
    this.on = { draw: none, notice: none, navigate: none, chat: none, call: none, reply: none, ...on };
    this.model = new MatchModel();
    this.connection = "connecting";
    this.queue = []; // the rest of a combined move, sent one step per confirmed event
    this.ownSteps = []; // steps this page sent and drew at once: their events fly nothing
    this.flights = []; // checkers to fly in the next drawing (board_flight.js)
    this.socket = new MatchSocket({
      url,
      WebSocketImpl,
      timers,
      random,
      handlers: {
        snapshot: (msg) => {
          this.model.applySnapshot(msg);
          if (this.on.presence) this.on.presence(msg);
          this.on.draw();
          if (msg.state && msg.state.chat) this.on.chat("snapshot", { chat: msg.state.chat, you: msg.you });
        },
        chat: (msg) => this.on.chat("message", msg.message),
        chatMuted: (msg) => this.on.chat("muted", !!msg.muted),
        call: (msg) => this.on.call(msg),
        reply: (msg, error) => this.on.reply(msg, error),
        event: (msg) => this.onEvent(msg),
        presence: (msg) => {
          this.model.notePresence(msg);
          if (this.on.presence) this.on.presence(msg);
          this.on.draw();
        },
        answered: (pending, ack, error) => this.onAnswered(pending, error),
        abandoned: () => {
          this.queue = [];
          this.model.revert();
          this.on.draw();
        },
        error: (msg) => this.on.notice(this.t("error", { message: msg.message || msg.code }), 4000, "bad"),
        connection: (state) => {
          this.connection = state;
          this.on.draw();
        },
      },
    });
  }

  get version() {
    return this.socket.version;
  }

  get pending() {
    return this.socket.pending;
  }

  connect() {
    this.socket.connect();
  }

  onEvent(msg) {
    const before = this.model.applyEvent(msg);
    this.noteFlights(msg);
    this.continueCombined(msg);
    this.on.draw();
    if (this.on.alert) this.on.alert(msg, before, this.model.confirmed);
    const d = msg.detail || {};
    if (msg.kind === "rematch" && d.match_id) {
      this.on.navigate(`/matches/${d.match_id}/`);
      return;
    }
    const notice = eventNotice(msg, this.model, before, this.t);
    if (notice) this.on.notice(notice.text, notice.ms, notice.tone);
    if (msg.kind === "match_over" && d.rating_changes && this.on.ratings) {
      this.on.ratings(ratingChangeLines(d, this.model, this.t));
    }
    // After the match the players may read the spectators' chat: a snapshot brings it.
    if (msg.kind === "match_over" && this.model.mySide && this.model.mySide()) this.socket.resync();
  }

  /**
   * The checkers an event moves that this page did not draw already: an opponent's step, a step
   * the server played, an undo. The viewer's own steps were drawn when sent.
   */
  noteFlights(msg) {
    const flights = flightsOfEvent(msg, this.model.mySide(), this.ownSteps);
    const d = msg.detail || {};
    if (msg.kind === "step" && !flights.length && Array.isArray(d.step)) {
      const at = this.ownSteps.findIndex((s) => s.join() === d.step.join());
      if (at >= 0) this.ownSteps.splice(at, 1);
    }
    this.flights = this.flights.concat(flights);
  }

  /** The flights not yet drawn (the page takes them once). */
  takeFlights() {
    const flights = this.flights;
    this.flights = [];
    return flights;
  }

  onAnswered(pending, error) {
    // A refused step is taken back (with the rest of its combined move); an accepted one stays
    // drawn until its event confirms it.
    if (error && pending.type === "step") {
      this.queue = [];
      this.ownSteps = [];
      this.model.revert();
    }
    this.on.draw();
    if (pending.type === "leave") this.on.navigate("/play/");
  }

  /**
   * After the event of one step of a combined move, the next step goes out with the new version
   * (protocol.md `combined_moves`: ordinary steps, one after the other). If the server's state no
   * longer offers it, the rest is dropped and the confirmed state stays drawn.
   */
  continueCombined(msg) {
    if (!this.queue.length) return;
    const next = this.queue[0];
    if (msg.kind !== "step" || this.socket.pending || !this.model.isLegalNow(next)) {
      if (msg.kind !== "step" || !this.model.isLegalNow(next)) this.queue = [];
      return;
    }
    const rest = this.queue;
    this.queue = [];
    this.sendSteps(rest);
  }

  // ---- the viewer's commands ----
  /**
   * A gesture from board key `from` to `to`: one step, or one checker by several dice. When the
   * gesture can end in different ways (combined.js), `on.choose(options, pick)` asks the viewer
   * and `pick(option)` plays the chosen one. True when something was sent or asked.
   */
  move(from, to) {
    if (this.socket.pending) return false;
    const options = this.model.movesBetween(from, to);
    if (!options.length) return false;
    if (options.length > 1 && this.on.choose) {
      this.on.choose(options, (option) => this.sendSteps(option.steps));
      return true;
    }
    return this.sendSteps(options[0].steps);
  }

  /** Send the first of `steps` now, drawn at once with the rest; the rest follow its event. */
  sendSteps(steps) {
    if (this.socket.pending || !steps.length || !this.model.isLegalNow(steps[0])) return false;
    if (!this.socket.versioned("step", { step: steps[0] })) return false;
    this.queue = steps.slice(1);
    this.ownSteps = this.ownSteps.concat(steps).slice(-8);
    this.model.applyOptimisticPath(steps);
    this.on.draw();
    return true;
  }

  canRoll() {
    return !this.socket.pending && this.connection === "open" && this.model.isMyTurn() && this.model.phaseIs("roll") && !this.model.cubeOffered();
  }

  roll() {
    if (!this.canRoll()) return;
    this.socket.versioned("roll");
    this.on.draw();
  }

  canConfirm() {
    return !this.socket.pending && this.connection === "open" && this.model.awaitingConfirm();
  }

  /** End the whole turn played ("confirm my turn", protocol.md "confirm"). */
  confirm() {
    if (!this.canConfirm()) return;
    this.socket.versioned("confirm");
    this.on.draw();
  }

  undo() {
    if (this.socket.pending || !this.model.isMyTurn()) return;
    this.socket.versioned("undo");
    this.on.draw();
  }

  /** A chat message: {text} or {phrase}. Not versioned; the id, or null when not sent. */
  chat(fields) {
    return this.socket.send({ type: "chat", ...fields });
  }

  /** Mute (or unmute) the opponent's chat for this match. */
  muteOpponent(mute) {
    return this.socket.send({ type: "chat_mute", mute: !!mute });
  }

  /** The doubling cube (protocol.md "double", "take", "drop"): each for the board's version. */
  cube(type) {
    if (this.socket.pending || this.connection !== "open") return false;
    const sent = this.socket.versioned(type);
    this.on.draw();
    return sent;
  }

  /** Commands without a version (protocol.md): abort, resign, leave, rematch, rematch_decline. */
  send(type, fields = {}) {
    return type === "leave" ? this.socket.command({ type }) : this.socket.send({ ...fields, type });
  }
}
