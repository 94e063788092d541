// Quick pairing's panel on the Play page (static/js/pool.js) against a small fake of the page:
// the pools' sizes, the wait, the 400-point offer with its clock, and the way to the board.
import assert from "node:assert/strict";
import { test } from "node:test";

import { buttonStates } from "../../static/js/match/controls.js";
import { MatchModel } from "../../static/js/match/state.js";
import { DEFAULT_STRINGS } from "../../static/js/match/strings.js";
import { translator } from "../../static/js/strings.js";
import { PoolPanel, poolName, windowText } from "../../static/js/pool.js";
import { scenarioSnapshot } from "./fakes.mjs";

const STRINGS = {
  online: "Players online: {n}", waiting: "Waiting: {n}", searching: "Looking: {pool}",
  status: "In pool: {size} · {waited} s · {window}", any_rating: "any",
  proposal: "{name} ({rating}) is {gap} away", proposal_clock: "{s} s to answer",
  proposal_waiting: "waiting for them", opponent_accepted: "they accepted",
  requeued_declined: "back in the pool", left_declined: "you left", matched: "found",
  rated: "rated", casual: "casual", seconds: "{s} s", rules: { traditional: "Traditional" },
};

function element(extra = {}) {
  const listeners = {};
  const classes = new Set();
  return {
    textContent: "", hidden: true, disabled: false, dataset: {}, value: "", checked: true,
    classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)), remove: (c) => classes.delete(c), has: (c) => classes.has(c) },
    addEventListener: (type, fn) => { listeners[type] = fn; },
    click: () => listeners.click && listeners.click(),
    ...extra,
  };
}

function page() {
  const ids = ["#online-count", "#pool-custom-join", "#pool-cancel", "#pool-accept", "#pool-decline", "#pool-wait",
    "#pool-name", "#pool-status", "#pool-proposal", "#pool-proposal-text", "#pool-proposal-clock", "#pool-note",
    "#pool-error", "#pool-rules", "#pool-length", "#pool-seconds", "#pool-rated"];
  const byId = Object.fromEntries(ids.map((id) => [id, element()]));
  const tiles = ["traditional.1.60.rated", "traditional.3.60.casual"].map((pool) => element({ dataset: { pool } }));
  const count = element({ dataset: { countFor: "traditional.1.60.rated" } });
  return {
    byId, tile: tiles[0], tiles, count,
    querySelector: (selector) => byId[selector],
    querySelectorAll: (selector) => (selector === "[data-pool]" ? tiles : selector === "[data-count-for]" ? [count] : []),
  };
}

const SHOWN = "5d1c".padEnd(64, "0");
const NEXT = "9f86".padEnd(64, "1");

// The panel on a fake page and socket; `open` false: the socket is still connecting, and the
// returned `opens()` opens it as the browser does (readyState 1, then its "open" listeners).
function panel({ shown = SHOWN, open = true } = {}) {
  const root = page();
  const sent = [];
  const visits = [];
  const onOpen = [];
  let now = 0;
  // The commitment the Play page shows above the forms (templates/games/_next_seed.html).
  const commitment = shown === null ? null : element({ textContent: `\n ${shown} ` });
  const pool = new PoolPanel(root, STRINGS, { navigate: (url) => visits.push(url), now: () => now, commitment });
  const socket = {
    readyState: open ? 1 : 0,
    send: (text) => sent.push(JSON.parse(text)),
    addEventListener: (type, fn) => type === "open" && onOpen.push(fn),
  };
  pool.attach(socket);
  const opens = () => { socket.readyState = 1; onOpen.forEach((fn) => fn()); };
  return { root, pool, sent, visits, commitment, socket, opens, later: (ms) => { now += ms; } };
}

test("pool names and windows read as the tiles do", () => {
  assert.equal(poolName("traditional.1.60.rated", STRINGS), "Traditional · 1 · 60 s · rated");
  assert.equal(windowText(1500, 100, STRINGS), "1400–1600");
  assert.equal(windowText(1500, null, STRINGS), "any");
});

test("a tile joins its pool, the wait is shown and the seconds tick between reports", () => {
  const { root, pool, sent, later } = panel();
  root.tile.click();
  // The browser's client seed for the dice rides with the join (games/fairness): fresh, well formed.
  assert.equal(sent.length, 1);
  const { client_seed: seed, ...join } = sent[0];
  assert.deepEqual(join, { type: "pool_join", pool: "traditional.1.60.rated", server_seed_hash: SHOWN });
  assert.match(seed, /^[0-9a-f]{32}$/);
  assert.equal(pool.receive({ type: "pools", counts: { "traditional.1.60.rated": 3 }, online: 12 }), true);
  assert.equal(root.byId["#online-count"].textContent, "Players online: 12");
  assert.equal(root.count.textContent, "Waiting: 3");
  pool.receive({ type: "pool_waiting", pool: "traditional.1.60.rated", waited: 4, window: 140, rating: 1500, proposal: null, size: 3 });
  assert.equal(root.byId["#pool-wait"].hidden, false);
  assert.equal(root.tile.classList.has("selected"), true);
  assert.equal(root.byId["#pool-status"].textContent, "In pool: 3 · 4 s · 1360–1640");
  later(3000);
  pool.tick();
  assert.equal(root.byId["#pool-status"].textContent, "In pool: 3 · 7 s · 1360–1640");
  root.byId["#pool-cancel"].click();
  assert.deepEqual(sent.at(-1), { type: "pool_leave" });
  pool.receive({ type: "pool_left", reason: "declined" });
  assert.equal(root.byId["#pool-wait"].hidden, true);
  assert.equal(root.byId["#pool-note"].textContent, "you left");
  pool.stop("");
});

