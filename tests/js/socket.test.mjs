// The protocol client's version and resync logic (docs/protocol.md "event"): in-order events are
// applied, repeats and old ones dropped, a gap asks for one snapshot, a reconnect resyncs.
import assert from "node:assert/strict";
import { test } from "node:test";

import { MatchSocket, PENDING_TIMEOUT_MS, RESYNC_RETRY_MS } from "../../static/js/match/socket.js";
import { exampleSnapshot, FakeTimers, fakeWebSocketClass } from "./fakes.mjs";

function event(version, kind = "step") {
  return { type: "event", version, kind, detail: {}, state: { game: { number: 2 } } };
}

/** A client on an open socket that has had the snapshot at `version`; what reached the page. */
function connected(version = 12) {
  const WebSocketImpl = fakeWebSocketClass();
  const timers = new FakeTimers();
  const seen = { snapshots: [], events: [], answered: [], abandoned: [], errors: [], connection: [], presence: [] };
  const client = new MatchSocket({
    url: "ws://test/ws/matches/42/",
    WebSocketImpl,
    timers,
    random: () => 0.5,
    handlers: {
      snapshot: (msg) => seen.snapshots.push(msg.version),
      event: (msg) => seen.events.push(msg.version),
      presence: (msg) => seen.presence.push(msg),
      answered: (pending, ack, error) => seen.answered.push({ type: pending.type, ack, error }),
      abandoned: (pending) => seen.abandoned.push(pending.type),
      error: (msg, mine) => seen.errors.push({ code: msg.code, mine }),
      connection: (state) => seen.connection.push(state),
    },
  });
  client.connect();
  const ws = WebSocketImpl.last();
  ws.open();
  if (version !== null) ws.push(exampleSnapshot(version));
  return { client, ws, WebSocketImpl, timers, seen };
}

const sentTypes = (ws) => ws.sent.map((m) => m.type);

test("the snapshot sets the version; the next events are applied in order", () => {
  const { client, ws, seen } = connected(12);
  assert.equal(client.version, 12);
  ws.push(event(13));
  ws.push(event(14));
  assert.deepEqual(seen.events, [13, 14]);
  assert.equal(client.version, 14);
  assert.deepEqual(ws.sent, []);
});

test("events before the first snapshot are dropped: the snapshot holds them", () => {
  const { client, ws, seen } = connected(null);
  ws.push(event(5));
  assert.deepEqual(seen.events, []);
  assert.equal(client.version, null);
  ws.push(exampleSnapshot(5));
  ws.push(event(6));
  assert.deepEqual(seen.events, [6]);
});

test("a repeated or older event is dropped and asks for nothing", () => {
  const { client, ws, seen } = connected(12);
  ws.push(event(13));
  ws.push(event(13));
  ws.push(event(12));
  ws.push(event(3));
  assert.deepEqual(seen.events, [13]);
  assert.equal(client.version, 13);
  assert.deepEqual(ws.sent, []);
});

test("a gap asks for one snapshot, skips events until it comes, then goes on from it", () => {
  const { client, ws, seen } = connected(12);
  ws.push(event(14));
  ws.push(event(15));
  assert.deepEqual(seen.events, []);
  assert.equal(client.version, 12, "a gap never moves the version");
  assert.deepEqual(sentTypes(ws), ["snapshot"], "one request, however many events miss");
  ws.push(exampleSnapshot(15));
  assert.deepEqual(seen.snapshots, [12, 15]);
  ws.push(event(15));
  ws.push(event(16));
  assert.deepEqual(seen.events, [16]);
  ws.push(event(18));
  assert.deepEqual(sentTypes(ws), ["snapshot", "snapshot"], "a later gap asks again");
});

test("a stale_version error resyncs; other errors do not", () => {
  const { ws, seen } = connected(12);
  ws.push({ type: "error", id: "x", code: "not_your_turn", message: "no" });
  assert.deepEqual(ws.sent, []);
  ws.push({ type: "error", id: "x", code: "stale_version", message: "stale" });
  assert.deepEqual(sentTypes(ws), ["snapshot"]);
  assert.deepEqual(seen.errors, [{ code: "not_your_turn", mine: false }, { code: "stale_version", mine: false }]);
});

