// One lobby socket (/ws/lobby/) per signed-in page. It shows the member's
// notices on whatever page is open ("Your sit-n-go has started — take your
// seat", with the link), and passes every message to the page's own scripts
// (listen) with the connection's state (onStatus). Reconnects with growing
// pauses, but not once closed for being signed out.

// The sockets' close codes by name (config/platform/close_codes.py), written into every page.
export const CLOSE = JSON.parse(document.getElementById("close-codes").textContent);
const MAX_PAUSE_MS = 30000;
const handlers = new Set();
const statusHandlers = new Set();
let pauseMs = 1000;

export function listen(handler) {
  handlers.add(handler);
}

export function onStatus(handler) {
  statusHandlers.add(handler);
}

function setStatus(text) {
  for (const handler of statusHandlers) handler(text);
}

/** Shows a notice in the banner under the navigation (also used by the table page). */
export function showNotice(notice) {
  const box = document.getElementById("site-notice");
  if (!box || !notice) return;
  box.querySelector("[data-notice-text]").textContent = notice.text;
  const link = box.querySelector("[data-notice-link]");
  link.hidden = !notice.url;
  if (notice.url) {
    link.href = notice.url;
    const seated = notice.kind === "tournament_started" || notice.kind === "table_moved";
    link.textContent = seated ? "Take your seat" : "See the tournament";
  }
  box.dataset.kind = notice.kind || "";
  box.hidden = false;
}

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}/ws/lobby/`;
}

/** A tournament moved you to another table: a table page goes there by itself. */
export function followsMove(notice) {
  if (!notice || notice.kind !== "table_moved" || !notice.url) return false;
  if (!/^\/tables\/\d+\/$/.test(window.location.pathname)) return false;
  if (window.location.pathname === notice.url) return false;
  window.location.assign(notice.url);
  return true;
}

function connect() {
  const socket = new WebSocket(socketUrl());
  socket.addEventListener("open", () => {
    pauseMs = 1000;
    setStatus("Live");
  });
  socket.addEventListener("message", (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    if (message.type === "notice" && followsMove(message.notice)) return;
    if (message.type === "notice") showNotice(message.notice);
    for (const handler of handlers) handler(message);
  });
  socket.addEventListener("close", (event) => {
    if (event.code === CLOSE.UNAUTHENTICATED || event.code === CLOSE.SESSION_ENDED) {
      setStatus("Signed out: log in again for live updates.");
      return; // reconnecting would only be refused again
    }
    setStatus(`Disconnected; retrying in ${Math.round(pauseMs / 1000)} s…`);
    window.setTimeout(connect, pauseMs);
    pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
  });
}

const closeButton = document.querySelector("#site-notice [data-notice-close]");
if (closeButton) {
  closeButton.addEventListener("click", () => {
    document.getElementById("site-notice").hidden = true;
  });
}
if (!document.body.dataset.noLobbySocket) connect();
