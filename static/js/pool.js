// Quick pairing on the Play page over the lobby socket (docs/protocol.md "Quick pairing"): the
// tiles join a pool, the waiting panel shows the pool's size, the time waited and the ratings
// accepted now, and a pair 400 points or more apart asks for a confirmation within 15 s.
import { newClientSeed } from "./fairness.js";

const COMMITMENT = /^[0-9a-f]{64}$/;

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));

export function poolName(key, strings) {
  const [rules, length, seconds, kind] = key.split(".");
  const time = (strings.seconds || "{s} s").replace("{s}", seconds);
  return `${(strings.rules && strings.rules[rules]) || rules} · ${length} · ${time} · ${strings[kind] || kind}`;
}

/** "1400–1600" for a rating and a window (null: any rating). */
export function windowText(rating, window, strings) {
  if (window === null || window === undefined) return strings.any_rating;
  return `${Math.round(rating - window)}–${Math.round(rating + window)}`;
}

/** The page's quick-pairing card (templates/games/_quick_pairing.html) as a panel, or null. */
export function pagePoolPanel() {
  const root = document.getElementById("quick-pairing");
  if (!root) return null;
  return new PoolPanel(root, JSON.parse(document.getElementById("pool-strings").textContent), {
    commitment: document.querySelector("[data-next-seed-hash]"),
  });
}

export class PoolPanel {
  constructor(root, strings, { navigate = (url) => window.location.assign(url), now = () => Date.now(), commitment = null } = {}) {
    this.root = root;
    // The page's commitment to the player's next server seed (games/next_seed.py), shown before
    // any join is sent and replaced by the server after each use.
    this.commitment = commitment;
    this.strings = strings;
    this.navigate = navigate;
    this.now = now;
    this.socket = null;
    this.status = null; // the last pool_waiting, with when it came
    this.proposal = null;
    this.ticker = null;
    this.waitingJoin = null; // the last join clicked while the socket was not open
    const on = (selector, fn) => {
      const element = root.querySelector(selector);
      if (element) element.addEventListener("click", fn);
    };
    for (const tile of root.querySelectorAll("[data-pool]")) {
      tile.addEventListener("click", () => this.join(tile.dataset.pool));
    }
    on("#pool-custom-join", () => {
      const value = (id) => root.querySelector(id).value;
      const kind = root.querySelector("#pool-rated").checked ? "rated" : "casual";
      this.join(`${value("#pool-rules")}.${value("#pool-length")}.${value("#pool-seconds")}.${kind}`);
    });
    on("#pool-cancel", () => {
      this.waitingJoin = null; // cancelled before the socket opened: no join follows
      this.send({ type: "pool_leave" });
    });
    on("#pool-accept", () => this.answer(true));
    on("#pool-decline", () => this.answer(false));
  }

  attach(socket) {
    this.socket = socket;
    // A tile clicked before the socket opened (a fast click on a slow connection) joins as it
    // opens, instead of the click being lost with nothing shown.
    socket.addEventListener("open", () => {
      const waiting = this.waitingJoin;
      this.waitingJoin = null;
      if (waiting) this.send(waiting);
    });
    // "New opponent" at the end of a paired match comes here with its pool (?pool=key): join it
    // once, and drop it from the address so a reload does not join again.
    const loc = globalThis.location;
    const key = loc ? new URLSearchParams(loc.search).get("pool") : null;
    if (!key || this.autoJoined) return;
    socket.addEventListener("open", () => {
      if (this.autoJoined) return;
      this.autoJoined = true;
      this.join(key);
      if (globalThis.history) history.replaceState(null, "", loc.pathname + loc.hash);
    });
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== 1) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  join(key) {
    this.error("");
    this.note("");
    // Sitting down: this browser contributes the client seed for the dice (games/fairness), with
    // the commitment the page shows: the wait plays on that server seed or the join is refused
    // (another tab used it) and the new one is shown. A page showing none (Redis away) sends no
    // seed of its own; the server then draws both.
    const shown = this.commitment ? this.commitment.textContent.trim() : "";
    const join = { type: "pool_join", pool: key };
    if (COMMITMENT.test(shown)) Object.assign(join, { client_seed: newClientSeed(), server_seed_hash: shown });
    this.waitingJoin = this.send(join) ? null : join;
  }

