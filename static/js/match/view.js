// Drawing the match page from a MatchModel: the board (board.js), player bars, status line,
// notices, score, move list and spectators. Everything here touches the DOM and nothing else.
import { BoardView, fillPlayerBars } from "../board.js";
import { optionLabel } from "./combined.js";
import { moveListItem, moveWords, formatOpening, formatTurn } from "../notation.js";
import { finalPoints, pipCount } from "../points.js";
import { clockFaces, formatMs, showClocks } from "./clocks.js";
import { buttonStates, showButtons } from "./controls.js";
import { ratingText } from "../strings.js";
import { matchInfoText, matchTermsText, sideName, statusText } from "./strings.js";

const EMPTY_BOARD = Object.freeze(new Array(24).fill(0));

/** The screen reader's words for a point, in the page's language. */
function describePointIn(t, { point, count, colour, source, destination, selected, tray }) {
  const parts = [tray ? t("sr_tray", { n: count }) : count ? t("sr_point", { point, n: count, colour }) : t("sr_empty", { point })];
  if (selected) parts.push(t("sr_selected"));
  if (source) parts.push(t("sr_source"));
  if (destination) parts.push(t("sr_destination"));
  return parts.join(", ");
}

export class MatchView {
  constructor(root, { t, onMove }) {
    this.root = root;
    this.t = t;
    this.$ = (id) => root.querySelector(`#${id}`);
    this.board = new BoardView(this.$("board"), {
      onMove,
      label: root.dataset.boardLabel || "Board",
      colours: { w: t("white_checkers"), b: t("black_checkers") },
      describe: (p) => describePointIn(t, p),
    });
    this.toastTimer = null;
    this.waiting = false; // the viewer chose to keep waiting for an away opponent
  }

