// Face to face at the table (docs/protocol.md "Calls"): WebRTC between the two players' browsers,
// signalled over the match socket. Nothing is asked of the browser until the player presses
// Camera or Microphone; each toggles at any time. Seat 0 offers whenever both pages are in the
// call, seat 1 answers; each page has one audio and one video transceiver from the start, so a
// toggle replaces a track and never renegotiates. The server relays the signalling to the
// opponent only, and the media never passes through it. TURN credentials last minutes: while
// in the call the page asks for new ones before they expire (the server gives them only while
// the match is active), so a later ICE restart or peer connection can still reach the relay.

// The server takes SDP parts of at most 3000 characters; JSON escapes of CR LF grow a part, so
// parts are kept smaller than that to stay under the 4 KiB frame.
export const SDP_PART_CHARS = 2400;
const SESSION_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const KINDS = ["audio", "video"];

/** An SDP in parts for `call_offer` / `call_answer` (pure; for tests too). */
export function splitSdp(sdp, size = SDP_PART_CHARS) {
  const parts = [];
  for (let at = 0; at < sdp.length; at += size) parts.push(sdp.slice(at, at + size));
  return parts;
}

/** Collects the parts of each SDP by sender and kind; `add` returns the whole SDP once all came. */
export class SdpParts {
  constructor() {
    this.pending = new Map();
  }

  add(msg) {
    const key = `${msg.type}:${msg.session}`;
    let entry = this.pending.get(key);
    if (msg.part === 0 || !entry || entry.parts.length !== msg.parts) {
      entry = { parts: new Array(msg.parts).fill(null) };
      this.pending.set(key, entry);
    }
    entry.parts[msg.part] = msg.sdp;
    if (entry.parts.some((part) => part === null)) return null;
    this.pending.delete(key);
    return entry.parts.join("");
  }
}

/** A page's call session: 16 random letters and digits (the server takes 8–40 of them). */
export function newSession(random = Math.random) {
  let session = "";
  for (let i = 0; i < 16; i++) session += SESSION_CHARS[Math.floor(random() * SESSION_CHARS.length)];
  return session;
}

/**
 * When to ask for new TURN credentials, in ms from their arrival: at 80 % of their lifetime (the
 * ack's `ice_expires_in`, seconds), never sooner than 5 s; null without TURN (nothing expires).
 */
export function renewalDelay(expiresIn) {
  if (typeof expiresIn !== "number" || !(expiresIn > 0)) return null;
  return Math.max(5000, Math.floor(expiresIn * 800));
}

/** Whether this viewer may call in this state: a player of an active match against a person. */
export function mayCall(view, mySeat) {
  if (!view || !view.match || mySeat === null || mySeat === undefined) return false;
  const opponent = view.match.players.find((p) => p.seat !== mySeat);
  return view.match.status === "active" && !!opponent && !opponent.bot;
}

/**
 * new CallPanel(root, {t, socket, media, PeerConnection, timers})
 *   socket: the match socket client (match/socket.js): send(msg) returns the frame's id
 *   media:  navigator.mediaDevices; PeerConnection: RTCPeerConnection; timers: setTimeout and
 *           clearTimeout (all replaceable in tests)
 * The page passes it every call_* message (receive), every answer to a frame it sent (reply) and
 * each new state (update).
 */
export class CallPanel {
  constructor(root, { t, socket, media, PeerConnection, timers = globalThis }) {
    this.t = t;
    this.socket = socket;
    this.media = media;
    this.PeerConnection = PeerConnection;
    this.timers = timers;
    this.renewal = null; // the timer that asks for new TURN credentials
    this.$ = (id) => root.querySelector(`#${id}`);
    this.panel = this.$("call-panel");
    this.tile = this.$("call-tile-opponent");
    this.selfTile = this.$("call-tile-self");
    this.seat = null;
    this.allowed = false;
    this.session = null; // this page's session while it is in the call
    this.local = { audio: null, video: null };
    this.peer = null; // {session} of the opponent's page in the call
    this.remoteMedia = { audio: false, video: false };
    this.hidden = { audio: false, video: false }; // the opponent's, turned off here
    this.pc = null;
    this.remoteStream = null;
    this.pendingIce = [];
    this.parts = new SdpParts();
    this.waiting = new Map(); // frame id -> resolve
    this.$("call-camera").addEventListener("click", () => this.toggle("video"));
    this.$("call-mic").addEventListener("click", () => this.toggle("audio"));
    this.$("call-hangup").addEventListener("click", () => this.hangUp({ tell: true }));
    this.$("call-hide-video").addEventListener("change", (ev) => this.hide("video", ev.target.checked));
    this.$("call-hide-sound").addEventListener("change", (ev) => this.hide("audio", ev.target.checked));
  }

  get inCall() {
    return this.session !== null;
  }

  /** A new state of the match or of the connection: a call lives only while the match does. */
  update(view, mySeat, connection) {
    this.seat = mySeat;
    const final = !["open", "lost", "connecting"].includes(connection);
    this.allowed = mayCall(view, mySeat) && !final;
    this.panel.hidden = !this.allowed;
    if (!this.allowed && this.inCall) this.hangUp({ tell: !final });
  }

