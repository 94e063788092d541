// One gesture for one checker moved by several dice (docs/protocol.md `combined_moves`). Pure: no
// DOM. The server lists each legal chain of steps of one checker (in an order that keeps the
// whole turn legal); the board offers their destinations beside the single steps, and a gesture
// onto a point becomes the ordinary steps to send, one after the other. Where one gesture can end
// in different ways (bearing off with one die or with two), the viewer chooses.
import { keyToOwnPoint, ownPointToIndex, ownPointToKey } from "../points.js";

/**
 * Every way to move from board key `from` to `to` in the state's `game` for its mover:
 * [{steps: [[source, destination, die], ...], dice: [die, ...]}], single steps first. Of the
 * single steps between the same points only the larger die is kept (the smaller stays for another
 * step: the same rule the board always had). Empty when nothing leads there.
 */
export function movesBetween(game, from, to) {
  if (!game || game.phase !== "move") return [];
  const side = game.turn;
  let source;
  let destination;
  try {
    source = keyToOwnPoint(side, from);
    destination = keyToOwnPoint(side, to);
  } catch (_) {
    return [];
  }
  const options = [];
  const singles = (game.legal_steps || []).filter((s) => s[0] === source && s[1] === destination);
  if (singles.length) {
    const best = singles.reduce((a, b) => (b[2] > a[2] ? b : a));
    options.push({ steps: [best], dice: [best[2]] });
  }
  for (const path of game.combined_moves || []) {
    if (!path.length || path[0][0] !== source || path[path.length - 1][1] !== destination) continue;
    options.push({ steps: path.map((s) => [...s]), dice: path.map((s) => s[2]) });
  }
  return options;
}

/** The moves the board offers: single steps and combined ones, as {from, to} board keys. */
export function boardMoves(game) {
  if (!game || game.phase !== "move") return [];
  const side = game.turn;
  const seen = new Set();
  const moves = [];
  const add = (source, destination) => {
    const move = { from: ownPointToIndex(side, source), to: ownPointToKey(side, destination) };
    const key = `${move.from}>${move.to}`;
    if (seen.has(key)) return;
    seen.add(key);
    moves.push(move);
  };
  for (const [source, destination] of game.legal_steps || []) add(source, destination);
  for (const path of game.combined_moves || []) {
    if (path.length) add(path[0][0], path[path.length - 1][1]);
  }
  return moves;
}

/** "6", "4 + 3": the dice an option plays, for the choice the page offers. */
export function optionLabel(option) {
  return option.dice.join(" + ");
}

/** True when `step` is one of the state's legal steps right now. */
export function isLegalStep(game, step) {
  return !!(game && (game.legal_steps || []).some((s) => s[0] === step[0] && s[1] === step[1] && s[2] === step[2]));
}
