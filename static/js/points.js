// Board numbering and counts shared by the match and replay pages. Pure: no DOM, importable in Node.
//
// Numbering (docs/protocol.md; docs/rules.md, "Board, numbering and notation"): the wire board is
// 24 signed integers, index i = White's point i + 1, positive = White checkers, negative = Black.
// Each side numbers the points along its own path (24 = its head ... 1, 0 = borne off). White's own
// point p is index p - 1; Black's own point p is index (p + 11) % 24.

export function otherSide(side) {
  return side === "w" ? "b" : "w";
}

/** Board index (0..23) of `side`'s own point `point` (1..24). */
export function ownPointToIndex(side, point) {
  if (point < 1 || point > 24) throw new RangeError(`no point ${point}`);
  return side === "w" ? point - 1 : (point + 11) % 24;
}

/** `side`'s own point number (1..24) of board index `index` (0..23). */
export function indexToOwnPoint(side, index) {
  if (index < 0 || index > 23) throw new RangeError(`no index ${index}`);
  return side === "w" ? index + 1 : ((index + 12) % 24) + 1;
}

/** A step's destination in own numbering (0 = borne off) as a board key: an index or "off". */
export function ownPointToKey(side, point) {
  return point === 0 ? "off" : ownPointToIndex(side, point);
}

/** The inverse of ownPointToKey. */
export function keyToOwnPoint(side, key) {
  return key === "off" ? 0 : indexToOwnPoint(side, key);
}

/** Steps `[source, destination, die]` of `side` as board moves `{from, to}` (to: index or "off"). */
export function stepsToMoves(side, steps) {
  return (steps || []).map(([source, destination]) => ({
    from: ownPointToIndex(side, source),
    to: ownPointToKey(side, destination),
  }));
}

/** Sign of `side`'s checkers on the wire board. */
export function sideSign(side) {
  return side === "w" ? 1 : -1;
}

/** Checkers of `side` still on the board. */
export function checkersOnBoard(board, side) {
  const s = sideSign(side);
  let n = 0;
  for (const v of board) if (v * s > 0) n += Math.abs(v);
  return n;
}

/** Checkers of `side` borne off (15 minus those on the board). */
export function borneOff(board, side) {
  return 15 - checkersOnBoard(board, side);
}

/** Pip count of `side`: the sum over its checkers of their own point numbers. */
export function pipCount(board, side) {
  const s = sideSign(side);
  let pips = 0;
  board.forEach((v, i) => {
    if (v * s > 0) pips += Math.abs(v) * indexToOwnPoint(side, i);
  });
  return pips;
}

/** The dice a roll gives to play: a double is played four times (docs/rules.md, A turn, item 1). */
export function diceToPlay(dice) {
  if (!dice || dice.length < 2) return [];
  return dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
}

/** Which dice are still to play: [{value, used}] (a double shows four dice). */
export function diceFaces(dice, diceLeft) {
  const all = diceToPlay(dice);
  const left = [...(diceLeft || [])];
  const faces = all.map((value) => {
    const at = left.indexOf(value);
    if (at >= 0) {
      left.splice(at, 1);
      return { value, used: false };
    }
    return { value, used: true };
  });
  // Used dice first (dimmed) for doubles, so the remaining ones read from the right.
  if (all.length === 4) faces.sort((a, b) => Number(b.used) - Number(a.used));
  return faces;
}

/**
 * The points a seat shows when the match is over: the winner of a match ended otherwise than by
 * play (resigned, left, timeouts, time, abandoned, banned) got the match (docs/rules.md:
 * "Resigning loses the whole match"), so the winner shows at least the match's length.
 */
export function finalPoints(score, seat, winnerSeat, length) {
  return seat === winnerSeat && typeof length === "number" ? Math.max(score, length) : score;
}
