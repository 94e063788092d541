// The home page (templates/home.html): quick pairing (pool.js), the live matches as small live
// boards and the players online, both moved on by the lobby socket's `live_boards`, sent at most
// once a period for every socket (docs/protocol.md "Live boards").
import { connectLobby } from "./lobby_socket.js";
import { MiniBoards } from "./mini_boards.js";
import { pagePoolPanel } from "./pool.js";
import { ratingText, readStrings, translator } from "./strings.js";

const t = translator({ board: "Board" }, readStrings("home-strings"));
const pool = pagePoolPanel();
const $ = (id) => document.getElementById(id);

// The caption: each player on a line with their colour (the one to move in bold) and the score.
function caption(game) {
  const text = document.createDocumentFragment();
  for (const p of game.players) {
    const line = document.createElement("span");
    line.className = `player${p.side === game.turn ? " to-move" : ""}`;
    const dot = document.createElement("span");
    dot.className = `side side-${p.side}`;
    line.append(dot, `${p.username} (${ratingText(p)})`);
    text.append(line);
  }
  const score = document.createElement("span");
  score.className = "score";
  score.textContent = `${game.players.map((p) => p.score).join(":")} / ${game.length}`;
  text.append(score);
  return text;
}

const boards = new MiniBoards($("live-boards"), {
  caption,
  label: (game) => `${t("board")}: ${game.players.map((p) => p.username).join(" – ")}`,
});

function showLive(message) {
  boards.show(message.matches);
  $("no-live").hidden = message.matches.length > 0;
  $("matches-live").textContent = String(message.live);
  $("players-online").textContent = String(message.online);
}

showLive(JSON.parse($("live-boards-data").textContent));
connectLobby({
  query: "?boards=1",
  onSocket: (socket) => { if (pool) pool.attach(socket); },
  onMessage: (message) => {
    if (message.type === "live_boards") showLive(message);
    else if (pool) pool.receive(message);
  },
});
