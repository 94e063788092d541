// The live match page (docs/protocol.md). The session (match/session.js: the protocol client and
// the match state with its optimistic steps) runs the match; this module gives it a screen
// (match/view.js), buttons (match/controls.js) and the page's translated strings.
import { attachCall } from "./call.js";
import { FairnessPanel, newClientSeed } from "./fairness.js";
import { readStrings, translator } from "./strings.js";
import { Alerts, alertsFor, lowTimeDue } from "./match/alerts.js";
import { awayState } from "./match/away.js";
import { ChatPanel } from "./match/chat.js";
import { bindControls } from "./match/controls.js";
import { MatchSession } from "./match/session.js";
import { DEFAULT_STRINGS, diceAnnouncement } from "./match/strings.js";
import { MatchView } from "./match/view.js";

const CLOCK_TICK_MS = 100;

export class MatchApp {
  constructor(root, { strings = {}, WebSocketImpl = null } = {}) {
    this.root = root;
    this.t = translator(DEFAULT_STRINGS, strings);
    this.flipped = false;
    this.stateAt = performance.now(); // when the clocks' figures arrived (with drawnConfirmed)
    this.presenceAt = performance.now(); // when the away figures arrived
    this.drawnConfirmed = null;
    this.alerts = new Alerts({
      muted: root.dataset.soundsUrl ? root.dataset.soundsMuted === "true" : storedMuted(),
      t: this.t,
      saveMuted: (muted) => saveMuted(root, muted),
    });
    // ack_events=1: the acks of our commands carry their events (socket.js; docs/protocol.md "ack").
    const wsPath = `${root.dataset.wsPath}?ack_events=1`;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + wsPath;
    this.session = new MatchSession({
      url,
      t: this.t,
      WebSocketImpl: WebSocketImpl || window.WebSocket,
      on: {
        draw: () => this.render(),
        choose: (options, pick) => this.screen.chooseMove(options, pick),
        alert: (msg, before, after) => {
          this.alerts.fire(alertsFor(msg, before, after, this.model.mySeat()));
          if (msg.kind === "rolled") this.screen.announce(diceAnnouncement(msg.detail, this.model, this.t));
        },
        presence: () => {
          this.presenceAt = performance.now();
        },
        notice: (text, ms, tone) => this.screen.toast(text, ms, tone),
        ratings: (lines) => this.screen.showRatingChanges(lines),
        navigate: (path) => window.location.assign(path),
        chat: (kind, data) => this.onChat(kind, data),
        call: (msg) => this.call?.receive(msg),
        reply: (msg, error) => this.call?.reply(msg, error),
      },
    });
    this.model = this.session.model;
    this.call = attachCall(root, { t: translator({}, readStrings("call-strings")), socket: this.session.socket });
    // No chat against the computer (the template leaves the panel out).
    this.chat = !root.querySelector("#chat-panel") ? null : new ChatPanel(root, {
      t: this.t,
      send: (fields) => this.session.chat(fields),
      mute: (value) => this.session.muteOpponent(value),
    });
    this.screen = new MatchView(root, { t: this.t, onMove: (from, to) => this.session.move(from, to) });
    bindControls(root, {
      roll: () => this.session.roll(),
      canRoll: () => this.session.canRoll(),
      undo: () => this.session.undo(),
      confirm: () => this.session.confirm(),
      canConfirm: () => this.session.canConfirm(),
      double: () => this.session.cube("double"),
      take: () => this.session.cube("take"),
      drop: () => {
        if (window.confirm(this.t("confirm_drop"))) this.session.cube("drop");
      },
      abort: () => {
        if (window.confirm(this.t("confirm_abort"))) this.session.send("abort");
      },
      resign: () => {
        if (window.confirm(this.t("confirm_resign"))) this.session.send("resign");
      },
      // The rematch is a new sitting down: this browser contributes a fresh client seed.
      rematch: () => this.session.send("rematch", { client_seed: newClientSeed() }),
      decline: () => this.session.send("rematch_decline"),
      flip: () => {
        this.flipped = !this.flipped;
        this.render();
      },
      claim: () => {
        if (window.confirm(this.t("confirm_claim"))) this.session.send("claim");
      },
      wait: () => {
        this.screen.waiting = true;
        this.tick();
      },
      toggleSound: () => {
        this.alerts.setMuted(!this.alerts.muted);
        this.screen.showSound(this.alerts.muted);
        if (!this.alerts.muted) this.alerts.play("checker"); // and the sound is unlocked by this click
      },
      notifications: async () => {
        const answer = await this.alerts.enableNotifications();
        const b = root.querySelector("#notify-button");
        if (b) b.setAttribute("aria-pressed", String(answer === "granted"));
      },
    });
    this.screen.showSound(this.alerts.muted);
    const fairRoot = document.getElementById("fairness");
    this.fairness = fairRoot
      ? new FairnessPanel(fairRoot, {
          t: translator({}, readStrings("fairness-strings")),
          send: (msg) => this.session.socket.send(msg),
        })
      : null;
    this.screen.setStatus(this.t("connecting"));
    setInterval(() => this.tick(), CLOCK_TICK_MS);
  }