  send(type, fields = {}) {
    return this.socket.send({ type, session: this.session, ...fields });
  }

  reply(msg, error) {
    const resolve = this.waiting.get(msg.id);
    if (!resolve) return;
    this.waiting.delete(msg.id);
    resolve(error ? null : msg);
  }

  request(msg) {
    const id = this.socket.send(msg);
    if (!id) return Promise.resolve(null);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  note(text) {
    const el = this.$("call-note");
    el.textContent = text || "";
    el.hidden = !text;
  }

  async toggle(kind) {
    if (!this.allowed || this.busy) return;
    this.busy = true;
    try {
      if (!this.inCall && !(await this.join())) return;
      const track = this.local[kind];
      if (kind === "audio" && track && track.readyState === "live") {
        track.enabled = !track.enabled; // muting keeps the microphone's track, disabled
      } else if (track) {
        this.setLocal(kind, null); // the camera off: the track stops (and its light goes out)
      } else {
        let stream;
        try {
          stream = await this.media.getUserMedia({ [kind]: true });
        } catch (_) {
          this.note(this.t("call_denied"));
          return;
        }
        if (!this.inCall) {
          stream.getTracks().forEach((each) => each.stop());
          return;
        }
        this.setLocal(kind, stream.getTracks()[0]);
      }
      this.sendMedia();
      this.draw();
    } finally {
      this.busy = false;
    }
  }

  async join() {
    const ack = await this.request({ type: "call_join" });
    if (!ack || !this.allowed) return false;
    this.session = newSession();
    this.useIceServers(ack);
    this.note("");
    if (this.peer && this.seat === 0) this.offer();
    return true;
  }

  /** The ICE servers of a `call_join` ack, for the next gathering; new ones asked for in time. */
  useIceServers(ack) {
    this.iceServers = ack.ice_servers || [];
    if (this.pc) {
      // Allocations already made keep their relay; the new credentials serve an ICE restart.
      try {
        this.pc.setConfiguration({ ...this.pc.getConfiguration(), iceServers: this.iceServers });
      } catch (_) {
        // a closed connection: the next one is made with them
      }
    }
    this.timers.clearTimeout(this.renewal);
    this.renewal = null;
    const delay = renewalDelay(ack.ice_expires_in);
    if (delay !== null) this.renewal = this.timers.setTimeout(() => this.renew(), delay);
  }

  async renew() {
    this.renewal = null;
    if (!this.inCall) return;
    const ack = await this.request({ type: "call_join" });
    // Refused (the match is over, or too many this hour: the page shows the server's reason):
    // the call goes on with the relays it has.
    if (ack && this.inCall) this.useIceServers(ack);
  }

  setLocal(kind, track) {
    const old = this.local[kind];
    if (old && old !== track) old.stop();
    this.local[kind] = track;
    const sender = this.senderOf(kind);
    if (sender) sender.replaceTrack(track).catch(() => {});
  }

  sendMedia() {
    const audio = !!(this.local.audio && this.local.audio.enabled);
    this.send("call_media", { audio, video: !!this.local.video });
  }

  /** The call_* messages from the opponent's page (or the server's hang-up on a block). */
  receive(msg) {
    if (msg.type === "call_media") return this.onMedia(msg);
    if (msg.type === "call_hangup") return this.onHangup(msg);
    if (!this.inCall || msg.to !== this.session) return; // for another tab of this player
    if (msg.type === "call_ice") return this.onIce(msg);
    const sdp = this.parts.add(msg);
    if (sdp === null) return;
    if (msg.type === "call_offer") this.onOffer(msg.session, sdp);
    else if (this.peer && this.peer.session === msg.session && this.pc) {
      this.pc.setRemoteDescription({ type: "answer", sdp }).then(() => this.flushIce(), () => {});
    }
  }

  onMedia(msg) {
    const isNew = !this.peer || this.peer.session !== msg.session;
    if (isNew) this.meet(msg.session);
    this.remoteMedia = { audio: msg.audio, video: msg.video };
    this.draw();
    if (!this.inCall) {
      this.note(this.t("call_opponent_in"));
      return;
    }
    if (isNew) {
      this.sendMedia(); // so that the opponent's page learns this one
      if (this.seat === 0) this.offer();
    }
  }

  meet(session) {
    this.closePeer();
    this.peer = { session };
    this.restarted = false;
  }

  onHangup(msg) {
    if (msg.reason === "blocked") {
      this.hangUp({ tell: false });
      this.note(this.t("call_blocked"));
      return;
    }
    if (!this.peer || this.peer.session !== msg.session) return;
    this.closePeer();
    this.peer = null;
    this.remoteMedia = { audio: false, video: false };
    this.draw();
  }

  makePeer() {
    if (this.pc) return this.pc;
    const pc = new this.PeerConnection({ iceServers: this.iceServers || [] });
    this.pc = pc;
    this.remoteStream = new MediaStream();
    pc.onicecandidate = (ev) => {
      if (ev.candidate && this.peer) this.send("call_ice", { to: this.peer.session, candidate: ev.candidate.toJSON() });
    };
    pc.ontrack = (ev) => {
      this.remoteStream.addTrack(ev.track);
      this.tile.srcObject = this.remoteStream;
      this.tile.play().catch(() => {});
      this.draw();
    };
    pc.onconnectionstatechange = () => {
      if (pc.connectionState !== "failed" || this.pc !== pc) return;
      // A path lost for good (a network changed): the offerer tries once more with fresh
      // candidates; failing again, the page closed without a word, so the call waits for the
      // opponent's next call_media.
      if (this.seat === 0 && !this.restarted) {
        this.restarted = true;
        this.offer({ iceRestart: true });
        return;
      }
      this.closePeer();
      this.peer = null;
      this.draw();
    };
    return pc;
  }

  async offer(options = {}) {
    const pc = this.makePeer();
    if (!pc.getTransceivers().length) {
      for (const kind of KINDS) {
      pc.addTransceiver(kind, { direction: "sendrecv" }).sender.replaceTrack(this.local[kind]).catch(() => {});
    }
    }
    await pc.setLocalDescription(await pc.createOffer(options));
    this.sendSdp("call_offer", pc.localDescription.sdp);
  }

  async onOffer(session, sdp) {
    if (!this.peer || this.peer.session !== session) this.meet(session);
    const pc = this.makePeer();
    try {
      await pc.setRemoteDescription({ type: "offer", sdp });
      for (const transceiver of pc.getTransceivers()) {
        transceiver.direction = "sendrecv";
        await transceiver.sender.replaceTrack(this.local[transceiver.receiver.track.kind] || null);
      }
      await this.flushIce();
      await pc.setLocalDescription(await pc.createAnswer());
      this.sendSdp("call_answer", pc.localDescription.sdp);
    } catch (_) {
      this.closePeer(); // a broken offer: the opponent's page offers again when it rejoins
    }
  }

  sendSdp(type, sdp) {
    const parts = splitSdp(sdp);
    parts.forEach((part, i) => this.send(type, { to: this.peer.session, sdp: part, part: i, parts: parts.length }));
  }

  onIce(msg) {
    if (!this.peer || this.peer.session !== msg.session) return;
    this.pendingIce.push(msg.candidate);
    this.flushIce();
  }

  async flushIce() {
    const pc = this.pc;
    if (!pc || !pc.remoteDescription) return;
    const queued = this.pendingIce.splice(0);
    for (const candidate of queued) await pc.addIceCandidate(candidate).catch(() => {});
  }

  senderOf(kind) {
    if (!this.pc) return null;
    const transceiver = this.pc.getTransceivers().find((each) => each.receiver.track.kind === kind);
    return transceiver ? transceiver.sender : null;
  }

  hide(kind, hidden) {
    this.hidden[kind] = hidden; // here only: the opponent is told nothing
    this.draw();
  }

  closePeer() {
    if (this.pc) this.pc.close();
    this.pc = null;
    this.pendingIce = [];
    if (this.remoteStream) this.remoteStream.getTracks().forEach((track) => track.stop());
    this.remoteStream = null;
    this.tile.srcObject = null;
  }

  /** Leave the call: devices released, the connection closed, the opponent told (`tell`). */
  hangUp({ tell }) {
    if (!this.inCall) return;
    if (tell) this.send("call_hangup");
    this.closePeer();
    for (const kind of KINDS) this.setLocal(kind, null);
    this.session = null;
    this.timers.clearTimeout(this.renewal);
    this.renewal = null;
    this.draw();
  }

  draw() {
    for (const kind of KINDS) {
      const track = this.remoteStream && this.remoteStream.getTracks().find((each) => each.kind === kind);
      if (track) track.enabled = this.remoteMedia[kind] && !this.hidden[kind];
    }
    this.tile.hidden = !(this.pc && this.remoteMedia.video && !this.hidden.video);
    const own = this.local.video;
    if (this.selfTile.srcObject !== null && !own) this.selfTile.srcObject = null;
    if (own && (!this.selfTile.srcObject || this.selfTile.srcObject.getVideoTracks()[0] !== own)) {
      this.selfTile.srcObject = new MediaStream([own]);
      this.selfTile.play().catch(() => {});
    }
    this.selfTile.hidden = !own;
    const audioOn = !!(this.local.audio && this.local.audio.enabled);
    this.$("call-camera").setAttribute("aria-pressed", String(!!own));
    this.$("call-mic").setAttribute("aria-pressed", String(audioOn));
    this.$("call-hangup").hidden = !this.inCall;
    this.$("call-opponent").hidden = !this.inCall;
  }
}

/** The page's call panel, when the page has one (a player's match page). */
export function attachCall(root, { t, socket }) {
  if (!root.querySelector("#call-panel") || !globalThis.RTCPeerConnection || !navigator.mediaDevices) return null;
  const call = new CallPanel(root, { t, socket, media: navigator.mediaDevices, PeerConnection: globalThis.RTCPeerConnection });
  // Leaving the page (leave the table, another link, closing the tab) ends the call at once for
  // the opponent too, rather than when their connection notices.
  window.addEventListener("pagehide", () => call.hangUp({ tell: true }));
  return call;
}
