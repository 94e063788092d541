// Fake states for the harness pages (protocol.md shapes).
function board(entries) {
  const b = new Array(24).fill(0);
  for (const [i, v] of Object.entries(entries)) b[Number(i)] = v;
  return b;
}
const players = (wSeat = 0) => [
  { seat: 0, username: "ana", rating: 1500, score: 1, side: wSeat === 0 ? "w" : "b", timeouts: 0 },
  { seat: 1, username: "bogdan", rating: 1512, score: 0, side: wSeat === 0 ? "b" : "w", timeouts: 1 },
];
function base(overrides = {}) {
  const s = {
    match: {
      id: 42, status: "active", length: 3, rated: true,
      rules: { name: "traditional", six_block: "end_of_turn", head_exception: "classic", opening: "reroll", undo_allowed: true },
      turn_seconds: 60, reserve_seconds: 120, players: players(),
      winner: null, end_reason: null, rematch: { offered_by: null, declined: false, match_id: null },
    },
    game: {
      number: 2, phase: "move", turn: "w", turn_number: 5,
      board: board({ 11: -14, 17: -1, 18: 2, 23: 13 }),
      dice: [5, 3], dice_left: [3], steps: [[24, 19, 5]],
      legal_steps: [[24, 21, 3], [19, 16, 3]], can_undo: true,
      opening: { white: 6, black: 2, ties: [[4, 4]] },
      borne_off: { w: 0, b: 0 }, pips: { w: 344, b: 352 }, result: null,
      clock: { turn_ms_left: 41250, reserve_ms: { w: 120000, b: 95000 }, running: true },
    },
    moves: [
      { number: 1, side: "w", dice: [6, 4], steps: [[24, 18, 6], [18, 14, 4]], by_server: false },
      { number: 2, side: "b", dice: [2, 1], steps: [], by_server: false },
      { number: 3, side: "w", dice: [3, 3], steps: [[24, 21, 3], [21, 18, 3], [18, 15, 3], [15, 12, 3]], by_server: true },
    ],
    spectators: 3,
    presence: { 0: true, 1: false },
  };
  return Object.assign(s, overrides);
}
export const SCENARIOS = {
  // White to move, one step played (the protocol.md example).
  white_move: () => ({ you: { user: "ana", seat: 0, side: "w" }, state: base() }),
  // Black (seat 1) to move from the start position with 6-4.
  black_move: () => {
    const s = base();
    s.game.board = board({ 11: -15, 23: 15 });
    s.game.turn = "b"; s.game.dice = [6, 4]; s.game.dice_left = [6, 4]; s.game.steps = [];
    s.game.legal_steps = [[24, 18, 6], [24, 20, 4]]; s.game.turn_number = 2; s.game.can_undo = false;
    s.moves = [{ number: 1, side: "w", dice: [2, 1], steps: [], by_server: false }];
    s.presence = { 0: false, 1: true };
    return { you: { user: "bogdan", seat: 1, side: "b" }, state: s };
  },
  // White to move with 5-3, nothing played: one checker may go 24 -> 16 in one gesture
  // (combined_moves, protocol.md), or 24 -> 19 / 24 -> 21 step by step.
  white_combined: () => {
    const s = base();
    s.game.board = board({ 11: -14, 17: -1, 23: 15 });
    s.game.dice = [5, 3]; s.game.dice_left = [5, 3]; s.game.steps = []; s.game.can_undo = false;
    s.game.legal_steps = [[24, 19, 5], [24, 21, 3]];
    s.game.combined_moves = [[[24, 19, 5], [19, 16, 3]]];
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // White bearing off with 6-3, a checker on 5: off with the 6 alone, or 5 -> 2 -> off with both.
  white_bear_off_choice: () => {
    const s = base();
    s.game.board = board({ 4: 1, 1: 14, 11: -15 });
    s.game.dice = [6, 3]; s.game.dice_left = [6, 3]; s.game.steps = []; s.game.can_undo = false;
    s.game.legal_steps = [[5, 0, 6], [5, 2, 3], [2, 0, 6]];
    s.game.combined_moves = [[[5, 2, 3], [2, 0, 6]]];
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // White must roll.
  white_roll: () => {
    const s = base();
    s.game.phase = "roll"; s.game.dice = null; s.game.dice_left = []; s.game.steps = []; s.game.legal_steps = [];
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // A spectator; Black to move with a double, several stacks.
  spectator: () => {
    const s = base();
    s.game.board = board({ 23: 8, 18: 3, 15: 2, 12: 1, 4: 1, 11: -9, 7: -2, 2: -3, 22: -1 });
    s.game.turn = "b"; s.game.dice = [4, 4]; s.game.dice_left = [4, 4]; s.game.steps = [[24, 20, 4], [20, 16, 4]];
    s.game.legal_steps = [];
    return { you: { user: null, seat: null, side: null }, state: s };
  },
  // White bearing off: 6-2, legal steps include bearing off from 6 and 2.
  bear_off: () => {
    const s = base();
    s.game.board = board({ 5: 3, 4: 2, 3: 2, 1: 1, 0: 2, 11: -3, 13: -2, 14: -1 });
    s.game.dice = [6, 2]; s.game.dice_left = [6, 2]; s.game.steps = [];
    s.game.legal_steps = [[6, 0, 6], [6, 4, 2], [5, 3, 2], [4, 2, 2], [2, 0, 2]];
    s.game.pips = null;
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // Finished: ana won, bogdan offers a rematch.
  finished: () => {
    const s = base();
    s.match.status = "finished"; s.match.winner = 0; s.match.end_reason = "resigned";
    s.match.rematch = { offered_by: 1, declined: false, match_id: null };
    s.game.phase = "over"; s.game.legal_steps = []; s.game.clock.running = false;
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // A cube match: White may double before rolling (the cube in the middle).
  cube_double: () => {
    const s = base();
    s.match.rules = { ...s.match.rules, doubling_cube: true, cube_raise: "geometric", crawford: true };
    s.game.phase = "roll"; s.game.dice = null; s.game.dice_left = []; s.game.steps = []; s.game.legal_steps = [];
    s.game.cube = { value: 1, owner: null, offered_by: null, offered_value: null, may_double: true, crawford: false };
    s.moves[0].doubled_to = 2;
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
  // White offered to double to 4: Black (bogdan) answers on its own clock.
  cube_offer: () => {
    const s = base();
    s.match.rules = { ...s.match.rules, doubling_cube: true, cube_raise: "geometric", crawford: true };
    s.game.phase = "roll"; s.game.dice = null; s.game.dice_left = []; s.game.steps = []; s.game.legal_steps = [];
    s.game.cube = { value: 2, owner: 0, offered_by: 0, offered_value: 4, may_double: false, crawford: false };
    s.game.clock = { ...s.game.clock, side: "b" };
    return { you: { user: "bogdan", seat: 1, side: "b" }, state: s };
  },
  // Open challenge.
  open: () => {
    const s = base();
    s.match.status = "open"; s.match.players = [players()[0]];
    s.game = null; s.moves = [];
    return { you: { user: "ana", seat: 0, side: "w" }, state: s };
  },
};

/** The state after `step` by the side to move (a fake server: no rules, just bookkeeping). */
export function applyStep(state, step) {
  const s = JSON.parse(JSON.stringify(state));
  const g = s.game;
  const sign = g.turn === "w" ? 1 : -1;
  const idx = (side, p) => (side === "w" ? p - 1 : (p + 11) % 24);
  g.board[idx(g.turn, step[0])] -= sign;
  if (step[1] !== 0) g.board[idx(g.turn, step[1])] += sign;
  g.dice_left.splice(g.dice_left.indexOf(step[2]), 1);
  g.steps.push(step);
  g.legal_steps = [];
  return s;
}
