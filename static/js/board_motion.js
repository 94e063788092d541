// A checker's flight along its path (the match and replay pages animate each step): the
// waypoints a step passes on the viewer's screen, a position along them, and the board drawn
// while checkers are in the air. Pure, no DOM (Node tests import it).
import { FIELD_BOTTOM, GEOMETRY, checkerCenter, columnX, pointSlot } from "./board_geometry.js";
import { indexToOwnPoint, sideSign } from "./points.js";

const G = GEOMETRY;

// A step lasts this long plus a little per pip passed, never more than the cap: short enough
// that a bot's turn (a step every 0.6 s) is never behind, long enough to follow with the eye.
export const FLIGHT_MS = Object.freeze({ base: 180, perPip: 30, max: 450 });

/** Milliseconds for a flight over `pips` points. */
export function flightMs(pips) {
  return Math.min(FLIGHT_MS.max, FLIGHT_MS.base + FLIGHT_MS.perPip * Math.max(0, pips));
}

/** The lane a checker travels in over a row: beyond the stacks, over the points' tips. */
function laneY(row) {
  return row === "top" ? G.fieldTop + G.pointHeight * 0.78 : FIELD_BOTTOM - G.pointHeight * 0.78;
}

/** Where a checker lands in (or leaves) a borne-off tray: its middle. */
function trayCentre(orientation, side) {
  const trayH = (FIELD_BOTTOM - G.fieldTop - G.middle) / 2;
  const near = side === orientation;
  return { x: G.trayLeft + G.trayWidth / 2, y: near ? FIELD_BOTTOM - trayH / 2 : G.fieldTop + trayH / 2 };
}

/** The centre of stack slot `k` of board index `index` for a viewer (k capped like the board's). */
function slotCentre(orientation, index, k) {
  const point = indexToOwnPoint(orientation, index);
  return checkerCenter(point, Math.max(0, Math.min(k, G.maxStack - 1)));
}

/**
 * The waypoints of one checker of `side` moving from board index `from` to `to` (an index or
 * "off"), drawn for a viewer on `orientation`: its place on the source stack (`fromCount`
 * checkers there before it left), over every point it passes in the mover's direction, to its
 * place on the destination (`toCount` checkers there after it landed). [{x, y}], at least two.
 */
export function flightPath({ orientation, side, from, to, fromCount, toCount }) {
  const path = [slotCentre(orientation, from, fromCount - 1)];
  const start = indexToOwnPoint(side, from);
  const end = to === "off" ? 0 : indexToOwnPoint(side, to);
  for (let own = start - 1; own > end; own--) {
    // The mover's own point `own` is board index ownPointToIndex(side, own): as the viewer sees it.
    const index = side === "w" ? own - 1 : (own + 11) % 24;
    const slot = pointSlot(indexToOwnPoint(orientation, index));
    path.push({ x: columnX(slot.col), y: laneY(slot.row) });
  }
  path.push(to === "off" ? trayCentre(orientation, side) : slotCentre(orientation, to, toCount - 1));
  return path;
}

/** The point a fraction `t` (0..1) of the way along `path`, by distance travelled. */
export function pointAlong(path, t) {
  if (path.length === 1 || t <= 0) return { ...path[0] };
  if (t >= 1) return { ...path[path.length - 1] };
  const lengths = [];
  let total = 0;
  for (let i = 1; i < path.length; i++) {
    const d = Math.hypot(path[i].x - path[i - 1].x, path[i].y - path[i - 1].y);
    lengths.push(d);
    total += d;
  }
  let left = t * total;
  for (let i = 0; i < lengths.length; i++) {
    if (left <= lengths[i] || i === lengths.length - 1) {
      const f = lengths[i] ? Math.min(1, left / lengths[i]) : 1;
      const a = path[i];
      const b = path[i + 1];
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    }
    left -= lengths[i];
  }
  return { ...path[path.length - 1] };
}

/** Points passed by a step of `side` from board index `from` to `to` (index or "off"). */
export function flightPips(side, from, to) {
  return indexToOwnPoint(side, from) - (to === "off" ? 0 : indexToOwnPoint(side, to));
}

/**
 * The board to draw while `flights` are under way ({side, from, to}; the first in the air, the
 * rest waiting): `board` is the state after all of them. The one in the air has left its source
 * and not landed; the waiting ones are still on their sources. A new array.
 */
export function boardInFlight(board, flights) {
  const shown = [...board];
  flights.forEach((f, i) => {
    const s = sideSign(f.side);
    if (f.to !== "off") shown[f.to] -= s;
    if (i > 0) shown[f.from] += s;
  });
  return shown;
}

/**
 * The flights an event of the match socket brings (docs/protocol.md "event"), as
 * [{side, from, to}] board keys: an opponent's step (or a step the server played), an undone step
 * going back. `ownSteps` are the steps this viewer sent and already drew (not flown again).
 */
export function flightsOfEvent(msg, viewerSide, ownSteps = []) {
  const d = msg.detail || {};
  if ((msg.kind !== "step" && msg.kind !== "undo") || !Array.isArray(d.step) || (d.side !== "w" && d.side !== "b")) return [];
  const [source, destination] = d.step;
  if (msg.kind === "step" && d.side === viewerSide && ownSteps.some((s) => s[0] === source && s[1] === destination && s[2] === d.step[2])) {
    return [];
  }
  const fromIndex = d.side === "w" ? source - 1 : (source + 11) % 24;
  const toKey = destination === 0 ? "off" : d.side === "w" ? destination - 1 : (destination + 11) % 24;
  if (msg.kind === "undo") {
    // Back from the destination to the source; a checker taken back from the tray flies from it.
    return toKey === "off" ? [] : [{ side: d.side, from: toKey, to: fromIndex }];
  }
  return [{ side: d.side, from: fromIndex, to: toKey }];
}