test("a command carries the version and an id; its error answers it", () => {
  const { client, ws, seen } = connected(12);
  const id = client.versioned("step", { step: [24, 21, 3] });
  assert.deepEqual(ws.sent, [{ type: "step", version: 12, step: [24, 21, 3], id }]);
  assert.equal(client.pending.type, "step");
  ws.push({ type: "error", id: "someone-else", code: "illegal_step" });
  assert.equal(client.pending.id, id, "an error for another id leaves the command waiting");
  ws.push({ type: "error", id, code: "illegal_step", message: "no such step" });
  assert.equal(client.pending, null);
  assert.deepEqual(seen.answered, [{ type: "step", ack: null, error: { type: "error", id, code: "illegal_step", message: "no such step" } }]);
  assert.deepEqual(seen.errors.at(-1), { code: "illegal_step", mine: true });
});

test("the next event settles a step, roll or undo; an ack before it keeps the command in flight", () => {
  const { client, ws, seen } = connected(12);
  const id = client.versioned("roll");
  ws.push({ type: "ack", id, version: 13 });
  assert.equal(client.version, 12, "the version comes from events, not acks");
  assert.equal(client.pending.type, "roll", "still in flight: the roll must not be offered again");
  ws.push(event(13));
  assert.equal(client.pending, null);
  ws.push({ type: "ack", id, version: 13 });
  assert.deepEqual(seen.answered, [], "a late ack answers nothing");
  const undo = client.versioned("undo");
  ws.push(event(14));
  ws.push({ type: "ack", id: undo, version: 14 });
  assert.equal(client.pending, null);
  client.versioned("step", { step: [24, 21, 3] });
  ws.push(event(15));
  assert.equal(client.pending, null);
  client.command({ type: "leave" });
  ws.push(event(16));
  assert.equal(client.pending.type, "leave", "only its own answer settles a leave");
});

test("an ack carrying its command's events applies them first and answers the command", () => {
  const { client, ws, seen } = connected(12);
  const id = client.versioned("step", { step: [24, 21, 3] });
  ws.push({ type: "ack", id, version: 14, events: [event(13), event(14, "turn")] });
  assert.equal(client.version, 14, "the carried events are applied");
  assert.deepEqual(seen.events, [13, 14]);
  assert.equal(client.pending, null, "answered: the page may act again");
  ws.push(event(14)); // a copy through the channel layer changes nothing
  assert.deepEqual(seen.events, [13, 14]);
  const roll = client.versioned("roll");
  ws.push({ type: "ack", id: roll, version: 16, events: [event(16)] });
  assert.equal(client.version, 14, "a gap in carried events is not applied");
  assert.deepEqual(sentTypes(ws), ["step", "roll", "snapshot"], "it asks for a snapshot");
});

test("a command without an answer is given up after the timeout, and the client resyncs", () => {
  const { client, ws, timers, seen } = connected(12);
  client.versioned("step", { step: [24, 21, 3] });
  timers.advance(PENDING_TIMEOUT_MS - 1);
  assert.ok(client.pending);
  timers.advance(1);
  assert.equal(client.pending, null);
  assert.deepEqual(seen.abandoned, ["step"]);
  assert.deepEqual(sentTypes(ws), ["step", "snapshot"]);
});

test("an answered command's timer is cleared: no late resync", () => {
  const { client, ws, timers, seen } = connected(12);
  const id = client.versioned("roll");
  ws.push({ type: "ack", id, version: 13 });
  ws.push(event(13));
  timers.advance(PENDING_TIMEOUT_MS * 2);
  assert.deepEqual(seen.abandoned, []);
  assert.deepEqual(sentTypes(ws), ["roll"]);
});