  /**
   * A gesture that can end in different ways (combined.js): one button per way and a cancel;
   * `pick(option)` plays the chosen one.
   */
  chooseMove(options, pick) {
    const box = this.$("move-choice");
    if (!box) return pick(options[0]);
    box.replaceChildren();
    const question = document.createElement("span");
    question.textContent = this.t("which_dice");
    box.appendChild(question);
    const close = () => {
      box.hidden = true;
      box.replaceChildren();
    };
    for (const option of options) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "choice";
      button.textContent = optionLabel(option);
      button.addEventListener("click", () => {
        close();
        pick(option);
      });
      box.appendChild(button);
    }
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.className = "quiet";
    cancel.textContent = this.t("cancel");
    cancel.addEventListener("click", close);
    box.appendChild(cancel);
    box.hidden = false;
    box.querySelector("button").focus();
  }

  /** The away opponent's countdown and, after it, the claim (awayState from away.js). */
  tickAway(away) {
    const claim = this.$("claim-button");
    const wait = this.$("wait-button");
    const note = this.$("away-note");
    if (!away) this.waiting = false;
    const offer = !!away && away.canClaim;
    if (claim) claim.hidden = !offer;
    if (wait) wait.hidden = !offer || this.waiting;
    if (note) {
      note.hidden = !away;
      note.textContent = !away ? "" : away.canClaim ? this.t(this.waiting ? "away_waiting" : "away_claim") : this.t("away_countdown", { time: formatMs(away.msLeft) });
    }
    const mark = this.root.querySelector(".player-bar .away");
    if (mark && away) mark.textContent = `${this.t("disconnected")} ${formatMs(away.msLeft)}`;
  }

  /** The sound toggle's state (aria-pressed = muted). */
  showSound(muted) {
    const b = this.$("sound-button");
    if (!b) return;
    b.setAttribute("aria-pressed", String(!!muted));
    b.textContent = this.t(muted ? "sound_off" : "sound_on");
  }

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
    el.dataset.tone = tone || "";
    el.hidden = false;
    clearTimeout(this.toastTimer);
    this.toastTimer = setTimeout(() => { el.hidden = true; }, ms);
  }

  /** A sentence for screen readers only (the polite live region #dice-live): a roll. */
  announce(text) {
    const el = this.$("dice-live");
    if (el && text) el.textContent = text;
  }

  /** The rating changes of a rated match that just ended (#rating-changes, kept on screen). */
  showRatingChanges(lines) {
    const box = this.$("rating-changes");
    if (!box || !lines.length) return;
    const list = document.createElement("ul");
    list.className = "rating-changes";
    for (const line of lines) {
      const item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    }
    box.replaceChildren(list);
    box.hidden = false;
  }

  /**
   * ui: {orientation, pending, connection ("open", "lost", "connecting" or a final reason), flipped}.
   * The root's data attributes are what browser tests and styles read.
   */
  render(model, ui) {
    const v = model.view;
    if (!v) return;
    const root = this.root;
    const g = v.game;
    root.dataset.version = String(ui.version);
    root.dataset.phase = g ? g.phase : "";
    root.dataset.status = v.match.status;
    root.dataset.turn = g ? g.turn : "";
    root.dataset.side = model.mySide() || "";
    if (v.match.status === "finished") {
      root.dataset.result = `${model.winnerName() || ""}:${v.match.end_reason || ""}`;
    } else {
      delete root.dataset.result;
    }
    root.classList.toggle("is-spectator", model.mySeat() === null);
    root.classList.toggle("my-turn", model.isMyTurn());
    this.renderStatus(model, ui);
    const shown = model.turnShown();
    this.board.render({
      board: g ? g.board : EMPTY_BOARD,
      orientation: ui.orientation,
      legal: ui.pending ? [] : model.legalMoves(),
      dice: shown.dice,
      diceLeft: shown.diceLeft,
      diceLast: shown.diceLast,
      diceNear: shown.side ? shown.side === ui.orientation : true,
      lastMove: shown.moves,
      lastSide: shown.movesSide,
      disabled: !!ui.pending,
    });
    if (ui.flights && ui.flights.length) this.board.fly(ui.flights);
    this.renderPlayers(model, ui);
    const live = ui.connection === "open";
    showButtons(root, buttonStates(model, this.t, { pending: !!ui.pending, live, flipped: ui.flipped }));
    const notify = this.$("notify-button");
    if (notify) notify.hidden = v.match.status !== "active" && v.match.status !== "open";
    this.renderScore(model);
    this.renderMoves(model);
    this.renderSpectators(model);
  }

  renderStatus(model, ui) {
    if (ui.connection === "open") this.setStatus(statusText(model, this.t), model.isMyTurn() ? "turn" : "");
    else if (ui.connection === "connecting") this.setStatus(this.t("connecting"));
    else this.setStatus(this.t(ui.connection === "lost" ? "reconnecting" : ui.connection), "bad");
  }

  renderPlayers(model, ui) {
    const v = model.view;
    if (!v) return;
    const t = this.t;
    const g = v.game;
    const board = g ? g.board : EMPTY_BOARD;
    const mySeat = model.mySeat();
    fillPlayerBars(this.root, ui.orientation, (side, mk, box) => {
      const p = model.playerOfSide(side) || v.match.players[side === "w" ? 0 : 1] || null;
      box.classList.toggle("to-move", !!(g && g.turn === side && v.match.status === "active"));
      if (!p) {
        mk("player-name muted", t("waiting_open"));
        return;
      }
      // The computer is always at the table (it plays from the server, without a socket).
      const online = p.bot || model.presence[String(p.seat)];
      mk(`dot ${online ? "online" : "offline"}`).title = online ? t("online") : t("offline");
      mk(`swatch ${side}`).title = sideName(t, side);
      const name = mk("player-name", p.username);
      if (p.seat === mySeat) name.classList.add("me");
      if (p.bot) mk("bot-mark", t("bot_mark"));
      if (p.rating !== undefined && p.rating !== null) mk("player-rating muted", `(${ratingText(p)})`);
      if (!online && p.seat !== mySeat && v.match.status === "active") mk("away", t("disconnected"));
      mk("spacer");
      mk("pips", `${t("pips")} ${g && g.pips ? g.pips[side] : pipCount(board, side)}`);
      mk("clock");
      mk("reserve muted");
    });
  }

  tickClocks(model, elapsedMs) {
    showClocks(this.root, clockFaces(model.view, elapsedMs));
  }

  renderScore(model) {
    const v = model.view;
    const m = v.match;
    const finished = m.status === "finished";
    const players = [...m.players].sort((a, b) => a.seat - b.seat);
    for (const el of [this.$("score"), finished ? this.$("final-score") : null]) {
      if (!el) continue;
      el.innerHTML = "";
      players.forEach((p, i) => {
        if (i) el.appendChild(document.createTextNode(" – "));
        const span = document.createElement("span");
        span.className = "score-player";
        span.dataset.seat = p.seat;
        const points = finished ? finalPoints(p.score, p.seat, m.winner, m.length) : p.score;
        span.textContent = `${p.username} ${points}`;
        if (finished && p.seat === m.winner) span.classList.add("winner");
        el.appendChild(span);
      });
    }
    const end = this.$("match-end");
    if (end) end.hidden = !finished;
    const running = this.$("score");
    if (running) running.hidden = finished; // the end panel has the final score: said once
    const info = this.$("match-info");
    if (info) info.textContent = matchInfoText(model, this.t);
    const terms = this.$("match-terms");
    if (terms) terms.textContent = matchTermsText(model, this.t);
  }

  renderMoves(model) {
    const v = model.view;
    const t = this.t;
    const ol = this.$("moves");
    if (!ol) return;
    ol.innerHTML = "";
    const opening = this.$("opening");
    if (opening) opening.textContent = v.game && v.game.opening ? formatOpening(v.game.opening, t) : "";
    const words = moveWords(t);
    for (const mv of v.moves || []) ol.appendChild(moveListItem(mv, words, t("by_server")));
    const g = v.game;
    if (g && g.phase === "move" && g.dice) {
      const li = document.createElement("li");
      li.className = "current";
      li.textContent = formatTurn({ number: g.turn_number, side: g.turn, dice: g.dice, steps: g.steps || [] }, words).replace(/—$/, "…");
      ol.appendChild(li);
    }
    ol.scrollTop = ol.scrollHeight;
  }

  renderSpectators(model) {
    const el = this.$("spectators");
    if (el) el.textContent = this.t("watching", { n: model.spectators || 0 });
  }
}
