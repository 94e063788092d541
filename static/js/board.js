// Long Nardy board: geometry helpers and an SVG board view.
//
// Numbering (docs/protocol.md, RULES.md): the wire board is 24 signed integers, index i = White's
// point i + 1, positive = White checkers, negative = Black. Each side numbers the points along its
// own path (24 = its head ... 1, 0 = borne off). White's own point p is index p - 1; Black's own
// point p is index (p + 11) % 24.
//
// Screen layout, always from the viewer's side ("orientation" below): own point 24 top right,
// 24..13 right-to-left along the top, 12..1 left-to-right along the bottom (home 1-6 bottom right).
// The bar is in the middle; the borne-off trays sit to the right (own tray bottom, opponent's top).

export const SVG_NS = "http://www.w3.org/2000/svg";

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

// ---- geometry (SVG user units) ----
export const GEOMETRY = Object.freeze({
  width: 652, height: 488,
  fieldLeft: 12, pointWidth: 44, barWidth: 36,
  fieldTop: 20, pointHeight: 200, middle: 48,
  trayLeft: 588, trayWidth: 52,
  radius: 20, maxStack: 5,
});

const G = GEOMETRY;
const FIELD_BOTTOM = G.fieldTop + 2 * G.pointHeight + G.middle; // 468
const MID_Y = G.fieldTop + G.pointHeight + G.middle / 2; // 244

