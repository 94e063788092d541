// An exercise's turn played step by step (templates/learning/exercise.html). Pure: no DOM,
// importable in Node. The page gets every complete legal turn of the position from the server
// (learning/selectors.py `legal_sequences`) and offers, as the match page offers the server's
// `legal_steps` and `combined_moves` (docs/protocol.md), the steps that begin one of them after
// the steps played so far.
import { diceToPlay, ownPointToIndex, sideSign } from "./points.js";

const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2];

/**
 * The state after `played` in a match-page `game` shape (match/combined.js reads it):
 * {phase, turn, legal_steps, combined_moves, complete}.
 */
export function turnSoFar(sequences, side, played) {
  const depth = played.length;
  const matching = sequences.filter((seq) => seq.length >= depth && played.every((step, i) => same(step, seq[i])));
  const steps = new Map();
  const chains = new Map();
  for (const seq of matching) {
    if (seq.length <= depth) continue;
    steps.set(seq[depth].join(","), seq[depth]);
    // One checker moved on by the next dice: each longer chain is one gesture (combined.js).
    const path = [seq[depth]];
    for (let i = depth + 1; i < seq.length && seq[i][0] === path[path.length - 1][1] && path[path.length - 1][1] !== 0; i++) {
      path.push(seq[i]);
      chains.set(JSON.stringify(path), path.map((step) => [...step]));
    }
  }
  return {
    phase: "move",
    turn: side,
    legal_steps: [...steps.values()],
    combined_moves: [...chains.values()],
    complete: matching.some((seq) => seq.length === depth),
  };
}

/** The board after `steps` of `side` from `board` (own numbering; 0 = borne off). */
export function playSteps(board, side, steps) {
  const after = [...board];
  const sign = sideSign(side);
  for (const [source, destination] of steps) {
    after[ownPointToIndex(side, source)] -= sign;
    if (destination !== 0) after[ownPointToIndex(side, destination)] += sign;
  }
  return after;
}

/** The dice still to play after `steps`. */
export function diceLeft(dice, steps) {
  const left = diceToPlay(dice);
  for (const step of steps) {
    const at = left.indexOf(step[2]);
    if (at >= 0) left.splice(at, 1);
  }
  return left;
}
