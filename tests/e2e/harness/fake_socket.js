// A fake WebSocket for the static harness pages: records what the page sends and lets the
// harness (or a playwright script) push server messages with window.fakeServer.push(msg).
(function () {
  const sent = [];
  const sockets = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      sockets.push(this);
      setTimeout(() => {
        this.readyState = 1;
        if (this.onopen) this.onopen({});
        if (window.fakeServer.onConnect) window.fakeServer.onConnect(this);
      }, 10);
    }
    send(text) {
      const msg = JSON.parse(text);
      sent.push(msg);
      if (window.fakeServer.onCommand) window.fakeServer.onCommand(msg, this);
    }
    close(code = 1000) {
      this.readyState = 3;
      if (this.onclose) this.onclose({ code });
    }
  }
  window.WebSocket = FakeSocket;
  window.fakeServer = {
    sent,
    sockets,
    push(msg) {
      const ws = sockets[sockets.length - 1];
      if (ws && ws.onmessage) ws.onmessage({ data: JSON.stringify(msg) });
    },
    drop(code) {
      const ws = sockets[sockets.length - 1];
      if (ws) ws.close(code);
    },
    onConnect: null,
    onCommand: null,
  };
})();