test("a lost socket reconnects with growing backoff and resyncs from the new snapshot", () => {
  const { client, ws, WebSocketImpl, timers, seen } = connected(12);
  client.versioned("step", { step: [24, 21, 3] });
  ws.close(1006);
  assert.deepEqual(seen.abandoned, ["step"], "the step in flight is given up (the page reverts it)");
  assert.equal(client.connected, false);
  assert.equal(client.send({ type: "snapshot" }), null, "nothing is sent on a closed socket");
  assert.equal(seen.connection.at(-1), "lost");
  timers.advance(999);
  assert.equal(WebSocketImpl.sockets.length, 1);
  timers.advance(1);
  assert.equal(WebSocketImpl.sockets.length, 2, "reconnects after the first backoff (1 s)");
  const again = WebSocketImpl.last();
  again.close(1006);
  timers.advance(1999);
  assert.equal(WebSocketImpl.sockets.length, 2);
  timers.advance(1);
  assert.equal(WebSocketImpl.sockets.length, 3, "the backoff doubles");
  const third = WebSocketImpl.last();
  third.open();
  // Events missed while away are not patched over the old state: the new snapshot comes first.
  third.push(event(13));
  assert.deepEqual(seen.events, []);
  third.push(exampleSnapshot(20));
  assert.equal(client.version, 20);
  third.push(event(21));
  assert.deepEqual(seen.events, [21]);
  assert.equal(client.backoff, 1000, "an open socket resets the backoff");
});

test("a request for a snapshot lost with its socket does not block the next resync", () => {
  const { client, ws, WebSocketImpl, timers } = connected(12);
  ws.push(event(14));
  assert.equal(client.behind, true);
  ws.close(1006);
  timers.advance(1000);
  const next = WebSocketImpl.last();
  next.open();
  next.push(exampleSnapshot(14));
  next.push(event(16));
  assert.deepEqual(sentTypes(next), ["snapshot"]);
});

test("final close codes stop reconnecting and say why", () => {
  for (const [code, reason] of [[4001, "logged_out"], [4404, "no_match"], [4008, "too_many"], [4029, "too_many"]]) {
    const { client, ws, WebSocketImpl, timers, seen } = connected(12);
    ws.close(code);
    timers.advance(120000);
    assert.equal(WebSocketImpl.sockets.length, 1, `no reconnect after ${code}`);
    assert.equal(client.closedFor, reason);
    assert.equal(seen.connection.at(-1), reason);
  }
});

test("junk from the server changes nothing", () => {
  const { client, ws, seen } = connected(12);
  ws.pushRaw("not json");
  ws.push({ type: "from-the-future", version: 13 });
  ws.push({ type: "pong", id: "p" });
  ws.push(null);
  assert.equal(client.version, 12);
  assert.deepEqual(seen.events, []);
  assert.deepEqual(ws.sent, []);
});

test("presence is passed on without touching the version", () => {
  const { client, ws, seen } = connected(12);
  ws.push({ type: "presence", presence: { 0: true, 1: true }, spectators: 4 });
  assert.equal(seen.presence.length, 1);
  assert.equal(client.version, 12);
});

test("a refused snapshot request is asked again after a pause, quietly", () => {
  const { client, ws, timers, seen } = connected(12);
  ws.push(event(14));
  const request = ws.sent.at(-1);
  assert.equal(request.type, "snapshot");
  ws.push({ type: "error", id: request.id, code: "rate_limited", message: "Too many snapshot requests" });
  assert.deepEqual(seen.errors, [], "the page is not told: it is still behind and will ask again");
  ws.push(event(15));
  assert.deepEqual(sentTypes(ws), ["snapshot"], "not at once");
  timers.advance(RESYNC_RETRY_MS);
  assert.deepEqual(sentTypes(ws), ["snapshot", "snapshot"]);
  ws.push(exampleSnapshot(15));
  timers.advance(PENDING_TIMEOUT_MS * 2);
  assert.deepEqual(sentTypes(ws), ["snapshot", "snapshot"], "nothing more once the snapshot came");
  assert.equal(client.version, 15);
});

test("an unanswered snapshot request is asked again", () => {
  const { ws, timers } = connected(12);
  ws.push(event(14));
  timers.advance(PENDING_TIMEOUT_MS);
  assert.deepEqual(sentTypes(ws), ["snapshot", "snapshot"]);
});
