// The bell in the header (docs/protocol.md "The site socket"): the unread count and the newest
// notifications, kept in PostgreSQL and delivered over /ws/me/ (notify.js opens it). Opening the
// bell marks what it shows read; a challenge in it has Accept and Decline while it is open.
import { newClientSeed } from "./fairness.js";
import { postButton } from "./post_form.js";

const root = document.getElementById("bell");
const strings = JSON.parse(document.getElementById("bell-strings")?.textContent || "{}");
const fill = (text, values) => (text || "").replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));
const SHOWN = 20;

let items = []; // newest first: {id, kind, from, at, read, data}
let unread = 0;
const openChallenges = new Set(); // match ids of direct challenges still waiting (notify.js)
let send = () => {};

function link(href, text) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}

/** The item's text and its link or buttons, in the page's language. */
function describe(item) {
  const data = item.data || {};
  const matchUrl = data.match_id ? `/matches/${data.match_id}/` : null;
  switch (item.kind) {
    case "challenge":
      return { text: fill(strings.challenge, { name: item.from || "" }), challenge: data };
    case "friend_playing":
      return { text: fill(strings.friend_playing, { name: data.player || item.from || "" }), href: matchUrl, action: strings.watch };
    case "arena_starting":
      return { text: fill(strings.arena_starting, { name: data.name || "" }), href: data.url, action: strings.open };
    case "correspondence_turn":
      return { text: fill(strings.correspondence_turn, { name: data.opponent || "" }), href: matchUrl, action: strings.open };
    case "correspondence_deadline":
      return { text: fill(strings.correspondence_deadline, { name: data.opponent || "" }), href: matchUrl, action: strings.open };
    case "analysis_ready":
      return { text: strings.analysis_ready, href: data.url, action: strings.open };
    case "report_decided":
      return { text: fill(data.acted ? strings.report_acted : strings.report_decided, { name: data.player || "" }) };
    default:
      return null; // a kind this page does not know yet: not shown
  }
}

function render() {
  const count = root.querySelector("#bell-count");
  count.hidden = unread === 0;
  count.textContent = unread > 99 ? "99+" : String(unread);
  root.querySelector("#bell-button").setAttribute("aria-label", fill(strings.unread, { n: unread }));
  const list = root.querySelector("#bell-list");
  list.replaceChildren();
  for (const item of items.slice(0, SHOWN)) {
    const shown = describe(item);
    if (!shown) continue;
    const li = document.createElement("li");
    li.className = `bell-item${item.read ? "" : " unread"}`;
    li.dataset.id = item.id;
    li.dataset.kind = item.kind;
    const text = document.createElement("span");
    text.className = "bell-text";
    text.textContent = shown.text;
    li.append(text);
    const actions = document.createElement("span");
    actions.className = "bell-actions";
    if (shown.challenge) {
      const c = shown.challenge;
      if (openChallenges.has(c.match_id)) {
        const csrf = document.getElementById("site-notices").dataset.csrf;
        actions.append(
          postButton(c.accept_url, strings.accept, "primary small", csrf, { client_seed: newClientSeed() }),
          postButton(c.decline_url, strings.decline, "quiet small", csrf),
        );
      } else {
        const closed = document.createElement("span");
        closed.className = "muted small";
        closed.textContent = strings.challenge_closed;
        actions.append(closed);
      }
    } else if (shown.href) {
      actions.append(link(shown.href, shown.action));
    }
    const clear = document.createElement("button");
    clear.type = "button";
    clear.className = "link-button bell-clear";
    clear.textContent = "×";
    clear.title = strings.clear;
    clear.setAttribute("aria-label", strings.clear);
    clear.addEventListener("click", () => send({ type: "notifications_clear", ids: [item.id] }));
    actions.append(clear);
    li.append(actions);
    list.append(li);
  }
  root.querySelector("#bell-empty").hidden = list.children.length > 0;
}

function isOpen() {
  return !root.querySelector("#bell-panel").hidden;
}

function toggle(open) {
  const panel = root.querySelector("#bell-panel");
  panel.hidden = !open;
  root.querySelector("#bell-button").setAttribute("aria-expanded", String(open));
  if (open && unread > 0) send({ type: "notifications_read", all: true });
}

/** A message of the site socket (notify.js): those the bell shows. */
export function bellMessage(message) {
  if (!root) return;
  if (message.type === "notifications") {
    items = message.items;
    unread = message.unread;
  } else if (message.type === "notification") {
    items = [message.notification, ...items.filter((item) => item.id !== message.notification.id)];
    unread = message.unread;
    if (isOpen()) send({ type: "notifications_read", all: true });
  } else if (message.type === "notifications_changed") {
    unread = message.unread;
    if (message.read === "all") items = items.map((item) => ({ ...item, read: true }));
    else if (message.read) items = items.map((item) => (message.read.includes(item.id) ? { ...item, read: true } : item));
    if (message.cleared === "all") items = [];
    else if (message.cleared) items = items.filter((item) => !message.cleared.includes(item.id));
  } else if (message.type === "challenge") openChallenges.add(message.match_id);
  else if (message.type === "challenge_gone") openChallenges.delete(message.match_id);
  else return;
  render();
}

/** The socket to send the bell's commands on (a new one after each reconnection). */
export function bellSocket(socket) {
  send = (command) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(command));
  };
}

if (root) {
  root.querySelector("#bell-button").addEventListener("click", (event) => {
    event.preventDefault(); // without the script, the link opens the notifications page
    toggle(!isOpen());
  });
  root.querySelector("#bell-clear-all").addEventListener("click", () => send({ type: "notifications_clear", all: true }));
  document.addEventListener("click", (event) => {
    if (isOpen() && !root.contains(event.target)) toggle(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) toggle(false);
  });
}
