// The checkers in the air: a queue of flights (board_motion.js computes their paths) played one
// after the other with requestAnimationFrame, a step at a time, on the board's SVG. Short and
// skippable (a click or a key on the board lands them all at once); none at all when the viewer
// asks for reduced motion (prefers-reduced-motion), when the board is simply redrawn.
import { GEOMETRY } from "./board_geometry.js";
import { boardInFlight, flightMs, flightPath, flightPips, pointAlong } from "./board_motion.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const MAX_WAITING = 8; // more steps than a turn has behind: the page fell behind, land them

export function reducedMotion(win = globalThis.window) {
  try {
    return !!(win && win.matchMedia && win.matchMedia("(prefers-reduced-motion: reduce)").matches);
  } catch (_) {
    return false;
  }
}

export class FlightRunner {
  /** redraw(): draw the board again (it asks `board()` what to show and `attach(svg)`). */
  constructor({ redraw, win = globalThis.window }) {
    this.redraw = redraw;
    this.win = win;
    this.queue = []; // [{side, from, to, path, start, ms}], the first in the air
    this.frame = null;
    this.node = null;
    this.board = null;
    this.orientation = "w";
  }

  get active() {
    return this.queue.length > 0;
  }

  /** What the board shows now: `board` (the state after every flight) with them under way. */
  shown(board) {
    return this.active ? boardInFlight(board, this.queue) : board;
  }

  /** Fly `flights` ({side, from, to}) to the state `board` already drawn, after any under way. */
  fly(flights, board, orientation) {
    this.board = board;
    this.orientation = orientation;
    if (!flights.length || reducedMotion(this.win) || !this.win || !this.win.requestAnimationFrame) return;
    if (this.queue.length + flights.length > MAX_WAITING) this.queue = [];
    const idle = !this.active;
    this.queue.push(...flights.map((f) => ({ ...f, path: null, start: null })));
    if (idle) this._begin();
  }

  /** Land every checker in the air now (a click, a key, a state that does not follow). */
  skip() {
    if (!this.active) return;
    this.queue = [];
    this._stop();
    this.redraw();
  }

  _begin() {
    const f = this.queue[0];
    const shown = boardInFlight(this.board, this.queue);
    f.path = flightPath({
      orientation: this.orientation, side: f.side, from: f.from, to: f.to,
      fromCount: Math.abs(shown[f.from]) + 1,
      toCount: f.to === "off" ? 1 : Math.abs(shown[f.to]) + 1,
    });
    f.ms = flightMs(Math.abs(flightPips(f.side, f.from, f.to)));
    f.start = null;
    this.redraw();
    if (this.frame === null) this.frame = this.win.requestAnimationFrame((now) => this._tick(now));
  }

  _tick(now) {
    this.frame = null;
    const f = this.queue[0];
    if (!f) return;
    if (f.start === null) f.start = now;
    const t = (now - f.start) / f.ms;
    if (t >= 1) {
      this.queue.shift();
      if (this.active) this._begin();
      else {
        this._stop();
        this.redraw();
      }
      return;
    }
    this._place(f, t);
    this.frame = this.win.requestAnimationFrame((next) => this._tick(next));
  }

  _stop() {
    if (this.frame !== null && this.win) this.win.cancelAnimationFrame(this.frame);
    this.frame = null;
    if (this.node) this.node.remove();
    this.node = null;
  }

  /** Put the flying checker on top of a freshly drawn board (the board calls it last). */
  attach(svg) {
    if (!this.active || !this.queue[0].path) return;
    const f = this.queue[0];
    const doc = svg.ownerDocument;
    this.node = doc.createElementNS(SVG_NS, "circle");
    this.node.setAttribute("r", String(GEOMETRY.radius - 1));
    this.node.setAttribute("class", `checker moving ${f.side}`);
    this.node.dataset.from = String(f.from);
    this.node.dataset.to = String(f.to);
    svg.appendChild(this.node);
    svg.dataset.flying = "1";
    this._place(f, f.t || 0); // where the last frame left it: a redraw never moves it back
  }

  _place(f, t) {
    f.t = t;
    if (!this.node) return;
    const p = pointAlong(f.path, easeInOut(t));
    this.node.setAttribute("cx", p.x.toFixed(2));
    this.node.setAttribute("cy", p.y.toFixed(2));
  }
}

function easeInOut(t) {
  return t < 0.5 ? 2 * t * t : 1 - ((-2 * t + 2) ** 2) / 2;
}
