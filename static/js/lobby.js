// Live Play/Watch lists over /ws/lobby/ (docs/protocol.md "The lobby socket"), the open
// challenges' filters, and quick pairing on the Play page (pool.js).
import { connectLobby } from "./lobby_socket.js";
import { pagePoolPanel } from "./pool.js";
import { ratingText } from "./strings.js";

const strings = JSON.parse(document.getElementById("lobby-strings").textContent);
const pool = pagePoolPanel();

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

// The row's action: its link covers the whole row (site.css ".row-link"), so a phone's tap
// anywhere on a row opens it.
function link(href, text) {
  const td = document.createElement("td");
  td.className = "row-action";
  const a = document.createElement("a");
  a.className = "row-link";
  a.href = href;
  a.textContent = text;
  td.append(a);
  return td;
}

// The viewer's own open challenge: Cancel beside View (games/views.py match_cancel).
function cancelForm(id, csrf) {
  const form = document.createElement("form");
  form.method = "post";
  form.action = `/matches/${id}/cancel/`;
  form.className = "inline";
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrf;
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "quiet";
  button.dataset.cancel = String(id);
  button.textContent = strings.cancel;
  form.append(token, button);
  return form;
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
// "Traditional · doubling cube" for a match played with the cube.
const rulesText = (row) => rulesName(row.rules) + (row.cube ? ` · ${strings.cube || "cube"}` : "");

// The open challenges' filters (rule set, time per turn): rows that do not match are hidden.
const filters = { rules: document.getElementById("filter-rules"), seconds: document.getElementById("filter-seconds") };

function applyFilters() {
  const table = document.getElementById("open-challenges");
  if (!table || !filters.rules) return;
  for (const tr of table.tBodies[0].rows) {
    if (tr.classList.contains("empty")) continue;
    const rules = filters.rules.value;
    const seconds = filters.seconds.value;
    tr.hidden = (rules && tr.dataset.rules !== rules) || (seconds && tr.dataset.seconds !== seconds);
  }
}
for (const select of Object.values(filters)) if (select) select.addEventListener("change", applyFilters);
applyFilters();

function range(c) {
  if (c.min_rating === null && c.max_rating === null) return "";
  return ` · ${c.min_rating ?? "…"}–${c.max_rating ?? "…"}`;
}

function render(message) {
  const openTable = document.getElementById("open-challenges");
  const me = openTable && openTable.dataset.me;
  fill(openTable, message.open.map((c) => {
    const tr = document.createElement("tr");
    tr.dataset.matchId = c.id;
    tr.dataset.rules = c.rules;
    tr.dataset.seconds = c.turn_seconds ? String(c.turn_seconds) : "0";
    const time = c.clock_name || (c.move_days ? strings.daysPerMove.replace("{n}", c.move_days) : "") ||
      (c.turn_seconds ? seconds(c.turn_seconds) + (c.reserve_seconds ? ` + ${seconds(c.reserve_seconds)}` : "") : "∞");
    const action = link(`/matches/${c.id}/`, strings.view);
    if (me && c.creator === me) action.append(" ", cancelForm(c.id, openTable.dataset.csrf));
    tr.append(cell(c.creator), cell(`${ratingText(c)}${range(c)}`), cell(rulesText(c)), cell(c.length), cell(time),
      cell(c.rated ? strings.rated : strings.casual), action);
    return tr;
  }), strings.noOpen, 7);
  applyFilters();
  fill(document.getElementById("live-matches"), message.live.map((m) => {
    const tr = document.createElement("tr");
    tr.dataset.matchId = m.id;
    tr.append(
      cell(m.players.map((p) => `${p.username} (${ratingText(p)})`).join(" – ")),
      cell(`${m.players.map((p) => p.score).join(":")} / ${m.length}`),
      cell(rulesText(m)), cell(m.spectators), link(`/matches/${m.id}/`, strings.watch));
    return tr;
  }), strings.noLive, 5);
}

connectLobby({
  onSocket: (socket) => { if (pool) pool.attach(socket); },
  onMessage: (message) => {
    if (message.type === "lobby") render(message);
    else if (pool) pool.receive(message);
  },
});
