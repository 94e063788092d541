// Steps, turns and opening rolls as text (move lists of the match and replay pages). The words
// come from the page's translated strings; only digits and separators are written here.

/** One step as text in the mover's own numbering: "24/19", "3/off". */
export function formatStep(step, offWord = "off") {
  return `${step[0]}/${step[1] === 0 ? offWord : step[1]}`;
}

/**
 * A turn of the move list: "1. W 5-3: 24/19 19/16" ("—" for a pass); a double taken before the
 * roll comes first: "7. W (doubles to 2, taken) 6-1: …" (`doubled` holds "{n}").
 */
export function formatTurn(move, { white = "W", black = "B", off = "off", doubled = "(×{n})" } = {}) {
  const side = move.side === "w" ? white : black;
  const dice = move.dice && move.dice.length ? `${move.dice[0]}-${move.dice[1]}` : "";
  const steps = move.steps && move.steps.length ? move.steps.map((s) => formatStep(s, off)).join(" ") : "—";
  const cube = move.doubled_to ? `${doubled.replace("{n}", String(move.doubled_to))} ` : "";
  return `${move.number}. ${side} ${cube}${dice}: ${steps}`;
}

/** "Opening roll: White 6, Black 2 (ties: 4-4)"; `t` is the page's translate function. */
export function formatOpening(opening, t) {
  if (!opening) return "";
  let text = t("opening", { white: opening.white, black: opening.black });
  if (opening.ties && opening.ties.length) {
    const ties = opening.ties.map((tie) => `${tie[0]}-${tie[1]}`).join(", ");
    text += ` (${t("opening_ties", { ties })})`;
  }
  return text;
}

/** The words a move list needs, from the page's translate function. */
export function moveWords(t) {
  return { white: t("white_short"), black: t("black_short"), off: t("off"), doubled: t("doubled_taken") };
}

/** One line of a move list: "3. W 6-5: 24/18 18/13", with a ⚙ when the server played the turn. */
export function moveListItem(move, words, byServerTitle) {
  const li = document.createElement("li");
  li.dataset.turn = String(move.number);
  li.textContent = formatTurn(move, words);
  if (move.by_server) {
    const mark = document.createElement("span");
    mark.className = "by-server";
    mark.textContent = " ⚙";
    mark.title = byServerTitle;
    li.appendChild(mark);
  }
  return li;
}