  answer(accept) {
    if (!this.proposal) return;
    this.send({ type: accept ? "pool_accept" : "pool_decline", proposal: this.proposal.proposal });
    if (accept) {
      this.proposal.accepted = true;
      this.drawProposal();
    }
  }

  /** A lobby-socket message; true when it was one of quick pairing's. */
  receive(message) {
    const handlers = {
      pools: () => this.drawCounts(message),
      pool_waiting: () => this.waiting(message),
      pool_proposal: () => this.proposed(message),
      pool_opponent_accepted: () => this.note(this.strings.opponent_accepted),
      pool_requeued: () => {
        this.endProposal();
        this.note(this.strings[`requeued_${message.reason}`] || "");
      },
      pool_left: () => this.stop(this.strings[`left_${message.reason}`] || ""),
      pool_matched: () => {
        this.stop(this.strings.matched);
        this.navigate(`/matches/${message.match_id}/`);
      },
      next_seed: () => {
        if (this.commitment && COMMITMENT.test(message.server_seed_hash)) this.commitment.textContent = message.server_seed_hash;
      },
      error: () => this.error(message.message),
    };
    const handler = handlers[message.type];
    if (!handler) return false;
    handler();
    return true;
  }

  drawCounts(message) {
    const online = this.root.querySelector("#online-count");
    if (online) online.textContent = fill(this.strings.online, { n: message.online });
    for (const element of this.root.querySelectorAll("[data-count-for]")) {
      const n = message.counts[element.dataset.countFor] || 0;
      element.textContent = fill(this.strings.waiting, { n });
    }
  }

  waiting(message) {
    this.status = { ...message, at: this.now() };
    if (!message.proposal) this.endProposal();
    for (const tile of this.root.querySelectorAll("[data-pool]")) {
      tile.classList.toggle("selected", tile.dataset.pool === message.pool);
    }
    this.root.querySelector("#pool-wait").hidden = false;
    this.drawWait();
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 1000);
  }

  /** The waited seconds and the answer clock move on between the server's reports. */
  tick() {
    this.drawWait();
    if (this.proposal) this.drawProposal();
  }

  drawWait() {
    const s = this.status;
    if (!s) return;
    // The seconds tick here; the window is the server's, refreshed with each report (2 s).
    const waited = s.waited + (this.now() - s.at) / 1000;
    this.root.querySelector("#pool-name").textContent = fill(this.strings.searching, { pool: poolName(s.pool, this.strings) });
    this.root.querySelector("#pool-status").textContent = fill(this.strings.status, {
      size: s.size,
      waited: Math.floor(waited),
      window: windowText(s.rating, s.window, this.strings),
    });
  }

  proposed(message) {
    this.proposal = { ...message, at: this.now(), accepted: false };
    this.root.querySelector("#pool-proposal").hidden = false;
    this.drawProposal();
    if (!this.ticker) this.ticker = setInterval(() => this.tick(), 1000);
  }

  drawProposal() {
    const p = this.proposal;
    const left = Math.max(0, Math.ceil(p.seconds - (this.now() - p.at) / 1000));
    this.root.querySelector("#pool-proposal-text").textContent = p.accepted
      ? this.strings.proposal_waiting
      : fill(this.strings.proposal, { name: p.opponent, rating: p.rating, gap: p.gap });
    this.root.querySelector("#pool-proposal-clock").textContent = fill(this.strings.proposal_clock, { s: left });
    for (const id of ["#pool-accept", "#pool-decline"]) this.root.querySelector(id).disabled = p.accepted;
  }

  endProposal() {
    this.proposal = null;
    this.root.querySelector("#pool-proposal").hidden = true;
  }

  stop(text) {
    this.status = null;
    this.endProposal();
    clearInterval(this.ticker);
    this.ticker = null;
    this.root.querySelector("#pool-wait").hidden = true;
    for (const tile of this.root.querySelectorAll("[data-pool]")) tile.classList.remove("selected");
    this.note(text);
  }

  note(text) {
    const element = this.root.querySelector("#pool-note");
    element.textContent = text;
    element.hidden = !text;
  }

  error(text) {
    const element = this.root.querySelector("#pool-error");
    element.textContent = text || "";
    element.hidden = !text;
  }
}
