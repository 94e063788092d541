// The turn clock and reserve bank as drawn under each player. The server measures the time
// (`clock.turn_ms_left` when the message was built, protocol.md); the page only counts down from
// it and never decides anything. clockFaces is pure; showClocks writes it into the player bars.

export function formatMs(ms) {
  if (ms === null || ms === undefined) return "∞";
  const total = Math.max(0, Math.ceil(ms / 1000));
  const s = total % 60;
  if (total < 3600) return `${Math.floor(total / 60)}:${String(s).padStart(2, "0")}`;
  // A correspondence turn's days (docs/rules.md, Correspondence): hours:minutes:seconds.
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  return `${h}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}`;
}

const LOW_MS = 10000;

/**
 * What each side's clock shows `elapsedMs` after the state arrived:
 * {w: {clock, low, reserve}, b: {...}} (empty strings for nothing to show).
 * The mover's turn time runs down first, then its reserve bank (docs/rules.md, Platform rules).
 */
export function clockFaces(state, elapsedMs) {
  const faces = {};
  const game = state && state.game;
  const match = state && state.match;
  if (!game) return faces;
  const c = game.clock || {};
  const active = match.status === "active";
  const running = !!c.running && active;
  const untimed = c.turn_ms_left === null || c.turn_ms_left === undefined;
  const showReserve = (ms) => typeof ms === "number" && (match.reserve_seconds || match.time_control === "nardeon" || ms > 0);
  for (const side of ["w", "b"]) {
    // The running clock's side: the mover's, or the answerer's while a double is offered.
    const toMove = (c.side || game.turn) === side && active;
    const reserve = c.reserve_ms ? c.reserve_ms[side] : null;
    if (untimed) {
      faces[side] = { clock: toMove ? "∞" : "", low: false, reserve: "" };
    } else if (toMove) {
      const left = running ? c.turn_ms_left - elapsedMs : c.turn_ms_left;
      let res = reserve;
      if (running && left < 0 && typeof reserve === "number") res = Math.max(0, reserve + left);
      let low = left < LOW_MS;
      if (match.time_control === "nardeon" && typeof c.deadline_ms_left === "number") {
        // NARDEON: the 60-second limit of a turn may come before the reserve is spent: what is
        // shown is the time really left (protocol.md "Time controls").
        const deadline = running ? c.deadline_ms_left - elapsedMs : c.deadline_ms_left;
        if (left < 0 && typeof res === "number") res = Math.max(0, Math.min(res, deadline));
        low = deadline < LOW_MS;
      }
      faces[side] = { clock: formatMs(Math.max(0, left)), low, reserve: showReserve(res) ? `+${formatMs(res)}` : "" };
    } else {
      faces[side] = { clock: "", low: false, reserve: showReserve(reserve) ? `+${formatMs(reserve)}` : "" };
    }
  }
  return faces;
}

/** Write the faces into the player bars (.player-bar[data-side] .clock / .reserve). */
export function showClocks(root, faces) {
  for (const box of root.querySelectorAll(".player-bar")) {
    const face = faces[box.dataset.side];
    const clockEl = box.querySelector(".clock");
    const reserveEl = box.querySelector(".reserve");
    if (!face || !clockEl) continue;
    clockEl.textContent = face.clock;
    clockEl.classList.toggle("low", face.low);
    if (reserveEl) reserveEl.textContent = face.reserve;
  }
}
