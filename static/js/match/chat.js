// The match page's chat panel (docs/protocol.md "chat"). Every message is put in the page as
// text (textContent), never as HTML: a message holding markup shows that markup as typed.
// The list is kept by message id, so a snapshot and the live messages around it merge without
// repeats; a snapshot replaces what it covers (a block or a mute can hide earlier messages).

export const CHAT_MAX_LENGTH = 140;
const KEEP_MESSAGES = 200;

/** The text a message shows: its own, or its quick phrase in the page's language. */
export function messageText(message, t) {
  if (message.phrase) return t(`phrase_${message.phrase}`);
  return message.text || "";
}

/** Whether a match of this status has a chat: not before it starts (an open or cancelled
 * challenge; the server refuses with `match_not_started`, docs/protocol.md). */
export function chatOpen(status) {
  return status !== "open" && status !== "cancelled";
}

/** Merge a snapshot's messages with live ones that came after it (pure; for tests too). */
export function mergeMessages(current, snapshotMessages) {
  const last = snapshotMessages.length ? snapshotMessages[snapshotMessages.length - 1].id : 0;
  const newer = current.filter((m) => m.id > last);
  return [...snapshotMessages, ...newer].slice(-KEEP_MESSAGES);
}

export class ChatPanel {
  constructor(root, { t, send, mute }) {
    this.t = t;
    this.list = root.querySelector("#chat-list");
    this.note = root.querySelector("#chat-note");
    this.input = root.querySelector("#chat-input");
    this.muteBox = root.querySelector("#chat-mute");
    this.messages = [];
    this.isPlayer = false;
    this.live = true;
    this.open = true;
    this.controls = root.querySelectorAll("#chat-input, #chat-send, [data-phrase]");
    const form = root.querySelector("#chat-form");
    if (form) {
      form.addEventListener("submit", (ev) => {
        ev.preventDefault();
        const text = this.input.value.trim();
        if (!text || text.length > CHAT_MAX_LENGTH) return;
        if (send({ text })) this.input.value = "";
      });
    }
    root.querySelectorAll("[data-phrase]").forEach((button) => {
      button.addEventListener("click", () => send({ phrase: button.dataset.phrase }));
    });
    if (this.muteBox) this.muteBox.addEventListener("change", () => mute(this.muteBox.checked));
  }

  /** A snapshot's `state.chat` and `you`. */
  snapshot(chat, you, status) {
    this.isPlayer = !!(you && you.seat !== null && you.seat !== undefined);
    this.live = status === "open" || status === "active";
    this.messages = mergeMessages(this.messages, chat.messages || []);
    if (this.muteBox) this.muteBox.checked = !!chat.opponent_muted;
    this.draw();
  }

  /** The match's status, at every drawing: the chat opens when the match starts. */
  status(status) {
    const open = chatOpen(status);
    if (open === this.open) return;
    this.open = open;
    this.controls.forEach((control) => {
      control.disabled = !open;
    });
    this.draw();
  }

  add(message) {
    if (this.messages.some((m) => m.id === message.id)) return;
    this.messages.push(message);
    this.messages.sort((a, b) => a.id - b.id);
    this.messages = this.messages.slice(-KEEP_MESSAGES);
    this.draw();
  }

  muted(value) {
    if (this.muteBox) this.muteBox.checked = value;
  }

  draw() {
    if (!this.list) return;
    const atBottom = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.replaceChildren(...this.messages.map((m) => this.line(m)));
    if (atBottom) this.list.scrollTop = this.list.scrollHeight;
    if (this.note) {
      this.note.hidden = this.open && !(this.isPlayer && this.live);
      this.note.textContent = this.t(this.open ? "spectators_hidden" : "chat_not_started");
    }
  }

  line(message) {
    const item = document.createElement("li");
    item.className = `chat-line room-${message.room === "spectators" ? "spectators" : "players"}`;
    item.dataset.id = String(message.id);
    const author = document.createElement("span");
    author.className = "chat-author";
    author.textContent = message.user;
    item.append(author);
    if (message.room === "spectators") {
      const room = document.createElement("span");
      room.className = "chat-room muted";
      room.textContent = ` (${this.t("spectator")})`;
      item.append(room);
    }
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = messageText(message, this.t);
    item.append(": ", text);
    return item;
  }
}
