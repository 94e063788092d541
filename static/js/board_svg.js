// SVG pieces of the board shared by the board view: the element helper, the dice, and the two
// player bars around the board (HTML). Touches the DOM only.
import { GEOMETRY, MID_Y } from "./board_geometry.js";
import { diceFaces, otherSide } from "./points.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

const G = GEOMETRY;

export function el(name, attrs = {}, parent = null) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

const PIPS = {
  1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
  4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
  6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
};

export function drawDie(parent, cx, cy, size, value, used) {
  const g = el("g", { class: `die${used ? " used" : ""}`, "data-die": value }, parent);
  el("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.18, class: "die-face" }, g);
  const step = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    el("circle", { cx: cx + dx * step, cy: cy + dy * step, r: size * 0.09, class: "die-pip" }, g);
  }
  return g;
}

/**
 * The dice in the half of the side they belong to (`near`: the viewer's half). `last`: the dice of
 * the turn just played, kept on the board until the next roll, drawn as such.
 */
export function drawDice(svg, { dice, diceLeft, near, last }) {
  const faces = last ? diceFaces(dice, []).map((f) => ({ ...f, used: false })) : diceFaces(dice, diceLeft);
  if (!faces.length) return;
  const size = faces.length === 4 ? 28 : 38;
  const gap = 8;
  const total = faces.length * size + (faces.length - 1) * gap;
  const halfCenter = near === false
    ? G.fieldLeft + 3 * G.pointWidth
    : G.fieldLeft + 6 * G.pointWidth + G.barWidth + 3 * G.pointWidth;
  const g = el("g", { class: last ? "dice last-turn" : "dice" }, svg);
  faces.forEach((f, i) => {
    drawDie(g, halfCenter - total / 2 + size / 2 + i * (size + gap), MID_Y, size, f.value, f.used);
  });
}

/**
 * The two player bars around the board (#player-bottom: the viewer's side, #player-top), emptied
 * and refilled: fill(side, add, box) with add(cssClass, text) appending a <span>.
 */
export function fillPlayerBars(root, orientation, fill) {
  for (const [id, side] of [["player-bottom", orientation], ["player-top", otherSide(orientation)]]) {
    const box = root.querySelector(`#${id}`);
    if (!box) continue;
    box.innerHTML = "";
    box.dataset.side = side;
    const add = (cls, text) => {
      const span = document.createElement("span");
      span.className = cls;
      if (text !== undefined) span.textContent = text;
      box.appendChild(span);
      return span;
    };
    fill(side, add, box);
  }
}
