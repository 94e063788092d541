// The analysis panel's pure parts (static/js/analysis_graph.js): the winning-chances graph's
// coordinates, the marks beside the notation (docs/protocol.md, the analysis report's `mark`)
// and the best move's arrow ends.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  CUBE_SIGN, cubeLine, cubeMarkLabel, cursorX, graphLayout, H, indexCubeDecisions, indexTurns, keyCentre,
  markLabel, signed, SYMBOL, W,
} from "../../static/js/analysis_graph.js";
import { FIELD_BOTTOM, GEOMETRY as G, layoutIndex } from "../../static/js/board_geometry.js";

const turn = (game, number, whiteWins, mark = null, loss = 0) => ({ game, number, white_wins: whiteWins, mark, loss });

test("the graph: a column per turn, chance 1 at the top and 0 at the bottom, dots on marked turns", () => {
  const turns = [turn(1, 1, 0.5), turn(1, 2, 1), turn(1, 3, 0, "blunder", 0.3), turn(2, 1, 0.25, "doubtful", 0.05)];
  const layout = graphLayout(turns);
  assert.equal(layout.step, W / 4);
  assert.equal(layout.points, `37.5,${H / 2}.0 112.5,0.0 187.5,${H}.0 262.5,90.0`);
  assert.deepEqual(layout.bars.map((b) => [b.x, b.width]), [["0.00", "75.00"], ["75.00", "75.00"], ["150.00", "75.00"], ["225.00", "75.00"]]);
  assert.deepEqual(layout.bars.map((b) => b.className), ["chart-turn", "chart-turn", "chart-turn mark-blunder", "chart-turn mark-doubtful"]);
  assert.deepEqual(layout.dots, [{ cx: "187.5", cy: "120.0", mark: "blunder" }, { cx: "262.5", cy: "90.0", mark: "doubtful" }]);
  // The columns tile the graph exactly, whatever the number of turns.
  for (const count of [1, 3, 7, 113]) {
    const many = graphLayout(Array.from({ length: count }, (_, i) => turn(1, i + 1, i / count)));
    const last = many.bars[count - 1];
    assert.ok(Math.abs(Number(last.x) + Number(last.width) - W) < 0.02, `${count} turns`);
    for (const pair of many.points.split(" ")) {
      const [x, y] = pair.split(",").map(Number);
      assert.ok(x > 0 && x < W && y >= 0 && y <= H, pair);
    }
  }
});

test("an empty report draws no line, and coordinates are never localised", () => {
  const empty = graphLayout([]);
  assert.equal(empty.points, "");
  assert.deepEqual(empty.bars, []);
  assert.equal(empty.step, W);
  const one = graphLayout([turn(1, 1, 1 / 3)]);
  assert.match(one.points, /^\d+\.\d,\d+\.\d$/);
});

test("the cursor sits on the shown turn's column, hidden before the first turn", () => {
  assert.equal(cursorX(0, 75), "37.5");
  assert.equal(cursorX(3, 75), "262.5");
  assert.equal(cursorX(-1, 75), null);
});

test("marks: symbol and tooltip with the loss as a signed figure, nothing for a good turn", () => {
  const t = (key) => ({ blunder: "грубая ошибка", mistake: "ошибка", doubtful: "сомнительно" })[key];
  assert.deepEqual(markLabel(turn(1, 5, 0.4, "blunder", 0.213), t), { symbol: "??", title: "грубая ошибка (−0.213)" });
  assert.deepEqual(markLabel(turn(1, 5, 0.4, "mistake", 0.08), t), { symbol: "?", title: "ошибка (−0.080)" });
  assert.deepEqual(markLabel(turn(1, 5, 0.4, "doubtful", 0.04), t).symbol, "?!");
  assert.equal(markLabel(turn(1, 5, 0.4), t), null);
  assert.equal(markLabel(undefined, t), null);
  assert.deepEqual(Object.keys(SYMBOL).sort(), ["blunder", "doubtful", "mistake"]);
  assert.equal(signed(0), "+0.000");
  assert.equal(signed(1.23456), "+1.235");
  assert.equal(signed(-0.5), "−0.500");
});

test("arrow ends: a point's centre in its row, the tray for a checker borne off", () => {
  for (const orientation of ["w", "b"]) {
    for (const index of [0, 11, 12, 23]) {
      const place = layoutIndex(orientation, index);
      const centre = keyCentre(orientation, index, "w");
      assert.equal(centre.x, place.x);
      if (place.row === "top") assert.ok(centre.y > G.fieldTop && centre.y < G.fieldTop + G.pointHeight);
      else assert.ok(centre.y < FIELD_BOTTOM && centre.y > FIELD_BOTTOM - G.pointHeight);
    }
    const near = keyCentre(orientation, "off", orientation);
    const far = keyCentre(orientation, "off", orientation === "w" ? "b" : "w");
    assert.equal(near.x, G.trayLeft + G.trayWidth / 2);
    assert.ok(near.y > far.y, "the viewer's own checkers leave at the bottom");
  }
});

test("turns are found by game and number", () => {
  const byKey = indexTurns({ turns: [turn(1, 1, 0.5), turn(2, 1, 0.6, "mistake")] });
  assert.equal(byKey.get("2:1").mark, "mistake");
  assert.equal(byKey.get("1:2"), undefined);
});

test("cube decisions: indexed by the turn they are shown with, a line each, the worst mark beside the notation", () => {
  const decision = (game, turnNumber, kind, played, best, loss, mark = null) => ({
    game, turn: turnNumber, kind, played, best, loss, mark, cube: 2,
  });
  const result = {
    cube_decisions: [
      decision(1, 3, "double", "no_double", "double", 0.09, "mistake"),
      decision(1, 3, "take", "drop", "take", 0.2, "blunder"),
      decision(1, 5, "double", "double", "double", 0),
      decision(2, null, "take", "drop", "drop", 0), // a game without a turn: shown nowhere
    ],
  };
  const byKey = indexCubeDecisions(result);
  assert.deepEqual([...byKey.keys()], ["1:3", "1:5"]);
  assert.equal(byKey.get("1:3").length, 2);
  assert.equal(indexCubeDecisions({ turns: [] }).size, 0); // a report from before cube decisions
  const words = { double: "удвоить", no_double: "не удваивать", take: "принять", drop: "отказаться", mistake: "ошибка", blunder: "грубая ошибка" };
  const t = (key, values = {}) => (key === "cube_line" ? "Куб на {cube}: {played}, лучше {best}, потеря {loss}" : words[key])
    .replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
  assert.equal(cubeLine(byKey.get("1:3")[0], t), "Куб на 2: не удваивать, лучше удвоить, потеря 0.090 · ошибка");
  assert.equal(cubeLine(byKey.get("1:5")[0], t), "Куб на 2: удвоить, лучше удвоить, потеря 0.000");
  const label = cubeMarkLabel(byKey.get("1:3"), t);
  assert.equal(label.mark, "blunder");
  assert.equal(label.symbol, `${CUBE_SIGN}??`);
  assert.ok(label.title.includes("отказаться") && label.title.includes("не удваивать"));
  assert.equal(cubeMarkLabel(byKey.get("1:5"), t), null);
  assert.equal(cubeMarkLabel(undefined, t), null);
});
