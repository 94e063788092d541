// The site socket of every page (/ws/me/, docs/protocol.md "The site socket"): a direct challenge
// appears as a small notice with Accept and Decline, and lapses with its two minutes; the bell
// (bell.js) hears every message too. While one
// waits, the tab's title and icon say so (tab.js), for a player looking at another tab.
import { bellMessage, bellSocket } from "./bell.js";
import { newClientSeed } from "./fairness.js";
import { postButton } from "./post_form.js";
import { tabOf } from "./tab.js";

const root = document.getElementById("site-notices");
const strings = JSON.parse(document.getElementById("notice-strings").textContent);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, key) => (key in values ? values[key] : `{${key}}`));
const notices = new Map(); // match id -> {element, timer, from}

/** The tab's challenge mark: who challenges (the latest), or how many challenges wait. */
function markTab() {
  const tab = tabOf(window);
  if (!tab) return;
  const waiting = [...notices.values()];
  let text = null;
  if (waiting.length === 1) text = fill(strings.tab_challenge, { name: waiting[0].from });
  else if (waiting.length > 1) text = fill(strings.tab_challenges, { n: waiting.length });
  tab.mark("challenge", text);
}

function settingsText(c) {
  const time = c.move_days ? fill(strings.days_per_move, { n: c.move_days })
    : c.turn_seconds ? strings.seconds.replace("{s}", c.turn_seconds) : strings.untimed;
  const cube = c.cube ? ` · ${strings.cube}` : "";
  return `${strings.rules[c.rules] || c.rules}${cube} · ${c.length} · ${time} · ${c.rated ? strings.rated : strings.casual}`;
}

function remove(matchId) {
  const notice = notices.get(matchId);
  if (!notice) return;
  clearInterval(notice.timer);
  notice.element.remove();
  notices.delete(matchId);
  markTab();
}

function showChallenge(c) {
  remove(c.match_id);
  const element = document.createElement("div");
  element.className = "site-notice";
  element.dataset.matchId = c.match_id;
  const text = document.createElement("p");
  text.textContent = fill(strings.challenge, { name: c.from, rating: c.rating, settings: settingsText(c) });
  const clock = document.createElement("p");
  clock.className = "muted";
  const buttons = document.createElement("div");
  buttons.className = "actions";
  buttons.append(
    postButton(c.accept_url, strings.accept, "primary", root.dataset.csrf, { client_seed: newClientSeed() }),
    postButton(c.decline_url, strings.decline, "quiet", root.dataset.csrf),
  );
  element.append(text, clock, buttons);
  root.append(element);
  const ends = Date.now() + c.expires_in * 1000;
  const tick = () => {
    const left = Math.ceil((ends - Date.now()) / 1000);
    if (left <= 0) remove(c.match_id);
    else if (!c.move_days) clock.textContent = fill(strings.expires, { s: left }); // a correspondence one waits days
  };
  tick();
  notices.set(c.match_id, { element, timer: setInterval(tick, 1000), from: c.from });
  markTab();
}

function showDeclined(message) {
  const element = document.createElement("div");
  element.className = "site-notice";
  element.textContent = fill(strings.declined, { name: message.by });
  root.append(element);
  setTimeout(() => element.remove(), 8000);
}

let delay = 1000;
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${location.host}/ws/me/`);
  bellSocket(socket);
  socket.addEventListener("open", () => {
    delay = 1000;
    document.body.dataset.siteSocket = "open"; // browser tests wait for it
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "challenge") showChallenge(message);
    else if (message.type === "challenge_gone") remove(message.match_id);
    else if (message.type === "challenge_declined") showDeclined(message);
    bellMessage(message);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4001 || event.code === 4029) return; // logged out, or too many sockets
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  });
}
connect();
