import { SCENARIOS } from "../e2e/harness/scenarios.js";

// Test doubles for the protocol client: a WebSocket that records what the page sends and lets a
// test play the server, and timers a test runs by hand. Real protocol messages, no DOM.

export class FakeTimers {
  constructor() {
    this.now = 0;
    this.queue = [];
    this.nextId = 1;
  }

  setTimeout(fn, ms) {
    const id = this.nextId++;
    this.queue.push({ id, at: this.now + ms, fn });
    return id;
  }

  clearTimeout(id) {
    this.queue = this.queue.filter((t) => t.id !== id);
  }

  /** Run every timer due within `ms` from now, in order. */
  advance(ms) {
    const until = this.now + ms;
    for (;;) {
      this.queue.sort((a, b) => a.at - b.at);
      const next = this.queue[0];
      if (!next || next.at > until) break;
      this.queue.shift();
      this.now = next.at;
      next.fn();
    }
    this.now = until;
  }
}

/** A WebSocket class whose instances are kept in `sockets`; `last()` is the current one. */
export function fakeWebSocketClass() {
  const sockets = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      sockets.push(this);
    }

    send(text) {
      this.sent.push(JSON.parse(text));
    }

    // The server's side:
    open() {
      this.readyState = 1;
      this.onopen({});
    }

    push(msg) {
      this.onmessage({ data: JSON.stringify(msg) });
    }

    pushRaw(text) {
      this.onmessage({ data: text });
    }

    close(code) {
      this.readyState = 3;
      this.onclose({ code });
    }
  }
  FakeSocket.sockets = sockets;
  FakeSocket.last = () => sockets[sockets.length - 1];
  return FakeSocket;
}

export function board(entries) {
  const b = new Array(24).fill(0);
  for (const [i, v] of Object.entries(entries)) b[Number(i)] = v;
  return b;
}

/** A snapshot of a harness scenario (tests/e2e/harness/scenarios.js, the protocol.md shapes). */
export function scenarioSnapshot(name, version = 12) {
  return { type: "snapshot", version, ...SCENARIOS[name]() };
}

/** The protocol.md snapshot example: White (ana, seat 0) to move, 5-3 rolled, 24/19 played. */
export function exampleSnapshot(version = 12) {
  return scenarioSnapshot("white_move", version);
}
