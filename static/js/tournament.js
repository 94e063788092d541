// The tournament page (templates/tournaments/tournament.html): its socket /ws/tournaments/<id>/
// (docs/protocol.md "Tournament socket"), the countdown, the standings with one's own row, the
// top games as small boards, the chat, and join / pause / withdraw. Every change is the server's:
// the page only draws what the socket sends.

import { MiniBoards } from "./mini_boards.js";
import { readStrings, translator } from "./strings.js";

const root = document.getElementById("tournament");
const t = translator({}, readStrings("tournament-strings"));
const $ = (id) => document.getElementById(id);
const state = {
  status: root.dataset.status,
  starts: Number(root.dataset.starts) * 1000,
  ends: Number(root.dataset.ends) * 1000,
  page: 1,
  pages: 1,
  socket: null,
  me: undefined, // the viewer's `me` of the last standings (undefined: none came yet)
};

function clockText(ms) {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

function tick() {
  const now = Date.now();
  let text = "";
  if (state.status === "scheduled") text = `· ${t("starts_in", { time: clockText(state.starts - now) })}`;
  else if (state.status === "running") text = `· ${t("ends_in", { time: clockText(state.ends - now) })}`;
  $("countdown").textContent = text; // over: the status beside it says so
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function rowOf(row, own) {
  const tr = document.createElement("tr");
  tr.dataset.user = row.user;
  if (own) tr.classList.add("own");
  if (row.struck_out) {
    tr.classList.add("struck");
    tr.title = t("struck_out");
  }
  tr.append(cell(row.place === null ? "–" : String(row.place)));
  const name = cell(row.user);
  if (row.on_fire) {
    const fire = document.createElement("span");
    fire.className = "fire";
    fire.title = t("on_fire");
    fire.textContent = " 🔥";
    name.append(fire);
  }
  if (row.playing || row.away) {
    const note = document.createElement("span");
    note.className = "muted";
    note.textContent = ` (${row.playing ? t("playing") : t("away")})`;
    name.append(note);
  }
  tr.append(name, cell(String(row.points), "num"),
    cell(row.performance === null ? "–" : String(row.performance), "num perf"),
    cell(String(row.wins), "num"), cell(String(row.losses), "num"));
  return tr;
}

function showStandings(message) {
  state.page = message.page;
  state.pages = message.pages;
  setStatus(message.status);
  $("standings-rows").replaceChildren(...message.rows.map((row) => rowOf(row, message.own && row.user_id === message.own.user_id)));
  const own = message.own && !message.rows.some((row) => row.user_id === message.own.user_id);
  $("own-row").replaceChildren(...(own ? [rowOf(message.own, true)] : []));
  $("page-label").textContent = `${message.page} / ${message.pages}`;
  $("player-count").textContent = String(message.players);
  showPodium(message.podium || []);
  state.me = message.me;
  showControls(message.me);
  showChat(message.me);
}

function showPodium(podium) {
  $("podium-card").hidden = podium.length === 0;
  $("podium").replaceChildren(...podium.map((row) => {
    const li = document.createElement("li");
    li.className = `place-${row.place}`;
    li.textContent = `${row.user} `;
    const points = document.createElement("span");
    points.className = "muted";
    points.textContent = String(row.points);
    li.append(points);
    return li;
  }));
}

function showControls(me) {
  if (!$("join")) return;
  const over = state.status === "finished" || state.status === "cancelled";
  const joined = Boolean(me && me.joined);
  $("join").hidden = joined || over || Boolean(me && me.removed);
  $("withdraw").hidden = !joined || over;
  $("pause").hidden = !joined || over || me.paused;
  $("resume").hidden = !joined || over || !me.paused;
  // Paused by the arena after a match left to the opponent (docs/rules.md "Arena tournaments").
  $("paused-as-absent").hidden = !joined || over || !me.paused_as_absent;
  const link = $("my-match");
  link.hidden = !(me && me.playing);
  if (me && me.playing) link.href = `/matches/${me.playing}/`;
}

// The chat's form for a player not removed, until the end; the note for everyone else
// (tournaments/selectors.py `may_chat` chose the same for the page as served).
function showChat(me) {
  const form = $("chat-form");
  const over = state.status === "finished" || state.status === "cancelled";
  const open = Boolean(form && me && !me.removed && !over);
  if (form) form.hidden = !open;
  $("chat-closed").hidden = open;
}

function setStatus(status) {
  if (!status || status === state.status) return;
  state.status = status;
  root.dataset.status = status;
  $("tournament-status").textContent = t(status);
  tick();
  // The end comes as a `status` message at once, its standings and podium with the next sweep
  // (docs/protocol.md "Tournament socket"): a finished tournament offers no pause or withdraw
  // meanwhile, nor a visitor a login to join it (templates/tournaments/tournament.html).
  if (state.me !== undefined) {
    showControls(state.me);
    showChat(state.me);
  }
  const login = $("log-in-to-join");
  if (login) login.hidden = status === "finished" || status === "cancelled";
}

const boards = new MiniBoards($("top-games"), {
  caption: (game) => game.players.join(" – "),
  label: (game) => `${t("board")}: ${game.players.join(" – ")}`,
});

function showBoards(games) {
  $("no-games").hidden = games.length > 0;
  boards.show(games);
}

function addChat(line) {
  const li = document.createElement("li");
  const who = document.createElement("b");
  who.textContent = line.user;
  li.append(who, ` ${line.text}`);
  const list = $("chat-lines");
  list.append(li);
  list.scrollTop = list.scrollHeight;
}

function showError(text) {
  const box = $("tournament-error");
  box.textContent = text;
  box.hidden = !text;
}

const handlers = {
  standings: showStandings,
  boards: (message) => showBoards(message.games),
  chat: (message) => addChat(message.line),
  status: (message) => setStatus(message.status),
  paired: (message) => { window.location.href = `/matches/${message.match_id}/`; },
  ack: () => showError(""),
  error: (message) => showError(message.message),
};

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

function connect(delay = 1000) {
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const key = root.dataset.key ? `?key=${encodeURIComponent(root.dataset.key)}` : "";
  const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tournaments/${root.dataset.id}/${key}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    if (state.page !== 1) send({ type: "page", page: state.page });
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const handler = handlers[message.type];
    if (handler) handler(message);
  });
  socket.addEventListener("close", () => {
    showError(t("reconnecting"));
    setTimeout(() => connect(Math.min(delay * 2, 15000)), delay);
  });
}

for (const [id, message] of [
  ["join", { type: "join" }], ["withdraw", { type: "withdraw" }],
  ["pause", { type: "pause", pause: true }], ["resume", { type: "pause", pause: false }],
]) {
  const button = $(id);
  if (button) button.addEventListener("click", () => send(message));
}
$("page-prev").addEventListener("click", () => { if (state.page > 1) send({ type: "page", page: state.page - 1 }); });
$("page-next").addEventListener("click", () => { if (state.page < state.pages) send({ type: "page", page: state.page + 1 }); });
const chatForm = $("chat-form");
if (chatForm) {
  chatForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("chat-text");
    if (input.value.trim()) send({ type: "chat", text: input.value });
    input.value = "";
  });
}

tick();
setInterval(tick, 1000);
connect();
