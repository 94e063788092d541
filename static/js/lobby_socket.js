// The lobby socket /ws/lobby/ (docs/protocol.md "The lobby socket"), shared by the Play and Watch
// pages (lobby.js) and the home page (home.js): connects, hands each message to `onMessage`, and
// reconnects after a close, waiting twice as long each time up to 30 s.

/** Open the lobby socket (`query`: "?boards=1" for the home page's live boards); `onSocket` is
 * given each new socket before it opens (quick pairing sends on it). */
export function connectLobby({ query = "", onMessage, onSocket = () => {} }) {
  let delay = 1000;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(`${scheme}${location.host}/ws/lobby/${query}`);
    socket.addEventListener("open", () => { delay = 1000; });
    onSocket(socket);
    socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
    socket.addEventListener("close", () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  };
  connect();
}