/** Screen slot of the viewer's own point: row "top"/"bottom", col 0..11 from the left. */
export function pointSlot(viewerPoint) {
  if (viewerPoint >= 13) return { row: "top", col: viewerPoint - 13 };
  return { row: "bottom", col: 12 - viewerPoint };
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

/** Which dice are still to play: [{value, used}] (a double shows four dice). */
export function diceFaces(dice, diceLeft) {
  if (!dice || dice.length < 2) return [];
  const left = [...(diceLeft || [])];
  const all = dice[0] === dice[1] ? [dice[0], dice[0], dice[0], dice[0]] : [dice[0], dice[1]];
  // Used dice first (dimmed) for doubles, so the remaining ones read from the right.
  const faces = all.map((value) => {
    const at = left.indexOf(value);
    if (at >= 0) {
      left.splice(at, 1);
      return { value, used: false };
    }
    return { value, used: true };
  });
  if (dice[0] === dice[1]) faces.sort((a, b) => Number(b.used) - Number(a.used));
  return faces;
}

/** One step as text in the mover's own numbering: "24/19", "3/off". */
export function formatStep(step, offWord = "off") {
  return `${step[0]}/${step[1] === 0 ? offWord : step[1]}`;
}

/** A turn of the move list: "1. W 5-3: 24/19 19/16" ("—" for a pass). */
// One line of a move list: "3. W 6-5: 24/18 18/13", with a ⚙ when the server played the turn.
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

// "Opening roll: White 6, Black 2 (ties: 4-4)"; `t` is the page's translate function.
export function formatOpening(opening, t) {
  if (!opening) return "";
  let text = t("opening", { white: opening.white, black: opening.black });
  if (opening.ties && opening.ties.length) {
    const ties = opening.ties.map((tie) => `${tie[0]}-${tie[1]}`).join(", ");
    text += ` (${t("opening_ties", { ties })})`;
  }
  return text;
}

export function formatTurn(move, { white = "W", black = "B", off = "off" } = {}) {
  const side = move.side === "w" ? white : black;
  const dice = move.dice && move.dice.length ? `${move.dice[0]}-${move.dice[1]}` : "";
  const steps = move.steps && move.steps.length ? move.steps.map((s) => formatStep(s, off)).join(" ") : "—";
  return `${move.number}. ${side} ${dice}: ${steps}`;
}

function el(name, attrs = {}, parent = null) {
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

function drawDie(parent, cx, cy, size, value, used) {
  const g = el("g", { class: `die${used ? " used" : ""}`, "data-die": value }, parent);
  el("rect", { x: cx - size / 2, y: cy - size / 2, width: size, height: size, rx: size * 0.18, class: "die-face" }, g);
  const step = size * 0.26;
  for (const [dx, dy] of PIPS[value] || []) {
    el("circle", { cx: cx + dx * step, cy: cy + dy * step, r: size * 0.09, class: "die-pip" }, g);
  }
  return g;
}

/**
 * Draws a board into `container` and turns pointer input into moves.
 *
 * render(model) with model = {
 *   board: [24 ints], orientation: "w"|"b" (viewer's side),
 *   legal: [{from: index, to: index|"off"}] (moves the viewer may start now; empty = not interactive),
 *   dice, diceLeft, diceNear: bool (dice drawn in the viewer's half),
 *   lastMove: [{from: index, to: index|"off"}] (optional marks),
 *   disabled: bool (a step is in flight: ignore input)
 * }
 * options.onMove(from, to) is called when the viewer picks a source and a destination.
 */
export class BoardView {
  constructor(container, { onMove = () => {}, label = "Board" } = {}) {
    this.container = container;
    this.onMove = onMove;
    this.model = null;
    this.selected = null;
    this.drag = null;
    this.suppressClick = false;
    this.svg = el("svg", {
      viewBox: `0 0 ${G.width} ${G.height}`, class: "board-svg", role: "img", "aria-label": label,
      preserveAspectRatio: "xMidYMid meet",
    });
    container.appendChild(this.svg);
    this.svg.addEventListener("click", (e) => this._onClick(e));
    this.svg.addEventListener("pointerdown", (e) => this._onPointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this._onPointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this._onPointerUp(e));
    this.svg.addEventListener("pointercancel", () => this._endDrag());
  }

  /** Map source key -> list of destination keys. */
  _legalMap() {
    const map = new Map();
    for (const m of (this.model && this.model.legal) || []) {
      if (!map.has(m.from)) map.set(m.from, []);
      const list = map.get(m.from);
      if (!list.includes(m.to)) list.push(m.to);
    }
    return map;
  }

  render(model) {
    this._endDrag(false);
    this.model = model;
    const legal = this._legalMap();
    if (this.selected !== null && !legal.has(this.selected)) this.selected = null;
    this._draw(legal);
  }

  clearSelection() {
    this.selected = null;
    if (this.model) this._draw(this._legalMap());
  }

  _draw(legal) {
    const m = this.model;
    const svg = this.svg;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const orientation = m.orientation || "w";
    const interactive = legal.size > 0 && !m.disabled;
    svg.classList.toggle("interactive", interactive);
    svg.classList.toggle("flipped-view", orientation === "b");
    const dests = this.selected !== null ? legal.get(this.selected) || [] : [];

    el("rect", { x: 0, y: 0, width: G.width, height: G.height, rx: 10, class: "board-frame" }, svg);
    el("rect", { x: G.fieldLeft, y: G.fieldTop, width: 6 * G.pointWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-field" }, svg);
    el("rect", { x: G.fieldLeft + 6 * G.pointWidth + G.barWidth, y: G.fieldTop, width: 6 * G.pointWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-field" }, svg);
    el("rect", { x: G.fieldLeft + 6 * G.pointWidth, y: G.fieldTop, width: G.barWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-bar" }, svg);

    const marks = new Set();
    for (const mv of m.lastMove || []) {
      marks.add(mv.from);
      marks.add(mv.to);
    }

    // Points, with their checkers.
    for (let index = 0; index < 24; index++) {
      const lay = layoutIndex(orientation, index);
      const top = lay.row === "top";
      const g = el("g", { class: "pt", "data-point": lay.point, "data-index": index }, svg);
      if (legal.has(index)) g.classList.add("legal-source");
      if (this.selected === index) g.classList.add("selected");
      if (dests.includes(index)) g.classList.add("legal-destination");
      if (marks.has(index)) g.classList.add("last-move");
      const x0 = lay.x - G.pointWidth / 2;
      const baseY = top ? G.fieldTop : FIELD_BOTTOM;
      const tipY = top ? G.fieldTop + G.pointHeight * 0.92 : FIELD_BOTTOM - G.pointHeight * 0.92;
      el("rect", { x: x0, y: top ? G.fieldTop : FIELD_BOTTOM - G.pointHeight, width: G.pointWidth, height: G.pointHeight, class: "pt-hit" }, g);
      el("polygon", {
        points: `${x0 + 1},${baseY} ${x0 + G.pointWidth - 1},${baseY} ${lay.x},${tipY}`,
        class: `pt-tri ${lay.col % 2 === (top ? 0 : 1) ? "dark" : "light"}`,
      }, g);
      el("text", {
        x: lay.x, y: top ? G.fieldTop - 6 : FIELD_BOTTOM + 15, class: "pt-num", "text-anchor": "middle",
      }, g).textContent = String(lay.point);

      const v = m.board[index];
      const count = Math.abs(v);
      const color = v > 0 ? "w" : "b";
      const shown = Math.min(count, G.maxStack);
      for (let k = 0; k < shown; k++) {
        const c = checkerCenter(lay.point, k);
        el("circle", {
          cx: c.x, cy: c.y, r: G.radius - 1, class: `checker ${color}${k === shown - 1 ? " top" : ""}`,
          "data-point": lay.point, "data-index": index,
        }, g);
        if (k === shown - 1 && count > G.maxStack) {
          el("text", { x: c.x, y: c.y + 6, class: `stack-count ${color}`, "text-anchor": "middle" }, g).textContent = String(count);
        }
        if (k === shown - 1 && legal.has(index)) {
          el("circle", { cx: c.x, cy: c.y, r: G.radius - 2, class: "source-ring" }, g);
        }
      }
      if (dests.includes(index)) {
        const c = checkerCenter(lay.point, Math.min(count, G.maxStack - 1));
        el("circle", { cx: c.x, cy: c.y, r: G.radius * 0.55, class: "dest-marker" }, g);
      }
    }

    // Trays: the opponent's on top, the viewer's at the bottom.
    const trayH = (FIELD_BOTTOM - G.fieldTop - G.middle) / 2;
    for (const which of ["far", "near"]) {
      const side = which === "near" ? orientation : otherSide(orientation);
      const y0 = which === "near" ? FIELD_BOTTOM - trayH : G.fieldTop;
      const attrs = { class: `tray ${which} side-${side}` };
      if (which === "near") {
        attrs["data-point"] = 0;
        attrs["data-index"] = "off";
      }
      const g = el("g", attrs, svg);
      if (which === "near" && dests.includes("off")) g.classList.add("legal-destination");
      if (which === "near" && marks.has("off")) g.classList.add("last-move");
      el("rect", { x: G.trayLeft, y: y0, width: G.trayWidth, height: trayH, rx: 4, class: "tray-bg" }, g);
      const off = borneOff(m.board, side);
      const slab = Math.min(11, (trayH - 28) / 15);
      for (let k = 0; k < off; k++) {
        const y = which === "near" ? FIELD_BOTTOM - 4 - (k + 1) * slab : G.fieldTop + 4 + k * slab;
        el("rect", { x: G.trayLeft + 6, y, width: G.trayWidth - 12, height: slab - 1.5, rx: 2, class: `slab ${side}` }, g);
      }
      el("text", {
        x: G.trayLeft + G.trayWidth / 2, y: which === "near" ? FIELD_BOTTOM - trayH + 16 : G.fieldTop + trayH - 6,
        class: "tray-count", "text-anchor": "middle",
      }, g).textContent = String(off);
      if (which === "near" && dests.includes("off")) {
        el("rect", { x: G.trayLeft + 2, y: y0 + 2, width: G.trayWidth - 4, height: trayH - 4, rx: 4, class: "dest-marker tray-marker" }, g);
      }
    }

    // Dice: in the half of the side to move.
    const faces = diceFaces(m.dice, m.diceLeft);
    if (faces.length) {
      const size = faces.length === 4 ? 28 : 38;
      const gap = 8;
      const total = faces.length * size + (faces.length - 1) * gap;
      const halfCenter = m.diceNear === false
        ? G.fieldLeft + 3 * G.pointWidth
        : G.fieldLeft + 6 * G.pointWidth + G.barWidth + 3 * G.pointWidth;
      const g = el("g", { class: "dice" }, svg);
      faces.forEach((f, i) => {
        drawDie(g, halfCenter - total / 2 + size / 2 + i * (size + gap), MID_Y, size, f.value, f.used);
      });
    }
  }

  _keyOf(target) {
    const g = target && target.closest ? target.closest(".pt, .tray.near") : null;
    if (!g || !this.svg.contains(g)) return undefined;
    const raw = g.getAttribute("data-index");
    return raw === "off" ? "off" : Number(raw);
  }

  _pick(key) {
    if (!this.model || this.model.disabled) return;
    const legal = this._legalMap();
    if (legal.size === 0) return;
    if (this.selected !== null && key !== undefined) {
      const dests = legal.get(this.selected) || [];
      if (dests.includes(key)) {
        const from = this.selected;
        this.selected = null;
        this.onMove(from, key);
        return;
      }
    }
    if (key !== undefined && legal.has(key)) {
      this.selected = this.selected === key ? null : key;
    } else {
      this.selected = null;
    }
    this._draw(legal);
  }

  _onClick(e) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    this._pick(this._keyOf(e.target));
  }

  _svgPoint(e) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return { x: 0, y: 0 };
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return { x: p.x, y: p.y };
  }

  _onPointerDown(e) {
    if (!this.model || this.model.disabled || (e.pointerType === "mouse" && e.button !== 0)) return;
    const key = this._keyOf(e.target);
    if (key === undefined || key === "off" || !this._legalMap().has(key)) return;
    this.drag = { key, x: e.clientX, y: e.clientY, id: e.pointerId, active: false, ghost: null };
  }

  _onPointerMove(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    if (!d.active) {
      if (Math.hypot(e.clientX - d.x, e.clientY - d.y) < 6) return;
      d.active = true;
      try { this.svg.setPointerCapture(e.pointerId); } catch (_) { /* ignore */ }
      this.selected = d.key;
      this._draw(this._legalMap());
      const v = this.model.board[d.key];
      const top = this.svg.querySelector(`.pt[data-index="${d.key}"] .checker.top`);
      if (top) top.classList.add("dragging");
      d.ghost = el("circle", { r: G.radius - 1, class: `checker ghost ${v > 0 ? "w" : "b"}` }, this.svg);
    }
    e.preventDefault();
    const p = this._svgPoint(e);
    d.ghost.setAttribute("cx", p.x);
    d.ghost.setAttribute("cy", p.y);
  }

  _onPointerUp(e) {
    const d = this.drag;
    if (!d || e.pointerId !== d.id) return;
    this.drag = null;
    if (!d.active) return; // a plain click: the click handler does the work
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    if (d.ghost) d.ghost.remove();
    try { this.svg.releasePointerCapture(e.pointerId); } catch (_) { /* ignore */ }
    const under = document.elementFromPoint(e.clientX, e.clientY);
    const key = this._keyOf(under);
    const dests = this._legalMap().get(d.key) || [];
    if (key !== undefined && dests.includes(key)) {
      this.selected = null;
      this.onMove(d.key, key);
    } else {
      this._draw(this._legalMap()); // keep the source selected: a click can finish the move
    }
  }

  _endDrag(redraw = true) {
    const d = this.drag;
    this.drag = null;
    if (d && d.ghost) d.ghost.remove();
    if (d && d.active && redraw && this.model) this._draw(this._legalMap());
  }
}

/** A page's translated strings: the JSON block rendered by the template (`{}` if missing). */
export function readStrings(id) {
  const node = document.getElementById(id);
  if (!node) return {};
  try {
    return JSON.parse(node.textContent);
  } catch (e) {
    return {};
  }
}
