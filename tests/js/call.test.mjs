// The call's pure parts (static/js/call.js): an SDP split into parts under the server's cap and
// put back together whatever order the parts come in, the page's session id, and who may call;
// and the panel asking for new TURN credentials before they expire, only while in the call.
import { test } from "node:test";
import assert from "node:assert/strict";
import { CallPanel, SDP_PART_CHARS, SdpParts, mayCall, newSession, renewalDelay, splitSdp } from "../../static/js/call.js";
import { FakeTimers } from "./fakes.mjs";

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

test("new TURN credentials are asked for at 80 % of their lifetime, never without TURN", () => {
  assert.equal(renewalDelay(600), 480_000);
  assert.equal(renewalDelay(2), 5000); // never sooner than 5 s
  for (const none of [null, undefined, 0, -5, "600", NaN]) assert.equal(renewalDelay(none), null);
});

/** A panel on stand-in elements and a socket that records what the page sends. */
function panelWithFakes() {
  const elements = new Map();
  const root = {
    querySelector(selector) {
      if (!elements.has(selector)) {
        elements.set(selector, { hidden: false, textContent: "", srcObject: null, addEventListener() {}, setAttribute() {}, play: () => Promise.resolve() });
      }
      return elements.get(selector);
    },
  };
  const socket = {
    sent: [],
    send(msg) {
      const id = `f${this.sent.length + 1}`;
      this.sent.push({ ...msg, id });
      return id;
    },
  };
  const timers = new FakeTimers();
  const panel = new CallPanel(root, { t: (key) => key, socket, media: {}, PeerConnection: class {}, timers });
  panel.allowed = true;
  return { panel, socket, timers };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
const TURN_A = [{ urls: ["turn:t:3478"], username: "1000:7", credential: "a" }];
const TURN_B = [{ urls: ["turn:t:3478"], username: "1480:7", credential: "b" }];

test("in the call, the panel renews its TURN credentials and gives them to the connection", async () => {
  const { panel, socket, timers } = panelWithFakes();
  const joining = panel.join();
  assert.equal(socket.sent[0].type, "call_join");
  panel.reply({ type: "ack", id: socket.sent[0].id, ice_servers: TURN_A, ice_expires_in: 600 });
  assert.equal(await joining, true);
  assert.deepEqual(panel.iceServers, TURN_A);
  const configured = [];
  panel.pc = { getConfiguration: () => ({ bundlePolicy: "max-bundle", iceServers: TURN_A }), setConfiguration: (c) => configured.push(c), close() {} };
  timers.advance(479_999);
  assert.equal(socket.sent.length, 1); // not yet
  timers.advance(1);
  assert.equal(socket.sent[1].type, "call_join");
  panel.reply({ type: "ack", id: socket.sent[1].id, ice_servers: TURN_B, ice_expires_in: 600 });
  await settle();
  assert.deepEqual(panel.iceServers, TURN_B);
  assert.deepEqual(configured, [{ bundlePolicy: "max-bundle", iceServers: TURN_B }]);
  // Refused (the match is over, or the hour's credentials are used up): the call keeps its
  // servers and asks no more.
  timers.advance(480_000);
  panel.reply({ type: "error", id: socket.sent[2].id, code: "match_not_active" }, true);
  await settle();
  assert.deepEqual(panel.iceServers, TURN_B);
  timers.advance(3_600_000);
  assert.equal(socket.sent.length, 3);
});

test("hanging up stops the renewal, and without TURN there is none", async () => {
  const { panel, socket, timers } = panelWithFakes();
  let joining = panel.join();
  panel.reply({ type: "ack", id: socket.sent[0].id, ice_servers: TURN_A, ice_expires_in: 600 });
  await joining;
  panel.hangUp({ tell: false });
  timers.advance(3_600_000);
  assert.deepEqual(socket.sent.map((m) => m.type), ["call_join"]);
  joining = panel.join();
  panel.reply({ type: "ack", id: socket.sent[1].id, ice_servers: [{ urls: ["stun:s:3478"] }], ice_expires_in: null });
  await joining;
  timers.advance(3_600_000);
  assert.equal(socket.sent.length, 2);
});
