// An exercise on the real board (templates/learning/exercise.html; docs/features.md
// "Exercises"): the position before the turn and its dice; the viewer plays a whole turn with
// the match page's gestures (board.js, match/combined.js), confirms, and the server judges it by
// the analysis' stored equities. Then the best turn is shown moving and the difference in numbers.
import { signed } from "./analysis_graph.js";
import { BoardView, readStrings, stepsToMoves } from "./board.js";
import { boardMoves, movesBetween } from "./match/combined.js";
import { diceLeft, playSteps, turnSoFar } from "./exercise_steps.js";
import { translator } from "./strings.js";

const DEFAULT_STRINGS = {
  right: "Right: that is the best move, or as good.", wrong: "Not the best move.",
  explain: "Your move: equity {equity}. Best: {best}. You gave away {loss}; a move within {threshold} of the best counts.",
  estimate: "The analysis did not look closely at your move: its equity is a first estimate.",
  rated: "Exercise rating {before} → {after} · streak {streak}",
  repeated: "You answered this one before: the first answer counts.",
  origin: "From {creator} vs {opponent}, game {game}, turn {turn}",
  sending: "Checking…", failed: "The answer could not be checked.",
};

export class ExerciseApp {
  constructor(root, data, strings) {
    this.root = root;
    this.data = data;
    this.t = translator(DEFAULT_STRINGS, strings);
    this.$ = (id) => root.querySelector(`#${id}`);
    this.played = [];
    this.answered = null;
    this.board = new BoardView(this.$("board"), {
      label: root.dataset.boardLabel || "Board",
      onMove: (from, to) => this.move(from, to),
    });
    this.$("exercise-undo").addEventListener("click", () => this.undo());
    this.$("exercise-submit").addEventListener("click", () => this.submit());
    this.$("exercise-show-best").addEventListener("click", () => this.showBest());
    this.render();
  }

  get state() {
    return turnSoFar(this.data.sequences, this.data.side, this.played);
  }

  move(from, to) {
    if (this.answered) return;
    const options = movesBetween(this.state, from, to);
    if (!options.length) return;
    this.played.push(...options[0].steps);
    this.render();
  }

  undo() {
    if (this.answered || !this.played.length) return;
    this.played.pop();
    this.render();
  }

  render() {
    const { board, side, dice } = this.data;
    const state = this.state;
    this.board.render({
      board: playSteps(board, side, this.played), orientation: side,
      legal: this.answered ? [] : boardMoves(state), dice, diceLeft: diceLeft(dice, this.played),
      diceNear: true, lastMove: stepsToMoves(side, this.played), lastSide: side,
    });
    this.$("exercise-undo").disabled = !!this.answered || !this.played.length;
    this.$("exercise-submit").disabled = !!this.answered || !state.complete;
  }

  async submit() {
    if (this.answered || !this.state.complete) return;
    this.answered = "sending";
    this.render();
    const result = this.$("exercise-result");
    result.hidden = false;
    result.textContent = this.t("sending");
    let answer;
    try {
      const response = await fetch(this.data.answer_url, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRFToken": this.root.dataset.csrf || "" },
        body: JSON.stringify({ steps: this.played }),
        credentials: "same-origin",
      });
      answer = await response.json();
      if (!response.ok) throw new Error(answer.message || answer.error);
    } catch (error) {
      this.answered = null;
      result.textContent = `${this.t("failed")} ${error.message || ""}`.trim();
      this.render();
      return;
    }
    this.show(answer);
  }

  show(answer) {
    this.answered = answer;
    this.root.dataset.state = answer.correct ? "right" : "wrong";
    const result = this.$("exercise-result");
    result.textContent = this.t(answer.correct ? "right" : "wrong");
    result.classList.toggle("right", answer.correct);
    result.classList.toggle("wrong", !answer.correct);
    const explain = this.$("exercise-explain");
    explain.hidden = false;
    explain.textContent = this.t("explain", {
      equity: signed(answer.equity), best: signed(answer.best), loss: answer.loss.toFixed(3), threshold: this.data.threshold.toFixed(3),
    }) + (answer.depth === 1 ? ` ${this.t("estimate")}` : "");
    const rating = this.$("exercise-rating-change");
    if (answer.rating) {
      rating.hidden = false;
      rating.textContent = this.t("rated", answer.rating);
    } else if (answer.repeated) {
      rating.hidden = false;
      rating.textContent = this.t("repeated");
    }
    const revealed = this.$("exercise-revealed");
    if (revealed && !this.$("exercise-origin")) {
      const [creator, opponent] = answer.origin.players;
      revealed.hidden = false;
      revealed.textContent = `${this.t("origin", { creator, opponent, game: answer.origin.game, turn: answer.origin.turn })} · `;
      const link = document.createElement("a");
      link.href = answer.origin.replay;
      link.id = "exercise-replay";
      link.textContent = this.t("replay");
      revealed.append(link);
    }
    this.$("exercise-show-best").hidden = false;
    this.showBest();
  }

  /** The best turn moving from the position (board_flight.js), its points marked after. */
  showBest() {
    if (!this.answered || !this.answered.best_steps) return;
    const { board, side, dice } = this.data;
    const steps = this.answered.best_steps;
    const moves = stepsToMoves(side, steps);
    this.board.render({
      board: playSteps(board, side, steps), orientation: side, legal: [], dice, diceLeft: [],
      diceNear: true, diceLast: true, lastMove: moves, lastSide: side,
    });
    this.board.fly(moves.map((move) => ({ ...move, side })));
    this.root.dataset.shown = "best";
  }
}

export function start(root = document.getElementById("exercise-app")) {
  if (!root) return null;
  const data = JSON.parse(document.getElementById("exercise-data").textContent);
  const app = new ExerciseApp(root, data, readStrings("exercise-strings"));
  window.exerciseApp = app; // for browser tests and the console
  return app;
}

start();
