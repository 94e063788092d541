// The live match page (docs/protocol.md): wires the protocol client (match/socket.js), the match
// state with its optimistic steps (match/state.js) and the drawing (match/view.js) together.
import { readStrings, translator } from "./strings.js";
import { bindControls } from "./match/controls.js";
import { MatchSocket } from "./match/socket.js";
import { MatchModel } from "./match/state.js";
import { DEFAULT_STRINGS, eventNotice } from "./match/strings.js";
import { MatchView } from "./match/view.js";

const CLOCK_TICK_MS = 100;
const LEAVE_FALLBACK_MS = 2000;

export class MatchApp {
  constructor(root, { strings = {}, WebSocketImpl = null } = {}) {
    this.root = root;
    this.t = translator(DEFAULT_STRINGS, strings);
    this.model = new MatchModel();
    this.flipped = false;
    this.connection = "connecting";
    this.stateAt = performance.now();
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + root.dataset.wsPath;
    this.socket = new MatchSocket({
      url,
      WebSocketImpl: WebSocketImpl || window.WebSocket,
      handlers: {
        snapshot: (msg) => this.onSnapshot(msg),
        event: (msg) => this.onEvent(msg),
        presence: (msg) => this.onPresence(msg),
        answered: (pending, ack, error) => this.onAnswered(pending, error),
        abandoned: () => this.revert(),
        error: (msg) => this.screen.toast(this.t("error", { message: msg.message || msg.code }), 4000, "bad"),
        connection: (state) => this.onConnection(state),
      },
    });
    this.screen = new MatchView(root, { t: this.t, onMove: (from, to) => this.move(from, to) });
    bindControls(root, {
      roll: () => this.roll(),
      canRoll: () => this.canRoll(),
      undo: () => this.undo(),
      resign: () => {
        if (window.confirm(this.t("confirm_resign"))) this.socket.send({ type: "resign" });
      },
      leave: () => this.leave(),
      rematch: () => this.socket.send({ type: "rematch" }),
      decline: () => this.socket.send({ type: "rematch_decline" }),
      flip: () => {
        this.flipped = !this.flipped;
        this.render();
      },
    });
    this.screen.setStatus(this.t("connecting"));
    setInterval(() => this.screen.tickClocks(this.model, performance.now() - this.stateAt), CLOCK_TICK_MS);
  }

  // The state as browser tests and the console read it (window.matchApp).
  get version() {
    return this.socket.version;
  }

  get confirmed() {
    return this.model.confirmed;
  }

  get view() {
    return this.model.view;
  }

  connect() {
    this.socket.connect();
  }

  // ---- from the server ----
  onSnapshot(msg) {
    this.model.applySnapshot(msg);
    this.confirmedNow();
  }

  onEvent(msg) {
    const before = this.model.applyEvent(msg);
    this.confirmedNow();
    const d = msg.detail || {};
    if (msg.kind === "rematch" && d.match_id) {
      window.location.assign(`/matches/${d.match_id}/`);
      return;
    }
    const notice = eventNotice(msg, this.model, before, this.t);
    if (notice) this.screen.toast(notice.text, notice.ms, notice.tone);
  }

  onPresence(msg) {
    this.model.notePresence(msg);
    this.render();
  }

  onAnswered(pending, error) {
    // A refused step is taken back; an accepted one stays drawn until its event confirms it.
    if (error && pending.type === "step") this.model.revert();
    this.render();
    if (pending.type === "leave") window.location.assign("/play/");
  }

  onConnection(state) {
    this.connection = state;
    this.render();
  }

  confirmedNow() {
    this.stateAt = performance.now();
    this.render();
  }

  revert() {
    this.model.revert();
    this.render();
  }

  // ---- from the viewer ----
  orientation() {
    return this.model.mySide() || (this.flipped ? "b" : "w");
  }

  move(from, to) {
    if (this.socket.pending) return;
    const step = this.model.stepBetween(from, to);
    if (!step) return;
    if (!this.socket.versioned("step", { step })) return;
    this.model.applyOptimisticStep(step);
    this.render();
  }

  canRoll() {
    return !this.socket.pending && this.connection === "open" && this.model.isMyTurn() && this.model.phaseIs("roll");
  }

  roll() {
    if (!this.canRoll()) return;
    this.socket.versioned("roll");
    this.render();
  }

  undo() {
    if (this.socket.pending || !this.model.isMyTurn()) return;
    this.socket.versioned("undo");
    this.render();
  }

  leave() {
    if (!window.confirm(this.t("confirm_leave"))) return;
    if (!this.socket.command({ type: "leave" })) return;
    setTimeout(() => window.location.assign("/play/"), LEAVE_FALLBACK_MS);
  }

  render() {
    if (!this.model.view) return;
    this.screen.render(this.model, {
      version: this.socket.version,
      orientation: this.orientation(),
      pending: this.socket.pending,
      connection: this.connection,
      flipped: this.flipped,
    });
    this.screen.tickClocks(this.model, performance.now() - this.stateAt);
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
