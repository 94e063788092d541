// The replay page's analysis panel (templates/analysis/_replay_panel.html): asks for the
// analysis, shows its progress (polled), then each turn's mark beside the notation, the best
// move's arrows on the board, a clickable graph of White's winning chances and each side's
// totals. It follows the replay (static/js/replay.js) through its `replay:render` events.
import {
  cubeLine, cubeMarkLabel, cursorX, graphLayout, H, indexCubeDecisions, indexTurns, keyCentre, markLabel, signed, W,
} from "./analysis_graph.js";
import { stepsToMoves } from "./points.js";
import { readStrings, translator } from "./strings.js";

const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 1000;
const DEFAULT_STRINGS = {
  none: "This match has not been analysed.", queued: "Waiting for the analysis to start…",
  position: "Place in the queue: {position}",
  running: "Analysing…", failed: "The analysis failed.", done: "Analysed at 2-ply.",
  doubtful: "doubtful", mistake: "mistake", blunder: "blunder",
  turn_loss: "Equity played {played}, best {best}, lost {loss}", forced: "Forced: no choice",
  by_server: "Played by the server when time ran out (not counted): equity played {played}, best {best}",
  graph_label: "Game {game}, turn {turn}: White",
  cube_line: "Cube at {cube}: {played}, best {best}, lost {loss}",
  double: "double", no_double: "no double", take: "take", drop: "drop",
};

