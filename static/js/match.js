// The live match page: socket, versioned state, optimistic steps, rendering (docs/protocol.md).
import {
  BoardView, diceFaces, formatOpening, formatTurn, indexToOwnPoint, moveListItem, otherSide,
  ownPointToIndex, pipCount, borneOff, readStrings,
} from "./board.js";

const DEFAULT_STRINGS = {
  roll: "Roll", undo: "Undo", resign: "Resign", leave: "Leave table", rematch: "Rematch",
  accept_rematch: "Accept rematch", decline: "Decline", withdraw: "Withdraw offer", flip: "Flip board",
  rematch_offered_by_you: "Rematch offered — waiting for {name}",
  rematch_offered_to_you: "{name} offers a rematch",
  rematch_declined: "The rematch was declined",
  confirm_resign: "Resign the match?", confirm_leave: "Leaving the table resigns the match. Leave?",
  your_turn_roll: "Your turn — roll", your_turn_move: "Your turn — move", waiting_for: "Waiting for {name}",
  to_roll: "{name} to roll", to_move: "{name} to move",
  waiting_open: "Waiting for an opponent to accept", cancelled: "The challenge was withdrawn",
  aborted: "The match was aborted", won_match: "{name} won the match",
  won_match_reason: "{name} won the match ({reason})",
  reason_finished: "", reason_resigned: "resigned", reason_left: "left the table",
  reason_timeouts: "timeouts", reason_aborted: "aborted",
  timed_out: "{name} ran out of time: the server plays this turn (timeout {n} of 3)",
  game_over: "{name} won game {game}: {result}, {points}", oin: "oin", mars: "mars",
  point_one: "1 point", points_many: "{n} points",
  passed: "No legal move: {dice}, turn passes", opening: "Opening roll: White {white}, Black {black}",
  opening_ties: "ties: {ties}", started: "The match has started",
  watching: "{n} watching", disconnected: "disconnected", online: "online", offline: "offline",
  logged_out: "You were logged out", no_match: "No such match", too_many: "Too many messages",
  connecting: "Connecting…", reconnecting: "Connection lost — reconnecting…",
  match_to: "Match to {n}", rated: "rated", casual: "casual",
  rules_traditional: "Traditional", rules_tournament: "Tournament",
  untimed: "untimed", per_turn: "{s} s per turn", reserve: "+{s} s reserve",
  pips: "pips", off: "off", white: "White", black: "Black", white_short: "W", black_short: "B",
  by_server: "played by the server", score: "Score", you: "you", replay: "Replay",
  error: "Error: {message}",
};

