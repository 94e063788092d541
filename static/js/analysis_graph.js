// The analysis panel's pure parts (static/js/analysis.js): the winning-chances graph's
// coordinates, the marks shown beside the notation and where a best-move arrow starts and ends.
// No DOM, so tests/js/analysis.test.mjs runs them under Node. Numbers that go into SVG
// attributes are formatted with a dot, never localised (docs/architecture.md, "How code is shaped here").
import { FIELD_BOTTOM, GEOMETRY as G, layoutIndex } from "./board_geometry.js";

// Graph size in SVG user units (it scales with the panel).
export const W = 300;
export const H = 120;
// The marks of the analysis thresholds (docs/protocol.md, the analysis report's `mark`).
export const SYMBOL = { doubtful: "?!", mistake: "?", blunder: "??" };
// Put before a cube decision's mark, so it reads apart from the turn's own.
export const CUBE_SIGN = "▣";

/** Numbers shown with a fixed dot and sign (U+2212 for minus). */
export function signed(value) {
  return `${value >= 0 ? "+" : "−"}${Math.abs(value).toFixed(3)}`;
}

/** The turns of the report by "game:number". */
export function indexTurns(result) {
  const byKey = new Map();
  for (const turn of result.turns) byKey.set(`${turn.game}:${turn.number}`, turn);
  return byKey;
}

/** White's winning chances as graph geometry: one column per turn (``step`` wide), the line's
 * points at the columns' centres (chance 1 at the top, 0 at the bottom) and a dot per marked turn. */
export function graphLayout(turns) {
  const step = W / Math.max(turns.length, 1);
  const x = (i) => (i + 0.5) * step;
  const y = (chance) => H - chance * H;
  const points = turns.map((turn, i) => `${x(i).toFixed(1)},${y(turn.white_wins).toFixed(1)}`).join(" ");
  const bars = turns.map((turn, i) => ({
    x: (i * step).toFixed(2), width: step.toFixed(2), className: `chart-turn${turn.mark ? ` mark-${turn.mark}` : ""}`,
  }));
  const dots = [];
  turns.forEach((turn, i) => {
    if (turn.mark) dots.push({ cx: x(i).toFixed(1), cy: y(turn.white_wins).toFixed(1), mark: turn.mark });
  });
  return { step, points, bars, dots };
}

/** The cursor's x for the turn at ``index`` of the report, or null when no turn is shown. */
export function cursorX(index, step) {
  return index >= 0 ? ((index + 0.5) * step).toFixed(1) : null;
}

/** The mark shown beside a turn's notation: symbol and tooltip, or null for an unmarked turn. */
export function markLabel(turn, t) {
  if (!turn || !turn.mark) return null;
  return { symbol: SYMBOL[turn.mark], title: `${t(turn.mark)} (${signed(-turn.loss)})` };
}

/** The cube decisions of the report (``cube_decisions``) by "game:turn", the turn they are
 * shown with: the one whose roll followed them, or a game's last turn for a dropped double. */
export function indexCubeDecisions(result) {
  const byKey = new Map();
  for (const decision of result.cube_decisions || []) {
    if (decision.turn === null) continue;
    const key = `${decision.game}:${decision.turn}`;
    if (!byKey.has(key)) byKey.set(key, []);
    byKey.get(key).push(decision);
  }
  return byKey;
}

/** A cube decision's line: the choice made, the best, the loss and its mark, each choice's
 * name taken from the strings ("double", "no_double", "take", "drop"). */
export function cubeLine(decision, t) {
  let line = t("cube_line", {
    cube: decision.cube, played: t(decision.played), best: t(decision.best), loss: decision.loss.toFixed(3),
  });
  if (decision.mark) line += ` · ${t(decision.mark)}`;
  return line;
}

/** The worst mark among a turn's cube decisions, as a label beside its notation (the cube sign
 * before the mark's symbol), or null when none is marked. */
export function cubeMarkLabel(decisions, t) {
  const order = ["blunder", "mistake", "doubtful"];
  const marked = (decisions || []).filter((decision) => decision.mark);
  if (!marked.length) return null;
  marked.sort((a, b) => order.indexOf(a.mark) - order.indexOf(b.mark));
  const worst = marked[0];
  return { mark: worst.mark, symbol: `${CUBE_SIGN}${SYMBOL[worst.mark]}`, title: marked.map((d) => cubeLine(d, t)).join("; ") };
}

/** Centre of a board key (index or "off") for the viewer, where an arrow starts or ends. */
export function keyCentre(orientation, key, mover) {
  if (key === "off") {
    const near = mover === orientation;
    return { x: G.trayLeft + G.trayWidth / 2, y: near ? FIELD_BOTTOM - 40 : G.fieldTop + 40 };
  }
  const place = layoutIndex(orientation, key);
  const y = place.row === "top" ? G.fieldTop + G.pointHeight * 0.55 : FIELD_BOTTOM - G.pointHeight * 0.55;
  return { x: place.x, y };
}
