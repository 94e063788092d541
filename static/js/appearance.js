// The appearance form (templates/accounts/_appearance_form.html): a board drawn with the chosen
// theme and checkers, changed as the choices change, before they are saved. The page's <html>
// carries the choice (data-board-theme, data-checkers: static/css/board.css), so the preview is
// the real board's own style.
import { BoardView } from "./board.js";

// A middle game: tall stacks (their counts drawn), checkers borne off (the trays' counts), a roll.
const SAMPLE = [7, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, -8, -2, 0, 0, 0, -3, 0, 2, 0, 0, 0, 0];

const form = document.getElementById("appearance-form");
const preview = document.getElementById("appearance-preview");
if (form && preview) {
  new BoardView(preview, { label: "" }).render({
    board: SAMPLE, orientation: "w", legal: [], dice: [6, 3], diceLeft: [6, 3], lastMove: [],
  });
  const root = document.documentElement;
  const show = () => {
    const theme = form.elements.namedItem("board_theme");
    const checkers = form.elements.namedItem("checker_colours");
    if (theme) root.dataset.boardTheme = theme.value;
    if (checkers) root.dataset.checkers = checkers.value;
  };
  form.addEventListener("change", show);
  show();
}
