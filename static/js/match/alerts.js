// What the table says without words: sounds for the dice, a checker, "your turn", low
// time and the match's end; the tab's title and icon when it is your turn; a browser notification
// when the tab is hidden (opt-in); a short vibration on phones. `alertsFor` and `lowTimeDue` are
// pure (Node tests); `Alerts` plays them. The sounds are synthesised here with WebAudio: no files.

import { composeTitle, tabOf } from "../tab.js";

export const LOW_TIME_MS = 10000;

/**
 * The alerts an event brings to the viewer (`seat`, null for a spectator), from the state before
 * it to the state after: a list of "dice", "checker", "your_turn", "match_end".
 */
export function alertsFor(msg, before, after, seat) {
  const alerts = [];
  if (!after || !after.game) return alerts;
  if (msg.kind === "rolled") alerts.push("dice");
  if (msg.kind === "step" || msg.kind === "undo") alerts.push("checker");
  if (msg.kind === "match_over") alerts.push("match_end");
  if (seat !== null && isSeatToAct(after, seat) && !isSeatToAct(before, seat)) alerts.push("your_turn");
  return alerts;
}

function isSeatToAct(state, seat) {
  if (!state || !state.game || !state.match || state.match.status !== "active") return false;
  const me = state.match.players.find((p) => p.seat === seat);
  // The side whose clock runs acts: the mover, or the answerer while a double is offered (cube).
  const acting = (state.game.clock && state.game.clock.side) || state.game.turn;
  return !!(me && me.side === acting && state.game.phase !== "over");
}

/**
 * Whether the low-time warning is due `elapsedMs` after the state arrived: the viewer is to act,
 * the turn has a deadline, and at most LOW_TIME_MS is left. `turnKey` says which turn it is, so
 * the caller warns once per turn.
 */
export function lowTimeDue(state, seat, elapsedMs) {
  if (seat === null || !isSeatToAct(state, seat)) return null;
  const clock = state.game.clock || {};
  if (typeof clock.deadline_ms_left !== "number" || !clock.running) return null;
  const left = clock.deadline_ms_left - elapsedMs;
  if (left > LOW_TIME_MS || left <= 0) return null;
  return `${state.game.number}:${state.game.turn_number}`;
}

/** The tab title: a mark in front when it is the viewer's turn (static/js/tab.js). */
export function titleFor(baseTitle, yourTurn) {
  return composeTitle(baseTitle, { turn: yourTurn });
}

// --- Sounds: short WebAudio figures (frequency Hz, start s, length s, wave, gain) --------------
const FIGURES = {
  dice: [[0, 0, 0.05, "noise", 0.35], [0, 0.07, 0.05, "noise", 0.3], [0, 0.15, 0.06, "noise", 0.25]],
  checker: [[520, 0, 0.06, "triangle", 0.25]],
  your_turn: [[660, 0, 0.14, "sine", 0.3], [880, 0.16, 0.22, "sine", 0.3]],
  low_time: [[990, 0, 0.08, "square", 0.12], [990, 0.16, 0.08, "square", 0.12]],
  match_end: [[523, 0, 0.16, "sine", 0.3], [659, 0.17, 0.16, "sine", 0.3], [784, 0.34, 0.3, "sine", 0.3]],
};

export class Alerts {
  /**
   * root: the match page root; options: {muted, t, saveMuted(muted), window}
   * `saveMuted` remembers the choice for the signed-in player (the preferences field).
   */
  constructor({ muted = false, t, saveMuted = () => {}, win = globalThis.window } = {}) {
    this.muted = !!muted;
    this.t = t;
    this.saveMuted = saveMuted;
    this.win = win;
    this.audio = null;
    this.warnedTurn = null;
  }

  setMuted(muted) {
    this.muted = !!muted;
    this.saveMuted(this.muted);
  }

  _context() {
    const AudioContext = this.win && (this.win.AudioContext || this.win.webkitAudioContext);
    if (!AudioContext) return null;
    if (!this.audio) this.audio = new AudioContext();
    if (this.audio.state === "suspended") this.audio.resume();
    return this.audio;
  }

  play(name) {
    if (this.muted || !FIGURES[name]) return;
    let ctx;
    try {
      ctx = this._context();
    } catch (_) {
      return; // no sound here (autoplay refused, no audio device): the table stays silent
    }
    if (!ctx) return;
    const now = ctx.currentTime;
    for (const [freq, start, length, wave, gain] of FIGURES[name]) {
      const volume = ctx.createGain();
      volume.gain.setValueAtTime(gain, now + start);
      volume.gain.exponentialRampToValueAtTime(0.001, now + start + length);
      volume.connect(ctx.destination);
      let source;
      if (wave === "noise") {
        const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
        const data = buffer.getChannelData(0);
        for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
        source = ctx.createBufferSource();
        source.buffer = buffer;
      } else {
        source = ctx.createOscillator();
        source.type = wave;
        source.frequency.setValueAtTime(freq, now + start);
      }
      source.connect(volume);
      source.start(now + start);
      source.stop(now + start + length + 0.02);
    }
  }

  /** Everything an event brings: sounds, and on "your turn" the notification and vibration. */
  fire(alerts) {
    for (const name of alerts) this.play(name);
    if (alerts.includes("your_turn")) {
      this.notify();
      const nav = this.win && this.win.navigator;
      if (nav && typeof nav.vibrate === "function") nav.vibrate([120, 60, 120]);
    }
  }

  /** The low-time warning, once per turn. */
  tick(turnKey) {
    if (turnKey === null || turnKey === this.warnedTurn) return;
    this.warnedTurn = turnKey;
    this.play("low_time");
    const nav = this.win && this.win.navigator;
    if (nav && typeof nav.vibrate === "function") nav.vibrate(200);
  }

  notify() {
    const win = this.win;
    if (!win || !win.document || !win.document.hidden || !("Notification" in win)) return;
    if (win.Notification.permission !== "granted") return;
    try {
      const note = new win.Notification(this.t("notify_title"), { body: this.t("notify_body"), tag: "nardy-turn" });
      note.onclick = () => {
        win.focus();
        note.close();
      };
    } catch (_) {
      /* some browsers only notify from a service worker: the title and icon still say it */
    }
  }

  /** Ask for the notification permission (a click on the page's button). */
  async enableNotifications() {
    const win = this.win;
    if (!win || !("Notification" in win)) return "unsupported";
    if (win.Notification.permission === "granted") return "granted";
    return win.Notification.requestPermission();
  }

  /** The tab's title and icon say "your turn" while it is (beside a challenge's mark). */
  showTurn(yourTurn) {
    const tab = tabOf(this.win);
    if (tab) tab.mark("turn", !!yourTurn);
  }
}
