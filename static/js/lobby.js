// Live Play/Watch lists over /ws/lobby/ (docs/protocol.md "The lobby socket").
import { ratingText } from "./strings.js";

const strings = JSON.parse(document.getElementById("lobby-strings").textContent);

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function link(href, text) {
  const td = document.createElement("td");
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  td.append(a);
  return td;
}

function fill(table, rows, emptyText, columns) {
  if (!table) return;
  const body = table.tBodies[0];
  body.replaceChildren();
  if (!rows.length) {
    const tr = document.createElement("tr");
    tr.className = "empty";
    const td = cell(emptyText);
    td.colSpan = columns;
    td.className = "muted";
    tr.append(td);
    body.append(tr);
    return;
  }
  for (const row of rows) body.append(row);
}

// The page's language comes with the strings (templates/games/_lobby_lists.html); the socket sends codes.
const seconds = (s) => (strings.seconds || "{s} s").replace("{s}", s);
const rulesName = (code) => (strings.rules && strings.rules[code]) || code;

function render(message) {
  fill(document.getElementById("open-challenges"), message.open.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.matchId = c.id;
    const time = c.turn_seconds ? seconds(c.turn_seconds) + (c.reserve_seconds ? ` + ${seconds(c.reserve_seconds)}` : "") : "∞";
    tr.append(cell(c.creator), cell(ratingText(c)), cell(rulesName(c.rules)), cell(c.length), cell(time),
      cell(c.rated ? strings.rated : strings.casual), link(`/matches/${c.id}/`, strings.view));
    return tr;
  }), strings.noOpen, 7);
  fill(document.getElementById("live-matches"), message.live.map((m) => {
    const tr = document.createElement("tr");
    tr.dataset.matchId = m.id;
    tr.append(
      cell(m.players.map((p) => `${p.username} (${ratingText(p)})`).join(" – ")),
      cell(`${m.players.map((p) => p.score).join(":")} / ${m.length}`),
      cell(rulesName(m.rules)), cell(m.spectators), link(`/matches/${m.id}/`, strings.watch));
    return tr;
  }), strings.noLive, 5);
}

let delay = 1000;
function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const socket = new WebSocket(`${scheme}${location.host}/ws/lobby/`);
  socket.addEventListener("open", () => { delay = 1000; });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "lobby") render(message);
  });
  socket.addEventListener("close", () => {
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 30000);
  });
}
connect();
