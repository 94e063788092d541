// The match socket's protocol client (docs/protocol.md): one WebSocket, reconnected with backoff;
// the match version, with a snapshot asked for on any gap; one command in flight at a time,
// answered by its ack or error (or by the events it caused), or given up after a timeout.
// No DOM and no page state: the page gets callbacks, so the client runs in Node's tests too.

// Close codes after which reconnecting cannot help (protocol.md): the page says why and stops.
// 4008: too many messages; 4029: too many sockets for this user or address.
// 4003: a moderator banned this account.
export const FINAL_CLOSE_CODES = Object.freeze({
  4001: "logged_out", 4003: "banned", 4404: "no_match", 4008: "too_many", 4029: "too_many",
});

// Commands a versioned event answers: the server's new state settles them, whatever the ack says
// (the registry's `answered_by_events`, games/protocol/commands.py; checked by
// tests/games/test_command_registry.py).
const ANSWERED_BY_EVENTS = new Set(["step", "roll", "undo", "confirm"]);

export const PENDING_TIMEOUT_MS = 10000;
// A refused snapshot request (the server allows a socket 20 a minute) is asked again after this.
export const RESYNC_RETRY_MS = 3000;
export const BACKOFF_FIRST_MS = 1000;
export const BACKOFF_MAX_MS = 30000;

const noop = () => {};

/**
 * new MatchSocket({url, handlers, WebSocketImpl, timers, random})
 *
 * handlers (all optional):
 *   snapshot(msg)              a snapshot: the whole state, the version is msg.version
 *   event(msg)                 the next event in version order (gaps and repeats never reach here)
 *   presence(msg)              who is connected (not versioned)
 *   chat(msg)                  a chat message (not versioned; snapshots carry the chat so far)
 *   chatMuted(msg)             this player (un)muted the opponent, in this tab or another
 *   call(msg)                  a call_* message from the opponent's page or the server
 *   reply(msg, error)          the ack or error of a frame sent with send(), not a command
 *   answered(pending, ack, error)  the command in flight got its ack or error
 *   abandoned(pending)         the command in flight got no answer (timeout or lost socket)
 *   error(msg, mine)           any error message; `mine` when it answers the command in flight
 *   connection(state)          "open", "lost" (reconnecting) or a final reason from FINAL_CLOSE_CODES
 */
export class MatchSocket {
  constructor({ url, handlers = {}, WebSocketImpl, timers = globalThis, random = Math.random } = {}) {
    this.url = url;
    this.handlers = handlers;
    this.WebSocketImpl = WebSocketImpl || globalThis.WebSocket;
    this.timers = timers;
    this.random = random;
    this.version = null; // the version of the state the page holds; null before the first snapshot
    this.ws = null;
    this.connected = false;
    this.closedFor = null; // a final close: no reconnect
    this.backoff = BACKOFF_FIRST_MS;
    this.awaitingSnapshot = true; // every new socket starts with a snapshot (protocol.md)
    this.behind = false; // a gap or a stale version was seen: only a snapshot puts the page right
    this.snapshotRequest = null; // the id of the snapshot request in flight
    this.pending = null; // {id, type, timer}
    this.seq = 0;
    this.idPrefix = random().toString(36).slice(2, 7);
  }

  emit(name, ...args) {
    (this.handlers[name] || noop)(...args);
  }

