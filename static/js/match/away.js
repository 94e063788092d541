// The reconnect window as the page shows it (docs/rules.md, Platform rules; docs/protocol.md
// `presence`): when the opponent's last socket closed, a countdown; after it, the viewer may claim
// the match or keep waiting. Pure: the server measured `away_ms` when it sent the presence, the page counts on.

/**
 * {seat, msLeft, canClaim} for the viewer's opponent when it is away from an active match, `elapsedMs`
 * after the presence arrived; null when there is nothing to show (the opponent is here, the
 * viewer is a spectator, the match is not being played, the opponent is the computer).
 */
export function awayState(model, elapsedMs) {
  const v = model.view;
  const mine = model.mySeat();
  if (!v || mine === null || v.match.status !== "active") return null;
  const seat = 1 - mine;
  const opponent = v.match.players.find((p) => p.seat === seat);
  // A bot has no socket but is always at the table: no countdown, no claim (docs/protocol.md).
  if (!opponent || opponent.bot) return null;
  if (model.presence[String(seat)]) return null;
  const away = model.awayMs ? model.awayMs[String(seat)] : null;
  if (typeof away !== "number") return null;
  const msLeft = Math.max(0, model.reconnectSeconds * 1000 - away - elapsedMs);
  return { seat, msLeft, canClaim: msLeft === 0 };
}
