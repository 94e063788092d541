// The board's screen geometry and the keyboard's way around it, for a viewer: pure, no DOM
// (Node tests import it). Layout, always from the viewer's side: own point 24 top right, 24..13
// right-to-left along the top, 12..1 left-to-right along the bottom (home 1-6 bottom right), the
// bar in the middle, the borne-off trays on the right (own tray bottom, opponent's top).
import { indexToOwnPoint, ownPointToIndex } from "./points.js";

// ---- geometry (SVG user units) ----
export const GEOMETRY = Object.freeze({
  width: 652, height: 488,
  fieldLeft: 12, pointWidth: 44, barWidth: 36,
  fieldTop: 20, pointHeight: 200, middle: 48,
  trayLeft: 588, trayWidth: 52,
  radius: 20, maxStack: 5,
});

const G = GEOMETRY;
export const FIELD_BOTTOM = G.fieldTop + 2 * G.pointHeight + G.middle; // 468
export const MID_Y = G.fieldTop + G.pointHeight + G.middle / 2; // 244

/** Screen slot of the viewer's own point: row "top"/"bottom", col 0..11 from the left. */
export function pointSlot(viewerPoint) {
  if (viewerPoint >= 13) return { row: "top", col: viewerPoint - 13 };
  return { row: "bottom", col: 12 - viewerPoint };
}

/** The board key (index, or "off" for the viewer's tray) at a screen slot, for a viewer. */
export function keyAtSlot(orientation, row, col) {
  if (row === "bottom" && col >= 12) return "off";
  const point = row === "top" ? col + 13 : 12 - col;
  return ownPointToIndex(orientation, point);
}

/**
 * Where the keyboard cursor goes from board key `key` on an arrow key (keyboard play):
 * left and right along the row as drawn, up and down to the other row; the viewer's tray is past
 * the bottom row's right end. Pure.
 */
export function cursorStep(orientation, key, arrow) {
  const slot = key === "off" ? { row: "bottom", col: 12 } : pointSlot(indexToOwnPoint(orientation, key));
  let { row, col } = slot;
  if (arrow === "ArrowLeft") col = Math.max(0, col - 1);
  else if (arrow === "ArrowRight") col = Math.min(row === "bottom" ? 12 : 11, col + 1);
  else if (arrow === "ArrowUp") {
    row = "top";
    col = Math.min(col, 11);
  } else if (arrow === "ArrowDown") row = "bottom";
  return keyAtSlot(orientation, row, col);
}

/** The screen reader's words for a point (English; pages pass their translated `describe`). */
export function describePoint({ point, count, colour, source, destination, selected, tray }) {
  const parts = [tray ? `Borne off: ${count}` : `Point ${point}: ${count ? `${count} ${colour}` : "empty"}`];
  if (selected) parts.push("selected");
  if (source) parts.push("can move");
  if (destination) parts.push("move here");
  return parts.join(", ");
}

/** Centre x of screen column `col` (0..11). */
export function columnX(col) {
  return G.fieldLeft + col * G.pointWidth + (col >= 6 ? G.barWidth : 0) + G.pointWidth / 2;
}

/** Centre of the k-th checker (0 = against the edge) of a stack on the viewer's point. */
export function checkerCenter(viewerPoint, k) {
  const { row, col } = pointSlot(viewerPoint);
  const x = columnX(col);
  const y = row === "top" ? G.fieldTop + G.radius + 2 * G.radius * k : FIELD_BOTTOM - G.radius - 2 * G.radius * k;
  return { x, y };
}

/** Layout of one board index for a viewer: viewer's point, row, col and centre x. */
export function layoutIndex(orientation, index) {
  const point = indexToOwnPoint(orientation, index);
  const slot = pointSlot(point);
  return { index, point, ...slot, x: columnX(slot.col) };
}
