// Long Nardy board: the SVG board view (BoardView) and the player bars around it. The geometry and
// the keyboard cursor live in board_geometry.js, the numbering helpers in points.js, the move
// notation in notation.js; they are re-exported here so a page imports the board from one module.
import {
  FIELD_BOTTOM, GEOMETRY, MID_Y, checkerCenter, columnX, cursorStep, describePoint, layoutIndex,
} from "./board_geometry.js";
import { borneOff, diceFaces, otherSide, ownPointToIndex } from "./points.js";

export * from "./board_geometry.js";
export * from "./points.js";
export * from "./notation.js";
export { readStrings } from "./strings.js";

export const SVG_NS = "http://www.w3.org/2000/svg";

const G = GEOMETRY;

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
  constructor(container, { onMove = () => {}, label = "Board", describe = describePoint, colours = { w: "white", b: "black" } } = {}) {
    this.container = container;
    this.onMove = onMove;
    this.describe = describe;
    this.colours = colours;
    this.model = null;
    this.selected = null;
    this.cursor = null; // the keyboard's point (a board key)
    this.drag = null;
    this.suppressClick = false;
    this.svg = el("svg", {
      viewBox: `0 0 ${G.width} ${G.height}`, class: "board-svg", role: "group", "aria-label": label,
      preserveAspectRatio: "xMidYMid meet",
    });
    container.appendChild(this.svg);
    this.svg.addEventListener("keydown", (e) => this._onKey(e));
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
    if (this.drag && this.drag.active) {
      // A checker is being dragged: a new state (a presence update, the clock's owner's event)
      // waits for the drop instead of snatching the checker from under the pointer.
      this.deferred = model;
      return;
    }
    this.deferred = null;
    this._endDrag(false);
    const focused = this.svg.contains(this.svg.ownerDocument.activeElement);
    this.model = model;
    const legal = this._legalMap();
    if (this.selected !== null && !legal.has(this.selected)) this.selected = null;
    this._draw(legal);
    if (focused) this._focusCursor(); // the redrawn board keeps the keyboard where it was
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
      const here = m.board[index];
      const g = el("g", {
        class: "pt", "data-point": lay.point, "data-index": index, role: "button",
        tabindex: this._cursorKey(legal) === index ? 0 : -1,
        "aria-label": this.describe({
          point: lay.point, count: Math.abs(here), colour: this.colours[here > 0 ? "w" : "b"],
          source: legal.has(index), destination: dests.includes(index), selected: this.selected === index,
        }),
      }, svg);
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
        attrs.role = "button";
        attrs.tabindex = this._cursorKey(legal) === "off" ? 0 : -1;
        attrs["aria-label"] = this.describe({
          tray: true, count: borneOff(m.board, side), colour: this.colours[side], destination: dests.includes("off"),
        });
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

  /** The point the keyboard is on: kept while it exists, else the first that can move. */
  _cursorKey(legal) {
    if (this.cursor === null || this.cursor === undefined) {
      const first = legal && legal.size ? legal.keys().next().value : null;
      return first !== null && first !== undefined ? first : ownPointToIndex(this.model.orientation || "w", 24);
    }
    return this.cursor;
  }

  _focusCursor() {
    const key = this._cursorKey(this._legalMap());
    const node = key === "off" ? this.svg.querySelector(".tray.near") : this.svg.querySelector(`.pt[data-index="${key}"]`);
    if (node && typeof node.focus === "function") node.focus();
  }

  /** Keyboard play: arrows move along the board, Enter or Space picks, Escape lets go. */
  _onKey(e) {
    if (!this.model) return;
    const orientation = this.model.orientation || "w";
    if (["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"].includes(e.key)) {
      this.cursor = cursorStep(orientation, this._cursorKey(this._legalMap()), e.key);
      this._draw(this._legalMap());
      this._focusCursor();
      e.preventDefault();
    } else if (e.key === "Enter" || e.key === " ") {
      if (this._legalMap().size === 0) return; // nothing to pick: the page's keys (roll) apply
      this.cursor = this._cursorKey(this._legalMap());
      this._pick(this.cursor);
      this._focusCursor();
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Escape" && this.selected !== null) {
      this.clearSelection();
      this._focusCursor();
      e.preventDefault();
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
      this.onMove(d.key, key); // the page redraws (and drops any deferred state) if it moved
    } else {
      this._draw(this._legalMap()); // keep the source selected: a click can finish the move
    }
    this._renderDeferred();
  }

  _renderDeferred() {
    const deferred = this.deferred;
    this.deferred = null;
    if (deferred) this.render(deferred);
  }

  _endDrag(redraw = true) {
    const d = this.drag;
    this.drag = null;
    if (d && d.ghost) d.ghost.remove();
    if (d && d.active && redraw && this.model) this._draw(this._legalMap());
    if (redraw) this._renderDeferred();
  }
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
