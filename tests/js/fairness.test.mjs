// Provably fair dice in the browser (static/js/fairness.js) agree with games/fairness: the same
// known answers, and the same verdicts on a match record the Python engine wrote.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { commitment, diceFromBytes, roller, verifyExport } from "../../static/js/fairness.js";

const SEED = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const fixture = () =>
  JSON.parse(readFileSync(new URL("../games/fairness/fixtures/engine_match.json", import.meta.url), "utf8"));

test("known answers, as in tests/games/fairness/test_roll_function.py", async () => {
  assert.equal(await commitment(SEED), "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd");
  const roll = await roller(SEED);
  assert.deepEqual(await roll(["alice", "bob"], 1, 1), [5, 3]);
  assert.deepEqual(await roll(["alice", "bob"], 1, 2), [1, 2]);
  assert.deepEqual(await roll(["alice", "bob"], 2, 1), [4, 3]);
  assert.deepEqual(await roll(["alice", "bob"], 3, 17), [1, 1]);
  assert.deepEqual(await roll(["alice", "bob"], 1, 12), [2, 5]); // 0xfe skipped
  assert.deepEqual(await (await roller("ff".repeat(32)))(["0", "Z-_9"], 7, 250), [6, 5]);
});

test("bytes 252..255 are skipped, never taken modulo 6", () => {
  assert.deepEqual(diceFromBytes([0, 5, 6, 251, 252, 253, 254, 255, 11]), [1, 6, 1, 6, 6]);
});

test("a match the Python engine played verifies roll by roll", async () => {
  const report = await verifyExport(fixture());
  assert.deepEqual(report.problems, []);
  assert.equal(report.ok, true);
  assert.equal(report.checks.length, 189); // games/fairness/verify.py counts the same
  assert.ok(report.checks.some((check) => check.kind === "tie"));
});

test("one bit changed anywhere the dice depend on fails", async () => {
  const tamper = async (change) => {
    const data = fixture();
    change(data);
    return (await verifyExport(data)).ok;
  };
  assert.equal(await tamper((d) => { d.games[0].turns[5].dice[0] ^= 1; }), false);
  assert.equal(await tamper((d) => { d.games[1].turns[0].roll ^= 1; }), false);
  assert.equal(await tamper((d) => { d.games[0].opening.ties[0][1] ^= 1; }), false);
  assert.equal(await tamper((d) => { d.games[0].white_seat ^= 1; }), false);
  assert.equal(await tamper((d) => { d.games[1].rolls ^= 1; }), false);
  assert.equal(await tamper((d) => { d.match.fairness.client_seeds[0] = "creator-seee"; }), false);
  assert.equal(await tamper((d) => {
    const seed = d.match.fairness.server_seed;
    d.match.fairness.server_seed = seed.slice(0, -1) + (parseInt(seed.at(-1), 16) ^ 1).toString(16);
  }), false);
  assert.equal(await tamper((d) => { d.games[1].turns.pop(); }), false); // a drawn roll left out
});

test("a match that is not verifiable, or not over, is reported as such", async () => {
  const fixed = fixture();
  fixed.match.fairness.verifiable = false;
  fixed.match.fairness.dice_source = "fixed";
  assert.deepEqual((await verifyExport(fixed)).problems, [{ code: "not_verifiable", source: "fixed" }]);
  const running = fixture();
  running.match.fairness.server_seed = null;
  assert.deepEqual((await verifyExport(running)).problems, [{ code: "not_revealed" }]);
});
