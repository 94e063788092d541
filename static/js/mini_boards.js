// Small live boards, each a link to watch its match: the tournament page's top games
// (tournament.js) and the home page's live matches (home.js). `show(games)` draws the boards the
// server sent, adding, moving and removing figures so a board that stays is redrawn in place.
import { BoardView } from "./board.js";

export class MiniBoards {
  /** `caption(game)` is the figure's text (or nodes), `label(game)` the board's accessible name. */
  constructor(container, { caption, label }) {
    this.container = container;
    this.caption = caption;
    this.label = label;
    this.boards = new Map(); // match id -> {figure, view, text}
  }

  show(games) {
    const seen = new Set();
    for (const game of games) {
      seen.add(game.match_id);
      let entry = this.boards.get(game.match_id);
      if (!entry) {
        const figure = document.createElement("figure");
        figure.dataset.matchId = String(game.match_id);
        const link = document.createElement("a");
        link.href = `/matches/${game.match_id}/`;
        const box = document.createElement("div");
        box.className = "mini-board";
        const text = document.createElement("figcaption");
        link.append(box, text);
        figure.append(link);
        entry = { figure, text, view: new BoardView(box, { label: this.label(game) }) };
        this.boards.set(game.match_id, entry);
      }
      this.container.append(entry.figure); // in the server's order
      entry.text.replaceChildren(this.caption(game));
      // The server sends the roll, not which dice are left: every face drawn as the roll (the
      // played-die dimming would make a small board's dice all but vanish).
      entry.view.render({ board: game.board, orientation: "w", legal: [], dice: game.dice || null, diceLeft: [], diceLast: true });
    }
    for (const [id, entry] of this.boards) {
      if (!seen.has(id)) {
        entry.figure.remove();
        this.boards.delete(id);
      }
    }
  }
}
