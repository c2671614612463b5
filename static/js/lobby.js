// The lobby's live panel: connects to /ws/lobby/, shows how many players are
// online and reconnects (with growing pauses) whenever the socket drops.

const panel = document.getElementById("online");
const countEl = panel.querySelector("[data-online-count]");
const statusEl = panel.querySelector("[data-connection-status]");
const MAX_PAUSE_MS = 30000;

let pauseMs = 1000;

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${panel.dataset.socketPath}`;
}

function connect() {
  const socket = new WebSocket(socketUrl());

  socket.addEventListener("open", () => {
    pauseMs = 1000;
    statusEl.textContent = "Live";
  });

  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "online") {
      countEl.textContent = String(message.count);
    }
  });

  socket.addEventListener("close", (event) => {
    if (event.code === 4401 || event.code === 4403) {
      statusEl.textContent = "Signed out: log in again to see who is online.";
      return; // reconnecting would only be refused again
    }
    statusEl.textContent = `Disconnected; retrying in ${Math.round(pauseMs / 1000)} s…`;
    window.setTimeout(connect, pauseMs);
    pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
  });
}

connect();
