// The replay page of a finished match: steps through the turns of each game (board.js draws).
import { BoardView, fillPlayerBars } from "./board.js";
import { FairnessPanel } from "./fairness.js";
import { formatOpening, moveListItem, moveWords } from "./notation.js";
import { borneOff, diceToPlay, pipCount, stepsToMoves } from "./points.js";
import { readStrings, translator } from "./strings.js";

const DEFAULT_STRINGS = {
  white: "White", black: "Black", white_short: "W", black_short: "B", off: "off", pips: "pips",
  game_n: "Game {n}", start: "Start position", turn_n: "Turn {n}", dice: "Dice: {dice}",
  opening: "Opening roll: White {white}, Black {black}", opening_ties: "ties: {ties}",
  game_result: "{name} won game {n}: {result}, {points}", oin: "oin", mars: "mars",
  point_one: "1 point", points_many: "{n} points", by_server: "played by the server",
  won_match: "{name} won the match", won_match_reason: "{name} won the match ({reason})",
  reason_finished: "", reason_resigned: "resigned", reason_left: "left the table",
  reason_timeouts: "timeouts", reason_aborted: "aborted", reason_banned: "banned by a moderator",
  match_to: "Match to {n}",
  load_failed: "Could not load the replay", no_games: "No games were played", passed: "no legal move",
  cube: "at the cube's value", drop_result: "double declined", doubled_taken: "(doubles to {n}, taken)",
};

export class ReplayApp {
  constructor(root, data, { strings = {} } = {}) {
    this.root = root;
    this.data = data;
    this.t = translator(DEFAULT_STRINGS, strings);
    this.gi = 0;
    this.k = 0;
    this.flipped = false;
    this.viewer = root.dataset.viewer || ""; // drawn from this player's side (Rules page)
    this.$ = (id) => root.querySelector(`#${id}`);
    this.boardView = new BoardView(this.$("board"), { label: root.dataset.boardLabel || "Board" });
    this.bind();
    this.fillGames();
    this.render();
  }

  game() {
    return this.data.games[this.gi] || null;
  }

  go(gi, k) {
    const games = this.data.games;
    if (!games.length) return;
    const next = Math.max(0, Math.min(games.length - 1, gi));
    const n = games[next].turns.length;
    const target = Math.max(0, Math.min(n, k));
    // One turn forward: its checkers fly along their paths, as on the match page.
    const forward = next === this.gi && target === this.k + 1;
    this.gi = next;
    this.k = target;
    this.render();
    // Not while the analysis shows the best turn on the board instead (analysis.js).
    if (forward && this.boardView.model && this.boardView.model.board === this.drawnBoard) {
      const turn = games[next].turns[target - 1];
      this.boardView.fly(stepsToMoves(turn.side, turn.steps).map((m) => ({ ...m, side: turn.side })));
    }
  }

  forward() {
    const g = this.game();
    if (!g) return;
    if (this.k < g.turns.length) this.go(this.gi, this.k + 1);
    else if (this.gi < this.data.games.length - 1) this.go(this.gi + 1, 0);
  }

  back() {
    if (this.k > 0) this.go(this.gi, this.k - 1);
    else if (this.gi > 0) this.go(this.gi - 1, this.data.games[this.gi - 1].turns.length);
  }

  bind() {
    const on = (id, fn) => {
      const b = this.$(id);
      if (b) b.addEventListener("click", fn);
    };
    on("replay-first", () => this.go(this.gi, 0));
    on("replay-back", () => this.back());
    on("replay-forward", () => this.forward());
    on("replay-last", () => this.go(this.gi, Infinity));
    on("flip-button", () => {
      this.flipped = !this.flipped;
      this.render();
    });
    const sel = this.$("replay-game");
    if (sel) sel.addEventListener("change", () => this.go(Number(sel.value), 0));
    const list = this.$("moves");
    if (list) {
      list.addEventListener("click", (e) => {
        const li = e.target.closest("li[data-k]");
        if (li) this.go(this.gi, Number(li.dataset.k));
      });
    }
    document.addEventListener("keydown", (e) => {
      const tag = (e.target && e.target.tagName) || "";
      if (["INPUT", "TEXTAREA", "SELECT"].includes(tag)) return;
      const keys = {
        ArrowLeft: () => this.back(), ArrowRight: () => this.forward(),
        Home: () => this.go(this.gi, 0), End: () => this.go(this.gi, Infinity),
        ArrowUp: () => this.go(this.gi, 0), ArrowDown: () => this.go(this.gi, Infinity),
      };
      if (keys[e.key]) {
        e.preventDefault();
        keys[e.key]();
      }
    });
  }

  fillGames() {
    const sel = this.$("replay-game");
    if (!sel) return;
    sel.innerHTML = "";
    this.data.games.forEach((g, i) => {
      const o = document.createElement("option");
      o.value = String(i);
      o.textContent = `${this.t("game_n", { n: g.number })}: ${g.white} – ${g.black}`;
      sel.appendChild(o);
    });
  }

  /** The viewer's side in game `g` (the starter plays White), else White; turned by Flip. */
  orientation(g) {
    const own = this.viewer && g.black === this.viewer ? "b" : "w";
    return this.flipped ? (own === "w" ? "b" : "w") : own;
  }

  openingText(o) {
    return formatOpening(o, this.t);
  }