test("an offer 400 points away is answered within its clock, then the page goes to the board", () => {
  const { root, pool, sent, visits, later } = panel();
  pool.receive({ type: "pool_proposal", proposal: 81, opponent: "bogdan", rating: 1950, gap: 450, seconds: 15 });
  assert.equal(root.byId["#pool-proposal"].hidden, false);
  assert.equal(root.byId["#pool-proposal-text"].textContent, "bogdan (1950) is 450 away");
  later(4200);
  pool.tick();
  assert.equal(root.byId["#pool-proposal-clock"].textContent, "11 s to answer");
  root.byId["#pool-accept"].click();
  assert.deepEqual(sent.at(-1), { type: "pool_accept", proposal: 81 });
  assert.equal(root.byId["#pool-accept"].disabled, true);
  assert.equal(root.byId["#pool-proposal-text"].textContent, "waiting for them");
  pool.receive({ type: "pool_matched", match_id: 512 });
  assert.deepEqual(visits, ["/matches/512/"]);
  assert.equal(root.byId["#pool-proposal"].hidden, true);
});

test("a decline by the other side puts the player back to waiting; errors are shown", () => {
  const { root, pool } = panel();
  pool.receive({ type: "pool_proposal", proposal: 9, opponent: "x", rating: 2000, gap: 500, seconds: 15 });
  pool.receive({ type: "pool_requeued", reason: "declined" });
  assert.equal(root.byId["#pool-proposal"].hidden, true);
  assert.equal(root.byId["#pool-note"].textContent, "back in the pool");
  pool.receive({ type: "error", code: "abort_cooldown", message: "wait a little" });
  assert.equal(root.byId["#pool-error"].textContent, "wait a little");
  assert.equal(pool.receive({ type: "lobby" }), false);
  pool.stop("");
});

test("each join names the commitment the page shows, which the server replaces after each use", () => {
  const { root, pool, sent, commitment } = panel();
  root.tile.click();
  assert.equal(sent.at(-1).server_seed_hash, SHOWN);
  // Another tab used it: refused, the new commitment is shown, and the next join names it with a new seed.
  pool.receive({ type: "error", code: "seed_changed", message: "the seed changed" });
  assert.equal(root.byId["#pool-error"].textContent, "the seed changed");
  assert.equal(pool.receive({ type: "next_seed", server_seed_hash: NEXT }), true);
  assert.equal(commitment.textContent, NEXT);
  pool.receive({ type: "next_seed", server_seed_hash: "<b>not a hash</b>" });
  assert.equal(commitment.textContent, NEXT);
  root.tile.click();
  assert.equal(sent.at(-1).server_seed_hash, NEXT);
  assert.notEqual(sent.at(-1).client_seed, sent.at(-2).client_seed);
});

test("a page showing no commitment sends no seed of its own", () => {
  const { root, pool, sent } = panel({ shown: null });
  root.tile.click();
  assert.deepEqual(sent.at(-1), { type: "pool_join", pool: "traditional.1.60.rated" });
  assert.equal(pool.receive({ type: "next_seed", server_seed_hash: NEXT }), true);
});

test("the Abort button shows while the match may still be aborted", () => {
  const t = translator(DEFAULT_STRINGS);
  const m = new MatchModel();
  const snapshot = scenarioSnapshot("white_roll");
  snapshot.state.match.abortable = true;
  m.applySnapshot(snapshot);
  assert.equal(buttonStates(m, t, { pending: false, live: true }).buttons["abort-button"].visible, true);
  snapshot.state.match.abortable = false;
  m.applySnapshot(snapshot);
  assert.equal(buttonStates(m, t, { pending: false, live: true }).buttons["abort-button"].visible, false);
});

test("tiles clicked before the socket opens join the last pool clicked when it opens, once", () => {
  const { root, sent, socket, opens } = panel({ shown: null, open: false });
  root.tiles[0].click();
  root.tiles[1].click();
  assert.deepEqual(sent, []);
  opens();
  assert.deepEqual(sent, [{ type: "pool_join", pool: "traditional.3.60.casual" }]);
  opens(); // a reconnection later does not join again
  assert.equal(sent.length, 1);
  socket.readyState = 0;
  root.tiles[0].click();
  root.byId["#pool-cancel"].click(); // cancelled while closed: nothing follows on opening
  opens();
  assert.equal(sent.length, 1);
});