  connect() {
    let ws;
    try {
      ws = new this.WebSocketImpl(this.url);
    } catch (e) {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    // The server sends a snapshot on connect: events before it are not ours to apply (a reconnect
    // resyncs from that snapshot, whatever was missed while away).
    this.awaitingSnapshot = true;
    this.behind = false;
    this.snapshotRequest = null;
    ws.onopen = () => {
      this.connected = true;
      this.backoff = BACKOFF_FIRST_MS;
      this.emit("connection", "open");
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => this.onClose(ev);
    ws.onerror = noop; // onclose follows
  }

  onClose(ev) {
    this.connected = false;
    this.ws = null;
    this.abandonPending();
    const final = FINAL_CLOSE_CODES[ev.code];
    if (final) {
      this.closedFor = final;
      this.emit("connection", final);
      return;
    }
    this.scheduleReconnect();
  }

  scheduleReconnect() {
    this.emit("connection", "lost");
    // Jittered exponential backoff, so a restarted server is not hit by every page at once.
    const delay = this.backoff * (0.8 + this.random() * 0.4);
    this.backoff = Math.min(this.backoff * 2, BACKOFF_MAX_MS);
    this.timers.setTimeout(() => this.connect(), delay);
  }

  /** Send a message with a fresh id; the id, or null when there is no open socket. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== 1) return null;
    const id = `${this.idPrefix}-${++this.seq}`;
    this.ws.send(JSON.stringify({ ...msg, id }));
    return id;
  }

  /** Send a command and wait for its answer: the id, or null when it could not be sent. */
  command(msg) {
    const id = this.send(msg);
    if (!id) return null;
    this.clearPending();
    const timer = this.timers.setTimeout(() => {
      if (this.pending && this.pending.id === id) {
        // No answer: fall back to the server's truth.
        this.abandonPending();
        this.resync();
      }
    }, PENDING_TIMEOUT_MS);
    this.pending = { id, type: msg.type, timer };
    return id;
  }

  /** A command that carries the version the page holds (roll, step, undo: protocol.md). */
  versioned(type, fields = {}) {
    return this.command({ type, version: this.version, ...fields });
  }

  /**
   * Ask for a snapshot, once until it comes. A request refused or unanswered is asked again while
   * the page is still behind; on a closed socket the reconnect's snapshot does it.
   */
  resync() {
    this.behind = true;
    if (this.snapshotRequest) return;
    const id = this.send({ type: "snapshot" });
    if (!id) return;
    this.snapshotRequest = id;
    this.timers.setTimeout(() => this.snapshotRequestFailed(id), PENDING_TIMEOUT_MS);
  }

  /** A snapshot request got no snapshot: ask again, at once or (refused) after `retryMs`. */
  snapshotRequestFailed(id, retryMs = 0) {
    if (this.snapshotRequest !== id) return;
    const again = () => {
      this.snapshotRequest = null;
      if (this.behind) this.resync();
    };
    if (!retryMs) {
      again();
      return;
    }
    const waiting = `${id}-wait`; // gaps meanwhile do not ask again before the pause is over
    this.snapshotRequest = waiting;
    this.timers.setTimeout(() => {
      if (this.snapshotRequest === waiting) again();
    }, retryMs);
  }

  clearPending() {
    const p = this.pending;
    if (p && p.timer) this.timers.clearTimeout(p.timer);
    this.pending = null;
    return p;
  }

  abandonPending() {
    const p = this.clearPending();
    if (p) this.emit("abandoned", p);
  }

  awaitsEvents(ack) {
    return ANSWERED_BY_EVENTS.has(this.pending.type) && typeof ack.version === "number" && ack.version > this.version;
  }

  receive(msg) {
    const handle = RECEIVERS[msg && msg.type];
    if (handle) handle(this, msg);
    // Any other type is newer than this page: nothing to do with it.
  }

  onSnapshot(msg) {
    this.version = msg.version;
    this.awaitingSnapshot = false;
    this.behind = false;
    this.snapshotRequest = null;
    this.clearPending(); // the snapshot is the truth: no optimistic step stays drawn
    this.emit("snapshot", msg);
  }

  onEvent(msg) {
    if (this.awaitingSnapshot || this.version === null) return; // the snapshot is on its way
    if (msg.version <= this.version) return; // already have it (e.g. in a snapshot)
    if (msg.version !== this.version + 1) {
      this.resync(); // a gap: the page cannot build the missing states, the server can
      return;
    }
    this.version = msg.version;
    if (this.pending && ANSWERED_BY_EVENTS.has(this.pending.type)) this.clearPending();
    this.emit("event", msg);
  }

  onAnswer(msg, error) {
    const mine = !!(this.pending && msg.id === this.pending.id);
    if (!mine && msg.id !== undefined) this.emit("reply", msg, error); // a frame sent with send()
    if (mine && !error && this.awaitsEvents(msg)) {
      // The ack came before the command's events (protocol.md "ack"): the command stays in
      // flight until they come, so the page does not offer the same roll or step again.
      return;
    }
    if (mine) {
      const p = this.clearPending();
      this.emit("answered", p, error ? null : msg, error ? msg : null);
    }
    if (error && msg.id !== undefined && msg.id === this.snapshotRequest) {
      this.snapshotRequestFailed(msg.id, RESYNC_RETRY_MS);
      return;
    }
    if (error) {
      this.emit("error", msg, mine);
      if (msg.code === "stale_version") this.resync();
    }
  }
}

// What each server message does (protocol.md "Server → client"): a table, not an if-chain.
const RECEIVERS = {
  snapshot: (client, msg) => client.onSnapshot(msg),
  event: (client, msg) => client.onEvent(msg),
  presence: (client, msg) => client.emit("presence", msg),
  chat: (client, msg) => client.emit("chat", msg),
  chat_muted: (client, msg) => client.emit("chatMuted", msg),
  // An ack may carry the command's own events (protocol.md "ack", sockets opened with
  // `ack_events=1`): applied first, as if they had come just before it.
  ack: (client, msg) => {
    if (Array.isArray(msg.events)) for (const event of msg.events) client.onEvent(event);
    client.onAnswer(msg, false);
  },
  error: (client, msg) => client.onAnswer(msg, true),
  pong: () => {},
  // The opponent's call signalling (docs/protocol.md "Calls"), for the page's call (call.js).
  call_media: (client, msg) => client.emit("call", msg),
  call_offer: (client, msg) => client.emit("call", msg),
  call_answer: (client, msg) => client.emit("call", msg),
  call_ice: (client, msg) => client.emit("call", msg),
  call_hangup: (client, msg) => client.emit("call", msg),
};