  render() {
    const root = this.root;
    const m = this.data.match;
    const info = this.$("match-info");
    if (info) {
      const winner = (m.players || []).find((p) => p.seat === m.winner_seat);
      const parts = [this.t("match_to", { n: m.length })];
      if (m.score) parts.push(`${(m.players || []).map((p) => `${p.username} ${m.score[p.seat]}`).join(" – ")}`);
      if (winner) {
        const reason = m.end_reason ? this.t(`reason_${m.end_reason}`) : "";
        parts.push(reason ? this.t("won_match_reason", { name: winner.username, reason }) : this.t("won_match", { name: winner.username }));
      }
      info.textContent = parts.join(" · ");
    }
    const g = this.game();
    if (!g) {
      const status = this.$("status");
      if (status) status.textContent = this.t("no_games");
      return;
    }
    root.dataset.game = String(g.number);
    root.dataset.turn = String(this.k);
    const sel = this.$("replay-game");
    if (sel) sel.value = String(this.gi);
    const orientation = this.orientation(g);
    const turn = this.k > 0 ? g.turns[this.k - 1] : null;
    const board = turn ? turn.board_after : g.start_board;
    const lastMove = turn ? stepsToMoves(turn.side, turn.steps) : [];
    this.drawnBoard = board;
    this.boardView.render({
      board, orientation, legal: [],
      dice: turn ? turn.dice : null,
      diceLeft: turn ? diceToPlay(turn.dice) : [],
      diceNear: turn ? turn.side === orientation : true,
      lastMove,
      lastSide: turn ? turn.side : null,
    });
    // Players.
    fillPlayerBars(root, orientation, (side, mk, box) => {
      box.classList.toggle("to-move", !!(turn && turn.side === side));
      mk(`swatch ${side}`).title = this.t(side === "w" ? "white" : "black");
      mk("player-name", side === "w" ? g.white : g.black);
      mk("spacer");
      mk("pips", `${this.t("pips")} ${pipCount(board, side)}`);
      mk("muted", `${this.t("off")} ${borneOff(board, side)}`);
    });
    // Dice / position line.
    const where = this.$("replay-position");
    if (where) {
      if (!turn) where.textContent = `${this.t("start")} · ${this.openingText(g.opening)}`;
      else {
        const dice = turn.dice && turn.dice.length ? `${turn.dice[0]}-${turn.dice[1]}` : "";
        where.textContent = `${this.t("turn_n", { n: turn.number })} · ${turn.player} · ${this.t("dice", { dice })}${turn.steps.length ? "" : ` · ${this.t("passed")}`}`;
      }
    }
    const result = this.$("replay-result");
    if (result) {
      const atEnd = this.k === g.turns.length && g.winner;
      if (atEnd) {
        const points = g.points === 1 ? this.t("point_one") : this.t("points_many", { n: g.points });
        result.textContent = this.t("game_result", {
          name: g.winner === "w" ? g.white : g.black, n: g.number, result: this.t(g.result === "drop" ? "drop_result" : g.result), points,
        });
      }
      result.hidden = !atEnd;
    }
    // Move list.
    const ol = this.$("moves");
    if (ol) {
      ol.innerHTML = "";
      const words = moveWords(this.t);
      const start = document.createElement("li");
      start.dataset.k = "0";
      start.textContent = this.t("start");
      ol.appendChild(start);
      g.turns.forEach((tu, i) => {
        const li = moveListItem(tu, words, this.t("by_server"));
        li.dataset.k = String(i + 1);
        ol.appendChild(li);
      });
      const active = ol.querySelector(`li[data-k="${this.k}"]`);
      if (active) {
        active.classList.add("active");
        active.setAttribute("aria-current", "step");
        const top = active.offsetTop - ol.offsetTop;
        if (top < ol.scrollTop || top > ol.scrollTop + ol.clientHeight - active.offsetHeight) {
          ol.scrollTop = Math.max(0, top - ol.clientHeight / 2);
        }
      }
    }
    const n = g.turns.length;
    const dis = (id, v) => { const b = this.$(id); if (b) b.disabled = v; };
    dis("replay-first", this.k === 0);
    dis("replay-back", this.k === 0 && this.gi === 0);
    dis("replay-forward", this.k === n && this.gi === this.data.games.length - 1);
    dis("replay-last", this.k === n);
    const flip = this.$("flip-button");
    if (flip) flip.setAttribute("aria-pressed", String(this.flipped));
    // Other parts of the page (the analysis panel, static/js/analysis.js) follow the turn shown.
    root.dispatchEvent(new CustomEvent("replay:render", { detail: { gi: this.gi, k: this.k, orientation } }));
  }
}

export async function start(root = document.getElementById("replay-app")) {
  if (!root) return null;
  const strings = readStrings("replay-strings");
  try {
    const resp = await fetch(root.dataset.jsonUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!resp.ok) throw new Error(String(resp.status));
    const data = await resp.json();
    const app = new ReplayApp(root, data, { strings });
    const fairRoot = document.getElementById("fairness");
    if (fairRoot) {
      app.fairness = new FairnessPanel(fairRoot, { t: translator({}, readStrings("fairness-strings")) });
      app.fairness.setExport(data); // verified from the record already loaded: no further request
    }
    window.replayApp = app;
    root.dataset.ready = "1";
    root.dispatchEvent(new CustomEvent("replay:ready", { detail: { app } }));
    return app;
  } catch (e) {
    const status = root.querySelector("#status");
    if (status) status.textContent = strings.load_failed || DEFAULT_STRINGS.load_failed;
    root.dataset.ready = "error";
    return null;
  }
}

if (document.getElementById("replay-app")) start();
