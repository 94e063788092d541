// Long Nardy board: the SVG board view (BoardView) and the player bars around it. The geometry and
// the keyboard cursor live in board_geometry.js, the numbering helpers in points.js, the move
// notation in notation.js; they are re-exported here so a page imports the board from one module.
import {
  FIELD_BOTTOM, GEOMETRY, MID_Y, checkerCenter, columnX, cursorStep, describePoint, layoutIndex,
} from "./board_geometry.js";
import { borneOff, otherSide, ownPointToIndex } from "./points.js";
import { FlightRunner } from "./board_flight.js";
import { drawDice, el } from "./board_svg.js";

export * from "./board_geometry.js";
export * from "./points.js";
export * from "./notation.js";
export { readStrings } from "./strings.js";
export { SVG_NS, fillPlayerBars } from "./board_svg.js";

const G = GEOMETRY;

/**
 * The points a turn's moves left and reached, net of the points a checker only passed through
 * (24/18/13 marks 24 and 13): Map key -> "from" | "to".
 */
export function lastMarks(moves) {
  const net = new Map();
  for (const mv of moves || []) {
    net.set(mv.from, (net.get(mv.from) || 0) - 1);
    net.set(mv.to, (net.get(mv.to) || 0) + 1);
  }
  const marks = new Map();
  for (const [key, n] of net) if (n) marks.set(key, n > 0 ? "to" : "from");
  return marks;
}

/**
 * Draws a board into `container` and turns pointer input into moves.
 *
 * render(model) with model = {
 *   board: [24 ints], orientation: "w"|"b" (viewer's side),
 *   legal: [{from: index, to: index|"off"}] (moves the viewer may start now; empty = not interactive),
 *   dice, diceLeft, diceNear: bool (dice drawn in the viewer's half),
 *   diceLast: bool (the dice are the turn just played, kept until the next roll),
 *   lastMove: [{from: index, to: index|"off"}] (the last turn's steps: its from and to points marked),
 *   lastSide: "w"|"b" (whose steps they are: the tray a checker went off to),
 *   disabled: bool (a step is in flight: ignore input)
 * }
 * options.onMove(from, to) is called when the viewer picks a source and a destination.
 * fly(flights) then moves checkers of the state just rendered along their paths (board_flight.js).
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
    this.flights = new FlightRunner({ redraw: () => this._redrawKeepingFocus() });
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

  /** Move checkers of the state just rendered from where they were: [{side, from, to}]. */
  fly(flights) {
    if (this.model) this.flights.fly(flights, this.model.board, this.model.orientation || "w");
  }

  /** Draw again (a checker took off or landed); the keyboard stays on its point. */
  _redrawKeepingFocus() {
    if (!this.model) return;
    const focused = this.svg.contains(this.svg.ownerDocument.activeElement);
    this._draw(this._legalMap());
    if (focused) this._focusCursor();
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
    svg.dataset.flying = "";
    const board = this.flights.shown(m.board);
    const dests = this.selected !== null ? legal.get(this.selected) || [] : [];

    el("rect", { x: 0, y: 0, width: G.width, height: G.height, rx: 10, class: "board-frame" }, svg);
    el("rect", { x: G.fieldLeft, y: G.fieldTop, width: 6 * G.pointWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-field" }, svg);
    el("rect", { x: G.fieldLeft + 6 * G.pointWidth + G.barWidth, y: G.fieldTop, width: 6 * G.pointWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-field" }, svg);
    el("rect", { x: G.fieldLeft + 6 * G.pointWidth, y: G.fieldTop, width: G.barWidth, height: FIELD_BOTTOM - G.fieldTop, class: "board-bar" }, svg);

    const marks = lastMarks(m.lastMove);

    // Points, with their checkers.
    for (let index = 0; index < 24; index++) {
      const lay = layoutIndex(orientation, index);
      const top = lay.row === "top";
      const here = board[index];
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
      if (marks.has(index)) {
        g.classList.add("last-move");
        g.dataset.last = marks.get(index);
      }
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

      const v = board[index];
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
      if (marks.get(index) === "from") {
        // The place the last turn's checker left: an outline where it stood.
        const c = checkerCenter(lay.point, Math.min(count, G.maxStack - 1));
        el("circle", { cx: c.x, cy: c.y, r: G.radius - 3, class: "last-from-mark" }, g);
      } else if (marks.get(index) === "to" && shown) {
        const c = checkerCenter(lay.point, shown - 1);
        el("circle", { cx: c.x, cy: c.y, r: G.radius + 1, class: "last-to-mark" }, g);
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
          tray: true, count: borneOff(board, side), colour: this.colours[side], destination: dests.includes("off"),
        });
      }
      const g = el("g", attrs, svg);
      if (which === "near" && dests.includes("off")) g.classList.add("legal-destination");
      if (marks.has("off") && side === (m.lastSide || orientation)) g.classList.add("last-move");
      el("rect", { x: G.trayLeft, y: y0, width: G.trayWidth, height: trayH, rx: 4, class: "tray-bg" }, g);
      const off = borneOff(board, side);
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

    // Dice: in the half of the side to move (or of the side that just moved, until the next roll).
    drawDice(svg, { dice: m.dice, diceLeft: m.diceLeft, near: m.diceNear, last: !!m.diceLast });
    this.flights.attach(svg);
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
    this.flights.skip(); // a key lands the checkers in the air: the board is the state now
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

  /** A press without a drag: the point under the pointer is picked now, and the click that may
   * follow it (dispatched right after this pointerup, before any timer) is the same press. */
  _pressPick(e) {
    this.suppressClick = true;
    setTimeout(() => { this.suppressClick = false; }, 0);
    this._pick(this._keyOf(document.elementFromPoint(e.clientX, e.clientY)));
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
    this.flights.skip(); // a touch lands the checkers in the air
    if (!this.model || this.model.disabled || (e.pointerType === "mouse" && e.button !== 0)) return;
    // A press released without a drag picks the point under the pointer at its release, not the
    // click's target: a redraw meanwhile (a landed flight, a new event) replaces the pressed
    // node, and the browser then sends no click at all.
    this.press = e.pointerId;
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
    const pressed = this.press === e.pointerId;
    this.press = null;
    if (!d || e.pointerId !== d.id || !d.active) {
      this.drag = d && e.pointerId === d.id ? null : d;
      if (pressed) this._pressPick(e); // a plain press
      return;
    }
    this.drag = null;
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