function svgEl(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

class AnalysisPanel {
  constructor(root, replayRoot) {
    this.root = root;
    this.replayRoot = replayRoot;
    this.t = translator(DEFAULT_STRINGS, readStrings("analysis-strings"));
    this.$ = (id) => root.querySelector(`#${id}`);
    this.result = null;
    this.turns = new Map();
    this.cube = new Map();
    this.showBest = false;
    this.view = null; // {gi, k, orientation} of the replay
    const form = this.$("analysis-form");
    if (form) form.addEventListener("submit", (event) => { event.preventDefault(); this.ask(form); });
    this.$("analysis-best").addEventListener("click", () => {
      this.showBest = !this.showBest;
      this.drawTurn();
    });
    replayRoot.addEventListener("replay:render", (event) => {
      this.view = event.detail;
      this.drawTurn();
    });
    this.load();
  }

  app() {
    return window.replayApp || null;
  }

  async load() {
    const response = await fetch(this.root.dataset.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (response.ok) this.show(await response.json());
  }

  async ask(form) {
    const response = await fetch(form.action, {
      method: "POST", credentials: "same-origin", body: new URLSearchParams(new FormData(form)), headers: { Accept: "application/json" },
    });
    const state = await response.json();
    if (!response.ok) {
      this.$("analysis-status").textContent = state.message || this.t("failed");
      return;
    }
    this.show(state);
  }

  show(state) {
    this.root.dataset.status = state.status;
    const status = this.$("analysis-status");
    const progress = this.$("analysis-progress");
    const form = this.$("analysis-form");
    const askable = state.status === "none" || state.status === "failed";
    if (form) form.hidden = !askable;
    const guestNote = this.$("analysis-guest");
    if (guestNote) guestNote.hidden = !askable;
    progress.hidden = !(state.status === "queued" || state.status === "running");
    progress.value = state.percent;
    this.root.dataset.percent = String(state.percent);
    status.textContent = state.status === "running" ? `${this.t("running")} ${state.percent} %` : this.t(state.status);
    // While it waits, its place in the queue (1: the next the worker takes), polled with the rest.
    if (state.status === "queued" && state.position) status.textContent += ` ${this.t("position", { position: state.position })}`;
    if (state.status === "queued" || state.status === "running") {
      setTimeout(() => this.load(), POLL_MS);
      return;
    }
    if (state.status === "done") this.showResult(state.result);
  }

  showResult(result) {
    this.result = result;
    this.turns = indexTurns(result);
    this.cube = indexCubeDecisions(result);
    this.$("analysis-result").hidden = false;
    this.$("analysis-cube").hidden = result.cube !== "checker_play_only";
    this.$("analysis-cube-row").hidden = result.cube !== "analysed";
    this.$("analysis-cube-note").hidden = result.cube !== "analysed";
    const app = this.app();
    const players = app ? app.data.match.players || [] : [];
    for (const total of result.totals) {
      const player = players.find((p) => p.seat === total.seat);
      this.$(`analysis-name-${total.seat}`).textContent = player ? player.username : "";
      this.$(`analysis-pr-${total.seat}`).textContent = total.pr === null ? "–" : total.pr.toFixed(1);
      this.$(`analysis-blunders-${total.seat}`).textContent = String(total.blunders);
      this.$(`analysis-mistakes-${total.seat}`).textContent = String(total.mistakes);
      this.$(`analysis-doubtful-${total.seat}`).textContent = String(total.doubtful);
      this.$(`analysis-lost-${total.seat}`).textContent = total.equity_lost.toFixed(3);
      this.$(`analysis-cubes-${total.seat}`).textContent = String(total.cube_decisions ?? 0);
    }
    this.drawGraph();
    // Ready once the replay is too: the names, the jumps and the arrows need it.
    if (app) this.root.dataset.ready = "1";
    this.drawTurn();
  }

  /** White's winning chances before each roll, every game in turn; a click jumps to the turn. */
  drawGraph() {
    const holder = this.$("analysis-graph");
    holder.innerHTML = "";
    const turns = this.result.turns;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "analysis-chart", role: "group" }, holder);
    svgEl("rect", { x: 0, y: 0, width: W, height: H, class: "chart-frame" }, svg);
    svgEl("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "chart-half" }, svg);
    if (!turns.length) return;
    const layout = graphLayout(turns);
    svgEl("polyline", { points: layout.points, class: "chart-line", fill: "none" }, svg);
    turns.forEach((turn, i) => {
      const bar = svgEl("rect", {
        x: layout.bars[i].x, y: 0, width: layout.bars[i].width, height: H, class: layout.bars[i].className,
        "data-game": turn.game, "data-turn": turn.number, tabindex: 0,
      }, svg);
      const title = svgEl("title", {}, bar);
      title.textContent = `${this.t("graph_label", { game: turn.game, turn: turn.number })} ${Math.round(100 * turn.white_wins)} %`;
      const jump = () => this.jump(turn);
      bar.addEventListener("click", jump);
      bar.addEventListener("keydown", (event) => { if (event.key === "Enter") jump(); });
    });
    for (const dot of layout.dots) svgEl("circle", { cx: dot.cx, cy: dot.cy, r: 3, class: `chart-dot mark-${dot.mark}` }, svg);
    this.cursor = svgEl("line", { x1: 0, y1: 0, x2: 0, y2: H, class: "chart-cursor", visibility: "hidden" }, svg);
    this.step = layout.step;
  }

  jump(turn) {
    const app = this.app();
    if (!app) return;
    const gi = app.data.games.findIndex((g) => g.number === turn.game);
    const k = app.data.games[gi].turns.findIndex((t) => t.number === turn.number);
    app.go(gi, k + 1); // after the turn: its mark and best move show
  }

  /** The current turn's mark in the move list, its figures, the cursor and the best move. */
  drawTurn() {
    const app = this.app();
    if (!this.result || !app || !this.view) return;
    const game = app.data.games[this.view.gi];
    for (const li of this.replayRoot.querySelectorAll("#moves li[data-k]")) {
      const k = Number(li.dataset.k);
      const key = k > 0 ? `${game.number}:${game.turns[k - 1].number}` : null;
      const cube = key ? cubeMarkLabel(this.cube.get(key), this.t) : null;
      if (cube && !li.querySelector(".analysis-cube-mark")) {
        const mark = document.createElement("span");
        mark.className = `analysis-mark analysis-cube-mark mark-${cube.mark}`;
        mark.textContent = ` ${cube.symbol}`;
        mark.title = cube.title;
        li.dataset.cubeMark = cube.mark;
        li.appendChild(mark);
      }
      const turn = key ? this.turns.get(key) : null;
      const label = markLabel(turn, this.t);
      if (!label || li.querySelector(".analysis-mark:not(.analysis-cube-mark)")) continue;
      const mark = document.createElement("span");
      mark.className = `analysis-mark mark-${turn.mark}`;
      mark.textContent = ` ${label.symbol}`;
      mark.title = label.title;
      li.dataset.mark = turn.mark;
      li.appendChild(mark);
    }
    const shown = this.view.k > 0 ? game.turns[this.view.k - 1] : null;
    const turn = shown ? this.turns.get(`${game.number}:${shown.number}`) : null;
    const line = this.$("analysis-turn");
    const best = this.$("analysis-best");
    if (!turn || turn.played === null) line.textContent = "";
    else if (turn.forced) line.textContent = this.t("forced");
    else if (turn.by_server) line.textContent = this.t("by_server", { played: signed(turn.played), best: signed(turn.best) });
    else {
      line.textContent = this.t("turn_loss", { played: signed(turn.played), best: signed(turn.best), loss: turn.loss.toFixed(3) });
      if (turn.mark) line.textContent += ` · ${this.t(turn.mark)}`;
    }
    const cubeList = this.$("analysis-cube-decisions");
    cubeList.replaceChildren();
    for (const decision of (shown && this.cube.get(`${game.number}:${shown.number}`)) || []) {
      const item = document.createElement("li");
      item.className = decision.mark ? `mark-${decision.mark}` : "";
      item.dataset.kind = decision.kind;
      item.textContent = cubeLine(decision, this.t);
      cubeList.appendChild(item);
    }
    best.disabled = !(turn && turn.best_steps);
    best.setAttribute("aria-pressed", String(this.showBest && !best.disabled));
    const index = turn ? this.result.turns.indexOf(turn) : -1;
    if (this.cursor) {
      const at = cursorX(index, this.step);
      this.cursor.setAttribute("visibility", at === null ? "hidden" : "visible");
      this.cursor.setAttribute("x1", at ?? "0");
      this.cursor.setAttribute("x2", at ?? "0");
    }
    if (this.showBest && turn && turn.best_steps) this.drawBest(app, game, shown, turn);
  }

  /** The position before the turn with the best turn's steps as arrows. */
  drawBest(app, game, shown, turn) {
    const k = this.view.k;
    const before = k > 1 ? game.turns[k - 2].board_after : game.start_board;
    const moves = stepsToMoves(turn.side, turn.best_steps);
    const orientation = this.view.orientation;
    app.boardView.render({ board: before, orientation, legal: [], dice: shown.dice, diceLeft: [], diceNear: shown.side === orientation, lastMove: moves });
    const svg = app.boardView.svg;
    const layer = svgEl("g", { class: "best-arrows", "data-steps": moves.length }, svg);
    const defs = svgEl("defs", {}, layer);
    const marker = svgEl("marker", { id: "best-arrow-head", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, defs);
    svgEl("path", { d: "M0,0 L10,5 L0,10 z", class: "best-arrow-head" }, marker);
    for (const move of moves) {
      const from = keyCentre(orientation, move.from, turn.side);
      const to = keyCentre(orientation, move.to, turn.side);
      svgEl("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y, class: "best-arrow", "marker-end": "url(#best-arrow-head)" }, layer);
    }
  }
}

export function start() {
  const root = document.getElementById("analysis");
  const replayRoot = document.getElementById("replay-app");
  if (!root || !replayRoot) return null;
  const panel = new AnalysisPanel(root, replayRoot);
  const app = window.replayApp;
  // The replay is drawn from the viewer's side (replay.js `orientation`), turned by Flip.
  const sideOf = (replay) => (replay.game() ? replay.orientation(replay.game()) : "w");
  if (app) panel.view = { gi: app.gi, k: app.k, orientation: sideOf(app) };
  replayRoot.addEventListener("replay:ready", () => {
    const ready = window.replayApp;
    panel.view = { gi: ready.gi, k: ready.k, orientation: sideOf(ready) };
    if (panel.result) panel.showResult(panel.result);
  });
  return panel;
}

start();
