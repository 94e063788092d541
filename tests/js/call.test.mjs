// The call's pure parts (static/js/call.js): an SDP split into parts under the server's cap and
// put back together whatever order the parts come in, the page's session id, and who may call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { SDP_PART_CHARS, SdpParts, mayCall, newSession, splitSdp } from "../../static/js/call.js";

const SDP = "v=0\r\n" + "a=candidate:1 1 udp 2122260223 192.0.2.7 54400 typ host\r\n".repeat(150);

test("an SDP is split into parts the server takes and joined back exactly", () => {
  const parts = splitSdp(SDP);
  assert.ok(parts.length > 1 && parts.length <= 4);
  for (const part of parts) {
    assert.ok(part.length <= SDP_PART_CHARS && SDP_PART_CHARS <= 3000);
    assert.ok(JSON.stringify({ type: "call_offer", session: "x".repeat(40), to: "y".repeat(40), sdp: part, part: 3, parts: 4, id: "abcde-99" }).length < 4096);
  }
  const collected = new SdpParts();
  const frames = parts.map((sdp, part) => ({ type: "call_offer", session: "s1", sdp, part, parts: parts.length }));
  const order = [frames[0], ...frames.slice(1).reverse()];
  const results = order.map((frame) => collected.add(frame));
  assert.deepEqual(results.slice(0, -1), new Array(parts.length - 1).fill(null));
  assert.equal(results.at(-1), SDP);
});

test("a new first part starts the SDP again; senders and kinds are kept apart", () => {
  const collected = new SdpParts();
  assert.equal(collected.add({ type: "call_offer", session: "a", sdp: "old", part: 0, parts: 2 }), null);
  assert.equal(collected.add({ type: "call_offer", session: "a", sdp: "v=0", part: 0, parts: 2 }), null);
  assert.equal(collected.add({ type: "call_answer", session: "a", sdp: "no", part: 0, parts: 2 }), null);
  assert.equal(collected.add({ type: "call_offer", session: "b", sdp: "x", part: 1, parts: 2 }), null);
  assert.equal(collected.add({ type: "call_offer", session: "a", sdp: "\r\n", part: 1, parts: 2 }), "v=0\r\n");
  assert.equal(collected.add({ type: "call_offer", session: "c", sdp: "one", part: 0, parts: 1 }), "one");
});

test("a session id is 16 of the characters the server takes", () => {
  const seen = new Set();
  for (let i = 0; i < 50; i++) {
    const session = newSession();
    assert.match(session, /^[A-Za-z0-9]{16}$/);
    seen.add(session);
  }
  assert.equal(seen.size, 50);
});

test("only a player of an active match against a person may call", () => {
  const view = (status, bot = false) => ({ match: { status, players: [{ seat: 0 }, { seat: 1, bot }] } });
  assert.equal(mayCall(view("active"), 0), true);
  assert.equal(mayCall(view("active"), 1), true);
  assert.equal(mayCall(view("active"), null), false); // a spectator
  assert.equal(mayCall(view("active", true), 0), false); // the computer
  for (const status of ["open", "finished", "aborted", "cancelled"]) assert.equal(mayCall(view(status), 0), false);
  assert.equal(mayCall(null, 0), false);
});