  tick() {
    const now = performance.now();
    this.screen.tickClocks(this.model, now - this.stateAt);
    if (!this.model.view) return;
    this.screen.tickAway(awayState(this.model, now - this.presenceAt));
    this.alerts.tick(lowTimeDue(this.model.view, this.model.mySeat(), now - this.stateAt));
  }

  onChat(kind, data) {
    if (!this.chat) return;
    if (kind === "snapshot") {
      const status = this.model.view && this.model.view.match ? this.model.view.match.status : null;
      this.chat.snapshot(data.chat, data.you, status);
    } else if (kind === "message") {
      this.chat.add(data);
    } else if (kind === "muted") {
      this.chat.muted(data);
    }
  }

  // What browser tests and the console read (window.matchApp).
  get version() {
    return this.session.version;
  }

  get confirmed() {
    return this.model.confirmed;
  }

  get view() {
    return this.model.view;
  }

  connect() {
    this.session.connect();
  }

  render() {
    if (!this.model.view) return;
    this.chat?.status(this.model.view.match.status);
    if (this.drawnConfirmed !== this.model.confirmed) {
      this.drawnConfirmed = this.model.confirmed;
      this.stateAt = performance.now();
    }
    this.screen.render(this.model, {
      version: this.session.version,
      orientation: this.model.mySide() || (this.flipped ? "b" : "w"),
      pending: this.session.pending,
      connection: this.session.connection,
      flipped: this.flipped,
      flights: this.session.takeFlights(),
    });
    this.alerts.showTurn(this.model.isMyTurn());
    this.tick();
    this.fairness?.update(this.model.view.match, this.model.mySeat());
    this.call?.update(this.model.view, this.model.mySeat(), this.session.connection);
  }
}

function storedMuted() {
  try {
    return localStorage.getItem("nardy-sounds-muted") === "true";
  } catch (_) {
    return false;
  }
}

/** Remember the sound choice: on the account when signed in (preferences), else in this browser. */
function saveMuted(root, muted) {
  const url = root.dataset.soundsUrl;
  if (!url) {
    try {
      localStorage.setItem("nardy-sounds-muted", String(muted));
    } catch (_) { /* private mode: for this page only */ }
    return;
  }
  const token = (document.cookie.match(/(?:^|; )csrftoken=([^;]+)/) || [])[1] || "";
  fetch(url, {
    method: "POST",
    headers: { "X-CSRFToken": decodeURIComponent(token), "Content-Type": "application/x-www-form-urlencoded" },
    body: `muted=${muted ? "1" : "0"}`,
    credentials: "same-origin",
  }).catch(() => { /* offline: the choice holds for this page */ });
}

export function start(root = document.getElementById("match-app")) {
  if (!root) return null;
  const app = new MatchApp(root, { strings: readStrings("match-strings") });
  app.connect();
  window.matchApp = app; // for debugging and browser tests
  return app;
}

if (document.getElementById("match-app") && !window.__NARDY_NO_AUTOSTART__) start();