function fmt(template, params = {}) {
  return String(template).replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

function formatMs(ms) {
  if (ms === null || ms === undefined) return "∞";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60);
  const s = total % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

function clone(x) {
  return JSON.parse(JSON.stringify(x));
}

export class MatchApp {
  constructor(root, { strings = {}, WebSocketImpl = null } = {}) {
    this.root = root;
    this.s = { ...DEFAULT_STRINGS, ...strings };
    this.WebSocketImpl = WebSocketImpl;
    this.wsPath = root.dataset.wsPath;
    this.version = null;
    this.you = { user: null, seat: null, side: null };
    this.confirmed = null; // last state from the server
    this.view = null; // what is drawn (confirmed, or with an optimistic step)
    this.stateAt = performance.now();
    this.pending = null; // {id, type, timer}
    this.seq = 0;
    this.idPrefix = Math.random().toString(36).slice(2, 7);
    this.resyncing = false;
    this.flipped = false;
    this.presence = {};
    this.spectators = 0;
    this.ws = null;
    this.closedFor = null; // a final close: no reconnect
    this.backoff = 1000;
    this.connected = false;
    this.toastTimer = null;
    this.leaving = false;

    this.$ = (id) => root.querySelector(`#${id}`);
    this.boardView = new BoardView(this.$("board"), {
      onMove: (from, to) => this.onBoardMove(from, to),
      label: root.dataset.boardLabel || "Board",
    });
    this.bindButtons();
    this.setStatus(this.s.connecting);
    setInterval(() => this.tickClocks(), 100);
  }

  t(key, params) {
    return fmt(this.s[key] !== undefined ? this.s[key] : key, params);
  }

  // ---- socket ----
  connect() {
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + this.wsPath;
    const Impl = this.WebSocketImpl || window.WebSocket;
    let ws;
    try {
      ws = new Impl(url);
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      this.connected = true;
      this.backoff = 1000;
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => this.onClose(ev);
    ws.onerror = () => { /* onclose follows */ };
  }

  onClose(ev) {
    this.connected = false;
    this.ws = null;
    this.clearPending(true);
    const finals = { 4001: "logged_out", 4404: "no_match", 4008: "too_many", 4029: "too_many" };
    if (finals[ev.code]) {
      this.closedFor = finals[ev.code];
      this.setStatus(this.t(finals[ev.code]), "bad");
      this.render();
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    this.setStatus(this.t("reconnecting"), "bad");
    this.render();
    const delay = this.backoff * (0.8 + Math.random() * 0.4);
    this.backoff = Math.min(this.backoff * 2, 30000);
    setTimeout(() => this.connect(), delay);
  }

  send(msg) {
    if (!this.ws || this.ws.readyState !== 1) return null;
    const id = `${this.idPrefix}-${++this.seq}`;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  // ---- messages ----
  onMessage(msg) {
    switch (msg.type) {
      case "snapshot":
        this.resyncing = false;
        this.version = msg.version;
        this.you = msg.you || { user: null, seat: null, side: null };
        if (msg.state.presence) this.presence = msg.state.presence;
        if (typeof msg.state.spectators === "number") this.spectators = msg.state.spectators;
        this.clearPending(false);
        this.setConfirmed(msg.state);
        break;
      case "event":
        this.onEvent(msg);
        break;
      case "presence":
        this.presence = msg.presence || {};
        if (typeof msg.spectators === "number") this.spectators = msg.spectators;
        this.renderPlayers();
        this.renderSpectators();
        break;
      case "ack":
        if (this.pending && msg.id === this.pending.id) this.onPendingAnswered(msg, null);
        break;
      case "error":
        this.onError(msg);
        break;
      default:
        break;
    }
  }

  onEvent(msg) {
    if (this.version === null) return; // no snapshot yet: it is on its way
    if (msg.version <= this.version) return; // already have it (stale, e.g. after a snapshot)
    if (msg.version !== this.version + 1) {
      if (!this.resyncing) {
        this.resyncing = true;
        this.send({ type: "snapshot" });
      }
      return;
    }
    const before = this.confirmed;
    this.version = msg.version;
    if (msg.state.presence) this.presence = msg.state.presence;
    if (typeof msg.state.spectators === "number") this.spectators = msg.state.spectators;
    // Any event answers an in-flight step or roll: the new state is authoritative.
    if (this.pending && (this.pending.type === "step" || this.pending.type === "roll" || this.pending.type === "undo")) {
      this.clearPending(false);
    }
    // Events carry `state.match` only when it changed, and leave the move log out: it grows by
    // the entry each `turn` event carries, and a new game starts an empty one.
    const match = msg.state.match || (before && before.match);
    let moves = (before && before.moves) || [];
    const number = msg.state.game ? msg.state.game.number : null;
    if (before && before.game && number !== before.game.number) moves = [];
    if (msg.kind === "turn" && msg.detail && msg.detail.number !== undefined && (!before || !before.game || number === before.game.number)) {
      const { passed, ...entry } = msg.detail;
      moves = moves.concat([entry]);
    }
    this.setConfirmed({ ...msg.state, match, moves });
    this.noteEvent(msg, before);
  }

  noteEvent(msg, before) {
    const d = msg.detail || {};
    const st = this.confirmed;
    const prev = before || st;
    const nameOfSide = (side, s) => {
      const p = ((s && s.match.players) || []).find((x) => x.side === side);
      return p ? p.username : this.t(side === "w" ? "white" : "black");
    };
    switch (msg.kind) {
      case "started":
        this.toast(this.t("started") + (st.game && st.game.opening ? ` — ${this.openingText(st.game.opening)}` : ""));
        break;
      case "turn":
        if (d.passed) {
          const dice = d.dice ? `${d.dice[0]}-${d.dice[1]}` : "";
          this.toast(this.t("passed", { dice }), 3000);
        }
        break;
      case "game_over": {
        const points = d.points === 1 ? this.t("point_one") : this.t("points_many", { n: d.points });
        this.toast(this.t("game_over", {
          name: nameOfSide(d.winner, prev), game: d.game, result: this.t(d.result), points,
        }), 6000);
        break;
      }
      case "timeout": {
        const p = st.match.players.find((x) => x.seat === d.seat);
        this.toast(this.t("timed_out", { name: p ? p.username : "?", n: d.timeouts }), 5000, "bad");
        break;
      }
      case "match_over": {
        if (d.winner_seat === null || d.winner_seat === undefined) {
          this.toast(this.t("aborted"), 8000);
          break;
        }
        const p = st.match.players.find((x) => x.seat === d.winner_seat);
        const name = p ? p.username : "?";
        const reason = this.t(`reason_${d.reason}`);
        this.toast(reason ? this.t("won_match_reason", { name, reason }) : this.t("won_match", { name }), 8000);
        break;
      }
      case "rematch":
        if (d.match_id) {
          window.location.assign(`/matches/${d.match_id}/`);
        } else if (d.offered_by !== undefined && d.offered_by !== null) {
          // The rematch note next to the buttons says it (#rematch-note).
        } else if (d.declined_by !== undefined) {
          this.toast(this.t("rematch_declined"), 4000);
        }
        break;
      case "cancelled":
        this.toast(this.t("cancelled"), 6000);
        break;
      default:
        break;
    }
  }

  onError(msg) {
    const mine = this.pending && msg.id === this.pending.id;
    if (mine) this.onPendingAnswered(null, msg);
    this.toast(this.t("error", { message: msg.message || msg.code }), 4000, "bad");
    if (msg.code === "stale_version" && !this.resyncing) {
      this.resyncing = true;
      this.send({ type: "snapshot" });
    }
  }

  onPendingAnswered(ack, err) {
    const p = this.pending;
    const wasStep = p && p.type === "step";
    this.clearPending(false);
    if (err && wasStep) {
      // Revert the optimistic step.
      this.view = clone(this.confirmed);
      this.render();
    } else {
      this.render();
    }
    if (p && p.type === "leave") window.location.assign("/play/");
  }

  clearPending(revert) {
    if (this.pending && this.pending.timer) clearTimeout(this.pending.timer);
    this.pending = null;
    if (revert && this.confirmed) this.view = clone(this.confirmed);
  }

  setPending(id, type) {
    if (!id) return;
    const timer = setTimeout(() => {
      // No answer: fall back to the server's truth.
      if (this.pending && this.pending.id === id) {
        this.clearPending(true);
        if (!this.resyncing) {
          this.resyncing = true;
          this.send({ type: "snapshot" });
        }
        this.render();
      }
    }, 10000);
    this.pending = { id, type, timer };
  }

  setConfirmed(state) {
    this.confirmed = state;
    this.view = clone(state);
    this.stateAt = performance.now();
    this.render();
  }

  // ---- derived ----
  mySeat() {
    return this.you && (this.you.seat === 0 || this.you.seat === 1) ? this.you.seat : null;
  }

  /** The viewer's colour in the current game (seats keep, colours change between games). */
  mySide(state = this.view) {
    const seat = this.mySeat();
    if (seat === null || !state) return null;
    const p = state.match.players.find((x) => x.seat === seat);
    return p && p.side ? p.side : this.you.side || null;
  }

  orientation() {
    const mine = this.mySide();
    if (mine) return mine;
    return this.flipped ? "b" : "w";
  }

  seatName(state, seat) {
    const p = state.match.players.find((x) => x.seat === seat);
    return p ? p.username : "?";
  }

  playerOfSide(side, state = this.view) {
    return state.match.players.find((x) => x.side === side) || null;
  }

  isMyTurn() {
    const v = this.view;
    return !!(v && v.match.status === "active" && v.game && this.mySide() && v.game.turn === this.mySide());
  }

  winnerName(state) {
    const m = state.match;
    const w = m.winner;
    if (w === null || w === undefined) return null;
    if (typeof w === "number") return this.seatName(state, w);
    if (typeof w === "object" && w.username) return w.username;
    if (w === "w" || w === "b") {
      const p = this.playerOfSide(w, state);
      return p ? p.username : w;
    }
    return String(w);
  }

  openingText(o) {
    return formatOpening(o, (key, values) => this.t(key, values));
  }

  // ---- moving ----
  legalMoves() {
    const v = this.view;
    if (!v || this.pending || !this.isMyTurn() || v.game.phase !== "move") return [];
    const side = v.game.turn;
    return (v.game.legal_steps || []).map(([src, dst]) => ({
      from: ownPointToIndex(side, src),
      to: dst === 0 ? "off" : ownPointToIndex(side, dst),
    }));
  }

  onBoardMove(from, to) {
    const v = this.view;
    if (!v || this.pending || !this.isMyTurn()) return;
    const side = v.game.turn;
    const src = indexToOwnPoint(side, from);
    const dst = to === "off" ? 0 : indexToOwnPoint(side, to);
    const options = (v.game.legal_steps || []).filter((s) => s[0] === src && s[1] === dst);
    if (!options.length) return;
    const step = options.reduce((a, b) => (b[2] > a[2] ? b : a));
    const id = this.send({ type: "step", version: this.version, step });
    if (!id) return;
    this.setPending(id, "step");
    this.applyOptimistic(step, from, to);
  }

  applyOptimistic(step, from, to) {
    const g = this.view.game;
    const sign = g.turn === "w" ? 1 : -1;
    g.board[from] -= sign;
    if (to === "off") {
      if (g.borne_off) g.borne_off[g.turn] = (g.borne_off[g.turn] || 0) + 1;
    } else {
      g.board[to] += sign;
    }
    const left = [...(g.dice_left || [])];
    const at = left.indexOf(step[2]);
    if (at >= 0) left.splice(at, 1);
    g.dice_left = left;
    g.steps = [...(g.steps || []), step];
    g.legal_steps = [];
    g.can_undo = false;
    this.render();
  }

  // ---- buttons ----
  bindButtons() {
    const on = (id, fn) => {
      const b = this.$(id);
      if (b) b.addEventListener("click", fn);
    };
    on("roll-button", () => this.roll());
    on("undo-button", () => {
      if (this.pending || !this.isMyTurn()) return;
      const id = this.send({ type: "undo", version: this.version });
      this.setPending(id, "undo");
      this.render();
    });
    on("resign-button", () => {
      if (window.confirm(this.t("confirm_resign"))) this.send({ type: "resign" });
    });
    on("leave-button", () => {
      if (!window.confirm(this.t("confirm_leave"))) return;
      const id = this.send({ type: "leave" });
      if (!id) return;
      this.setPending(id, "leave");
      setTimeout(() => window.location.assign("/play/"), 2000);
    });
    on("rematch-button", () => this.send({ type: "rematch" }));
    on("decline-button", () => this.send({ type: "rematch_decline" }));
    on("flip-button", () => {
      this.flipped = !this.flipped;
      this.render();
    });
    document.addEventListener("keydown", (e) => {
      if (e.code !== "Space" && e.key !== " ") return;
      const tag = (e.target && e.target.tagName) || "";
      if (["INPUT", "TEXTAREA", "SELECT", "BUTTON"].includes(tag) && e.target.id !== "roll-button") return;
      if (this.canRoll()) {
        e.preventDefault();
        this.roll();
      }
    });
  }

  canRoll() {
    const v = this.view;
    return !!(v && !this.pending && this.isMyTurn() && v.game.phase === "roll" && this.connected);
  }

  roll() {
    if (!this.canRoll()) return;
    const id = this.send({ type: "roll", version: this.version });
    this.setPending(id, "roll");
    this.render();
  }

  // ---- rendering ----
  setStatus(text, tone = "") {
    const el = this.$("status");
    if (!el) return;
    el.textContent = text;
    el.dataset.tone = tone;
  }

  toast(text, ms = 3000, tone = "") {
    const el = this.$("toast");
    if (!el) return;
    el.textContent = text;
    el.dataset.tone = tone;
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  }

  statusText() {
    const v = this.view;
    const m = v.match;
    if (m.status === "open") return this.t("waiting_open");
    if (m.status === "cancelled") return this.t("cancelled");
    if (m.status === "aborted") return this.t("aborted");
    if (m.status === "finished") {
      const name = this.winnerName(v) || "?";
      const reason = m.end_reason ? this.t(`reason_${m.end_reason}`) : "";
      return reason ? this.t("won_match_reason", { name, reason }) : this.t("won_match", { name });
    }
    const g = v.game;
    if (!g) return "";
    const mover = this.playerOfSide(g.turn);
    const name = mover ? mover.username : this.t(g.turn === "w" ? "white" : "black");
    if (this.isMyTurn()) {
      if (g.phase === "roll") return this.t("your_turn_roll");
      if (g.phase === "move") return this.t("your_turn_move");
    }
    if (this.mySeat() !== null) return this.t("waiting_for", { name });
    return this.t(g.phase === "roll" ? "to_roll" : "to_move", { name });
  }

  render() {
    const v = this.view;
    if (!v) return;
    const root = this.root;
    root.dataset.version = String(this.version);
    root.dataset.phase = v.game ? v.game.phase : "";
    root.dataset.status = v.match.status;
    root.dataset.turn = v.game ? v.game.turn : "";
    root.dataset.side = this.mySide() || "";
    if (v.match.status === "finished") {
      root.dataset.result = `${this.winnerName(v) || ""}:${v.match.end_reason || ""}`;
    } else {
      delete root.dataset.result;
    }
    root.classList.toggle("is-spectator", this.mySeat() === null);
    root.classList.toggle("my-turn", this.isMyTurn());

    if (this.closedFor) this.setStatus(this.t(this.closedFor), "bad");
    else if (!this.connected && this.ws === null) this.setStatus(this.t("reconnecting"), "bad");
    else this.setStatus(this.statusText(), this.isMyTurn() ? "turn" : "");

    const g = v.game;
    const orientation = this.orientation();
    const lastMove = [];
    if (g && g.steps && g.steps.length) {
      for (const st of g.steps) {
        lastMove.push({ from: ownPointToIndex(g.turn, st[0]), to: st[1] === 0 ? "off" : ownPointToIndex(g.turn, st[1]) });
      }
    }
    this.boardView.render({
      board: g ? g.board : new Array(24).fill(0),
      orientation,
      legal: this.legalMoves(),
      dice: g && g.phase !== "roll" ? g.dice : null,
      diceLeft: g ? g.dice_left : [],
      diceNear: g ? g.turn === orientation : true,
      lastMove,
      disabled: !!this.pending,
    });
    this.renderPlayers();
    this.renderButtons();
    this.renderScore();
    this.renderMoves();
    this.renderSpectators();
  }

  renderPlayers() {
    const v = this.view;
    if (!v) return;
    const orientation = this.orientation();
    const g = v.game;
    const board = g ? g.board : new Array(24).fill(0);
    const mySeat = this.mySeat();
    for (const [id, side] of [["player-bottom", orientation], ["player-top", otherSide(orientation)]]) {
      const box = this.$(id);
      if (!box) continue;
      const p = this.playerOfSide(side) || v.match.players[side === "w" ? 0 : 1] || null;
      box.innerHTML = "";
      box.dataset.side = side;
      box.classList.toggle("to-move", !!(g && g.turn === side && v.match.status === "active"));
      const mk = (tag, cls, text) => {
        const e = document.createElement(tag);
        if (cls) e.className = cls;
        if (text !== undefined) e.textContent = text;
        box.appendChild(e);
        return e;
      };
      if (!p) {
        mk("span", "player-name muted", this.t("waiting_open"));
        continue;
      }
      const online = this.presence[String(p.seat)];
      const dot = mk("span", `dot ${online ? "online" : "offline"}`);
      dot.title = online ? this.t("online") : this.t("offline");
      mk("span", `swatch ${side}`).title = this.t(side === "w" ? "white" : "black");
      const name = mk("span", "player-name", p.username);
      if (p.seat === mySeat) name.classList.add("me");
      if (p.rating !== undefined && p.rating !== null) mk("span", "player-rating muted", `(${p.rating})`);
      if (!online && p.seat !== mySeat && v.match.status === "active") mk("span", "away", this.t("disconnected"));
      mk("span", "spacer");
      mk("span", "pips", `${this.t("pips")} ${g && g.pips ? g.pips[side] : pipCount(board, side)}`);
      const clock = mk("span", "clock");
      clock.dataset.side = side;
      mk("span", "reserve muted").dataset.side = side;
    }
    this.tickClocks();
  }

  tickClocks() {
    const v = this.view;
    if (!v || !v.game) return;
    const c = v.game.clock || {};
    const elapsed = performance.now() - this.stateAt;
    const running = c.running && v.match.status === "active";
    for (const box of this.root.querySelectorAll(".player-bar")) {
      const side = box.dataset.side;
      const clockEl = box.querySelector(".clock");
      const resEl = box.querySelector(".reserve");
      if (!clockEl) continue;
      const untimed = c.turn_ms_left === null || c.turn_ms_left === undefined;
      const reserve = c.reserve_ms ? c.reserve_ms[side] : null;
      const toMove = v.game.turn === side && v.match.status === "active";
      if (untimed) {
        clockEl.textContent = toMove ? "∞" : "";
        resEl.textContent = "";
        continue;
      }
      if (toMove) {
        const left = running ? c.turn_ms_left - elapsed : c.turn_ms_left;
        clockEl.textContent = formatMs(Math.max(0, left));
        clockEl.classList.toggle("low", left < 10000);
        let res = reserve;
        if (running && left < 0 && typeof reserve === "number") res = Math.max(0, reserve + left);
        resEl.textContent = typeof res === "number" && (v.match.reserve_seconds || res > 0) ? `+${formatMs(res)}` : "";
      } else {
        clockEl.textContent = "";
        clockEl.classList.remove("low");
        resEl.textContent = typeof reserve === "number" && (v.match.reserve_seconds || reserve > 0) ? `+${formatMs(reserve)}` : "";
      }
    }
  }

  renderButtons() {
    const v = this.view;
    const m = v.match;
    const g = v.game;
    const seat = this.mySeat();
    const player = seat !== null;
    const active = m.status === "active";
    const live = this.connected && !this.closedFor;
    const show = (id, visible, enabled = true, text = null) => {
      const b = this.$(id);
      if (!b) return;
      b.hidden = !visible;
      b.disabled = !enabled || !live;
      if (text !== null) b.textContent = text;
    };
    const myTurn = this.isMyTurn();
    show("roll-button", player && active && myTurn && g && g.phase === "roll", !this.pending);
    show("undo-button", player && active && myTurn && g && g.phase === "move" && !!g.can_undo && (g.steps || []).length > 0, !this.pending);
    show("resign-button", player && active);
    show("leave-button", player && active);
    const finished = m.status === "finished";
    const r = m.rematch || {};
    let rematchText = this.t("rematch");
    let rematchVisible = player && finished && !r.declined && !r.match_id;
    let rematchEnabled = true;
    let declineVisible = false;
    let declineText = this.t("decline");
    let note = "";
    if (rematchVisible && r.offered_by !== null && r.offered_by !== undefined) {
      if (r.offered_by === seat) {
        rematchEnabled = false;
        declineVisible = true;
        declineText = this.t("withdraw");
        note = this.t("rematch_offered_by_you", { name: this.seatName(v, 1 - seat) });
      } else {
        rematchText = this.t("accept_rematch");
        declineVisible = true;
        note = this.t("rematch_offered_to_you", { name: this.seatName(v, r.offered_by) });
      }
    }
    if (finished && r.declined) note = this.t("rematch_declined");
    show("rematch-button", rematchVisible, rematchEnabled, rematchText);
    show("decline-button", declineVisible, true, declineText);
    const noteEl = this.$("rematch-note");
    if (noteEl) {
      noteEl.textContent = note;
      noteEl.hidden = !note;
    }
    const flip = this.$("flip-button");
    if (flip) {
      flip.hidden = player;
      flip.disabled = false;
      flip.setAttribute("aria-pressed", String(this.flipped));
    }
    const replay = this.$("replay-link");
    if (replay) replay.hidden = !(finished && replay.getAttribute("href"));
  }

  renderScore() {
    const v = this.view;
    const m = v.match;
    const el = this.$("score");
    if (el) {
      el.innerHTML = "";
      const players = [...m.players].sort((a, b) => a.seat - b.seat);
      players.forEach((p, i) => {
        if (i) el.appendChild(document.createTextNode(" – "));
        const span = document.createElement("span");
        span.className = "score-player";
        span.dataset.seat = p.seat;
        span.textContent = `${p.username} ${p.score}`;
        el.appendChild(span);
      });
    }
    const info = this.$("match-info");
    if (info) {
      const parts = [this.t("match_to", { n: m.length })];
      const rulesName = m.rules && m.rules.name;
      if (rulesName) parts.push(this.t(`rules_${rulesName}`));
      if (m.turn_seconds) {
        parts.push(this.t("per_turn", { s: m.turn_seconds }) + (m.reserve_seconds ? ` ${this.t("reserve", { s: m.reserve_seconds })}` : ""));
      } else {
        parts.push(this.t("untimed"));
      }
      parts.push(m.rated ? this.t("rated") : this.t("casual"));
      if (v.game && v.game.number) parts.push(`#${v.game.number}`);
      info.textContent = parts.join(" · ");
    }
  }

  renderMoves() {
    const v = this.view;
    const ol = this.$("moves");
    if (!ol) return;
    ol.innerHTML = "";
    const opening = this.$("opening");
    if (opening) opening.textContent = v.game && v.game.opening ? this.openingText(v.game.opening) : "";
    const words = { white: this.t("white_short"), black: this.t("black_short"), off: this.t("off") };
    for (const mv of v.moves || []) ol.appendChild(moveListItem(mv, words, this.t("by_server")));
    const g = v.game;
    if (g && g.phase === "move" && g.dice) {
      const li = document.createElement("li");
      li.className = "current";
      li.textContent = formatTurn({ number: g.turn_number, side: g.turn, dice: g.dice, steps: g.steps || [] }, words).replace(/—$/, "…");
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  renderSpectators() {
    const el = this.$("spectators");
    if (el) el.textContent = this.t("watching", { n: this.spectators || 0 });
  }
}

export function start(root = document.getElementById("match-app")) {
  if (!root) return null;
  const app = new MatchApp(root, { strings: readStrings("match-strings") });
  app.connect();
  window.matchApp = app; // for debugging and browser tests
  return app;
}

if (document.getElementById("match-app") && !window.__NARDY_NO_AUTOSTART__) start();

// Re-exported so the page and tests can reach the helpers from one module.
export { diceFaces, borneOff };
