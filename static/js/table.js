// The table client: keeps a websocket to /ws/tables/<id>/ open (reconnecting
// with growing pauses), draws every snapshot the server sends, and sends the
// player's commands. The server is the authority: nothing is drawn from
// guesses, only from the latest snapshot.

import { Controls } from "./controls.js";
import { CLOSE, followsMove, showNotice } from "./live.js";
import { logLines, stackChangeLines } from "./handlog.js";
import { addChat, wireChat } from "./chat.js";
import { TableCut } from "./cut.js";
import { renderBusted, renderLedger, renderSeatEnd, showRemoved } from "./ledger.js";
import { renderPurchases } from "./purchases.js";
import { hideAwayWithSeat, renderSeatControls, wireAway } from "./away.js";
import { renderDeal, wireDeal } from "./deal.js";
import { isBarred, isHost, markClicked, renderHost, showSetting, wireHost } from "./host.js";
import { RequestAlerts } from "./requests.js";
import { CLOCK_WARNING_SECONDS, play, playAll, soundsFor, wireSoundButton } from "./sounds.js";
import { icon } from "./icons.js";
import { moveChips } from "./motion.js";
import { SidePanel } from "./panel.js";
import { highlightWinningCards, playerName, potText, renderBoard, renderSeats } from "./render.js";
import { announcement, blindsText } from "./announce.js";
import {
  GAME_NAMES,
  optionsText,
  renderOptions,
  renderRunout,
  renderStraddle,
  wireHomeGame,
} from "./homegame.js";

const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 15000;
const TOAST_MS = 4000;
const LOGGED_HANDS = 3; // the log keeps the current hand and the two before it
// Close codes after which reconnecting cannot help (docs/protocol.md): say why and stop.
const FINAL_CLOSE_TEXTS = new Map([
  [CLOSE.UNAUTHENTICATED, "Log in again to play at this table."],
  [CLOSE.SESSION_ENDED, "You were signed out (or your password changed). Log in again to play."],
  [CLOSE.NOT_FOUND, "This table does not exist."],
  [CLOSE.MEMBERS_ONLY, "This is a club's table: only its members see it."],
  [CLOSE.RATE_LIMITED, "Too many messages from this page: reload it to reconnect."],
]);
// CLOSE.TOO_MANY_SOCKETS, refused at the handshake for opening too many sockets
// (config/platform/socket_limits.py), passes: the page tries again later as after a drop, and says so.

const root = document.getElementById("table");
const find = (selector) => root.querySelector(selector);
const parts = {
  seats: find("[data-seats]"),
  motion: find("[data-motion]"),
  board: find("[data-board]"),
  pot: find("[data-pot]"),
  announce: find("[data-announce]"),
  handNumber: find("[data-hand-number]"),
  sealed: find("[data-sealed]"),
  cut: find("[data-cut]"),
  blinds: find("[data-blinds]"),
  game: find("[data-game]"),
  options: find("[data-options]"),
  runout: find("[data-runout]"),
  straddle: find("[data-straddle-box]"),
  optionsForm: find("[data-options-form]"),
  level: find("[data-level]"),
  nextLevel: find("[data-next-level]"),
  status: find("[data-connection-status]"),
  dock: find("[data-dock]"),
  dockReason: find("[data-dock-reason]"),
  log: find("[data-log]"),
  toast: find("[data-toast]"),
  seatControls: find("[data-seat-controls]"),
  away: find("[data-away]"),
  busted: find("[data-busted]"),
  purchases: find("[data-purchases]"),
  deal: find("[data-deal]"),
  removed: find("[data-removed]"),
  ledger: find("[data-ledger]"),
  chat: find("[data-chat]"),
  chatForm: find("[data-chat-form]"),
  host: find("[data-host-panel]"),
};
const userId = Number(root.dataset.userId);

let socket = null;
let pauseMs = FIRST_PAUSE_MS;
let table = null;
let clockOffsetMs = 0; // server clock minus this browser's clock
let toastTimer = null;
let isGoingToLobby = false; // "Leave" on the busted panel: to the lobby once the seat is gone
const handLogs = new Map(); // hand number -> lines
const pageTitle = document.title;
// The socket's state, shown over the felt: "connecting" (the first time), "live",
// "waiting" (closed, trying again at retryAt), "reconnecting" (trying) or "closed" (for good).
const connection = { state: "connecting", retryAt: 0, wasRefused: false, finalText: "" };

/** Sends ``message`` if the socket is open; says whether it did. */
function sendQuietly(message) {
  const isOpen = socket !== null && socket.readyState === WebSocket.OPEN;
  if (isOpen) socket.send(JSON.stringify(message));
  return isOpen;
}

function send(message) {
  if (sendQuietly(message)) return;
  showToast("Not connected; your click was not sent. Reconnecting…");
  controls.release();
}

const controls = new Controls(find("[data-controls]"), send, find("[data-pre-actions]"));
const cut = new TableCut(parts.cut, sendQuietly); // the players' cut: sent on its own, unseen
const panel = new SidePanel(find("[data-panel]"), find("[data-panel-toggle]"));
const requestBox = find("[data-request-toasts]"); // friends' tables only
const alerts = requestBox && new RequestAlerts(requestBox, root.querySelectorAll("[data-request-count]"), send);

function socketUrl() {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${root.dataset.socketPath}`;
}

function connect() {
  if (connection.state === "waiting") connection.state = "reconnecting";
  showConnection();
  socket = new WebSocket(socketUrl());
  socket.addEventListener("open", () => {
    pauseMs = FIRST_PAUSE_MS;
    cut.connected();
    connection.state = "live";
    showConnection();
  });
  socket.addEventListener("message", (event) => onMessage(event.data));
  socket.addEventListener("close", (event) => {
    if (FINAL_CLOSE_TEXTS.has(event.code)) {
      connection.state = "closed";
      connection.finalText = FINAL_CLOSE_TEXTS.get(event.code);
    } else {
      connection.state = "waiting";
      connection.wasRefused = event.code === CLOSE.TOO_MANY_SOCKETS;
      connection.retryAt = Date.now() + pauseMs;
      window.setTimeout(connect, pauseMs);
      pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
    }
    showConnection();
  });
}

/** What the banner over the felt says; "Live" (and no banner) while connected. */
function connectionText() {
  const cause = connection.wasRefused ? "Too many connections just now" : "Connection lost";
  switch (connection.state) {
    case "live":
      return "Live";
    case "connecting":
      return "Connecting…";
    case "closed":
      return connection.finalText;
    case "reconnecting":
      return `${cause} — reconnecting…`;
    default:
      return `${cause} — reconnecting in ${Math.max(1, Math.ceil((connection.retryAt - Date.now()) / 1000))} s…`;
  }
}

/** The banner, and the dock's controls switched off (with why) while not connected. */
function showConnection() {
  const isLive = connection.state === "live";
  root.dataset.connected = String(isLive);
  root.dataset.connection = connection.state;
  parts.status.textContent = connectionText();
  parts.dock.inert = !isLive;
  parts.dockReason.hidden = isLive || connection.state === "connecting";
  parts.dockReason.textContent =
    connection.state === "closed"
      ? "Not connected: nothing you click here is sent."
      : "Not connected: your buttons work again once the table is back.";
}

function onMessage(data) {
  let message;
  try {
    message = JSON.parse(data);
  } catch {
    return;
  }
  if (message.type === "snapshot") {
    onSnapshot(message);
  } else if (message.type === "presence") {
    const seat = table && table.seats[message.seat];
    if (seat && seat.occupied) {
      seat.disconnected_since = message.disconnected_since;
      render();
    }
  } else if (message.type === "chat") {
    addChat(parts.chat, [message]);
    panel.noteChat();
  } else if (message.type === "notice") {
    // A coming blind level or the money reached passes in a toast; a tournament's start
    // or your place stays in the banner until dismissed.
    const passing = message.notice.kind === "level" || message.notice.kind === "money";
    if (passing) showToast(message.notice.text);
    else if (message.notice.kind === "removed") showRemoved(parts.removed, message.notice, table);
    else if (!followsMove(message.notice)) showNotice(message.notice);
  } else if (message.type === "cut_accepted") {
    cut.accepted(message);
  } else if (message.type === "error" && !cut.tookError(message)) {
    showToast(message.message || message.code);
    controls.release();
  }
}

function onSnapshot(message) {
  if (table && message.seq < table.seq) return; // an older frame overtaken by a newer one
  const previous = table;
  table = { ...message.table, seq: message.seq, you_are_barred: isBarred(message.table, userId) };
  playAll(soundsFor(previous, table));
  if (message.table.chat) parts.chat.replaceChildren(); // on (re)connect: the last lines again
  if (message.table.chat) addChat(parts.chat, message.table.chat);
  if (table.server_time) clockOffsetMs = Date.parse(table.server_time) - Date.now();
  root.dataset.seq = String(table.seq);
  render();
  cut.update(table);
  moveChips(parts.motion, previous, table, potPoint());
}

/** Where the pot is drawn, in % of the chips' layer: chips slide to and from it. */
function potPoint() {
  const layer = parts.motion.getBoundingClientRect();
  const pot = parts.pot.getBoundingClientRect();
  if (!layer.width || !layer.height) return [50, 50];
  const x = ((pot.left + pot.width / 2 - layer.left) / layer.width) * 100;
  const y = ((pot.top + pot.height / 2 - layer.top) / layer.height) * 100;
  return [x, y];
}

function render() {
  renderSeats(parts.seats, table);
  renderBoard(parts.board, table.hand); // a run-out arrives a street per snapshot (rule 30)
  highlightWinningCards(find(".table-area"), table);
  parts.pot.textContent = potText(table);
  parts.handNumber.textContent = table.hand_number ? `Hand #${table.hand_number}` : "Waiting for players";
  parts.blinds.textContent = blindsText(table);
  parts.game.textContent = GAME_NAMES[table.game] || "";
  parts.options.textContent = optionsText(table);
  renderRunout(parts.runout, table);
  if (parts.straddle) renderStraddle(parts.straddle, table);
  if (parts.level && table.level) parts.level.textContent = `Level ${table.level}`;
  renderSeal();
  const isYourTurn = table.legal && table.to_act === table.your_seat;
  document.title = `${isYourTurn ? "Your turn · " : ""}${pageTitle}`;
  renderSeatControls(parts.seatControls, parts.away, table);
  const autoRebuy = parts.seatControls.querySelector("[data-auto-rebuy]");
  if (autoRebuy) showSetting(autoRebuy, Boolean(table.auto_rebuy));
  renderBusted(parts.busted, table);
  if (parts.purchases) renderPurchases(parts.purchases, table, secondsUntil);
  if (parts.deal) renderDeal(parts.deal, table, secondsUntil);
  renderSeatEnd(parts.seatControls, parts.removed, table);
  hideAwayWithSeat(parts.away, parts.seatControls);
  if (parts.ledger) renderLedger(parts.ledger, table);
  if (parts.host) renderHost(parts.host, table, userId);
  if (alerts) alerts.update(table, isHost(table, userId));
  if (parts.optionsForm && !parts.host.hidden) renderOptions(parts.optionsForm, table);
  panel.sync();
  if (isGoingToLobby && table.your_seat === null) window.location.assign("/");
  renderLog();
  controls.update(table);
  tick();
}

/** The hand's deck commitment (docs/fairness.md): a mark, with the hash on hover or click. */
function renderSeal() {
  parts.sealed.hidden = !table.commitment;
  if (!table.commitment) return;
  parts.sealed.title = `This hand's deck was sealed before the deal: ${table.commitment}`;
  if (parts.sealed.dataset.commitment !== table.commitment) {
    parts.sealed.dataset.commitment = table.commitment;
    showSeal(false);
  }
}

/** The mark closed ("Deck sealed", only the lock on a phone) or open (the hash). */
function showSeal(isOpen) {
  const words = document.createElement("span");
  words.className = isOpen ? "" : "pill-words";
  words.textContent = isOpen ? ` ${table.commitment}` : " Deck sealed";
  parts.sealed.dataset.open = String(isOpen);
  parts.sealed.replaceChildren(icon("lock"), words);
}

parts.sealed.addEventListener("click", () => showSeal(parts.sealed.dataset.open !== "true"));

function renderLog() {
  const changes = stackChangeLines(table.stack_changes, table.hand_number); // the host's
  if (table.hand && table.hand_number) {
    const nameOf = (seat) => playerName(table, seat);
    handLogs.set(table.hand_number, [...logLines(table.hand.log, nameOf, table.your_seat), ...changes]);
  } else if (changes.length) handLogs.set(0, changes); // before the first hand
  const numbers = [...handLogs.keys()].sort((a, b) => a - b).slice(-LOGGED_HANDS);
  for (const number of handLogs.keys()) {
    if (!numbers.includes(number)) handLogs.delete(number);
  }
  const items = [];
  for (const number of numbers) {
    const heading = document.createElement("li");
    heading.className = "log-hand";
    heading.textContent = number ? `Hand #${number}` : "Before the first hand";
    items.push(heading);
    for (const line of handLogs.get(number)) {
      const item = document.createElement("li");
      item.textContent = line;
      items.push(item);
    }
  }
  parts.log.replaceChildren(...items);
  parts.log.scrollTop = parts.log.scrollHeight;
}

function secondsUntil(iso) {
  return (Date.parse(iso) - (Date.now() + clockOffsetMs)) / 1000;
}

let warnedDecision = null; // the decision (and clock) whose running-out beeps have sounded

function warnIfYourClockRunsOut(left, total) {
  const isYours = table.your_seat !== null && table.to_act === table.your_seat;
  const clockId = `${table.decision}:${table.is_time_bank}`; // the time bank warns again
  if (!isYours || warnedDecision === clockId) return;
  if (left <= CLOCK_WARNING_SECONDS && total > CLOCK_WARNING_SECONDS) {
    warnedDecision = clockId;
    play("clock");
  }
}

/** Runs a few times a second: the action clock and the next-hand countdown. */
function tick() {
  if (!table) return;
  if (parts.purchases && table.your_purchases) renderPurchases(parts.purchases, table, secondsUntil);
  if (parts.deal && table.deal) renderDeal(parts.deal, table, secondsUntil);
  if (connection.state === "waiting") parts.status.textContent = connectionText(); // the countdown
  const clock = parts.seats.querySelector("[data-clock]");
  const isLive = connection.state === "live";
  if (clock) clock.classList.toggle("paused", !isLive);
  if (clock && !isLive) {
    // Offline, the page cannot know the server's clock: it stops, never counting to red.
    clock.classList.remove("urgent");
    clock.querySelector(".clock-text").textContent = "Paused: offline";
  } else if (clock && table.deadline) {
    const left = Math.max(0, secondsUntil(table.deadline));
    const actor = table.seats[table.to_act] || {};
    const total = table.is_time_bank ? Math.max(actor.time_bank || left, 1) : table.action_seconds || 20;
    clock.classList.toggle("time-bank", Boolean(table.is_time_bank));
    clock.classList.toggle("urgent", left < 5);
    warnIfYourClockRunsOut(left, total);
    clock.querySelector(".clock-fill").style.transform = `scaleX(${Math.min(1, left / total)})`;
    clock.querySelector(".clock-text").textContent =
      `${Math.ceil(left)} s${table.is_time_bank ? " · time bank" : ""}`;
  }
  parts.announce.textContent = announcement(table, secondsUntil);
  // A hand run twice names a winner per board: room for both.
  parts.announce.classList.toggle("twice", Boolean(table.hand && table.hand.second_board.length));
  if (parts.nextLevel) {
    const left = table.level_ends_at ? Math.max(0, Math.ceil(secondsUntil(table.level_ends_at))) : null;
    parts.nextLevel.textContent =
      left === null
        ? "Last level"
        : left === 0
          ? "New level from the next hand"
          : `Next level in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }
}


function showToast(text) {
  parts.toast.textContent = text;
  parts.toast.hidden = false;
  window.clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => {
    parts.toast.hidden = true;
  }, TOAST_MS);
}

function wirePage() {
  wireChat(parts.chatForm, send);
  wireSoundButton(find("[data-sound]"));
  if (parts.host) wireHost(parts.host, send);
  if (parts.deal) wireDeal(parts.deal, send, () => table, secondsUntil);
  wireHomeGame(root, send, () => table);
  wireAway(parts.away, send);
  parts.seats.addEventListener("click", (event) => {
    const button = event.target.closest("[data-sit]");
    if (!button) return;
    send({ type: "sit", seat: Number(button.dataset.sit) });
    if (table && table.seat_approval && !isHost(table, userId)) {
      showToast("Asked the host: you sit down once they agree.");
    }
  });
  parts.seatControls.querySelectorAll("[data-command]").forEach((button) => {
    button.addEventListener("click", () => send({ type: button.dataset.command }));
  });
  parts.busted.querySelector('[data-command="rebuy"]').addEventListener("click", () => send({ type: "rebuy" }));
  parts.purchases?.querySelectorAll("[data-command]").forEach((button) => {
    button.addEventListener("click", () => send({ type: button.dataset.command }));
  });
  const autoRebuy = parts.seatControls.querySelector("[data-auto-rebuy]");
  autoRebuy?.addEventListener("change", () => {
    markClicked(autoRebuy);
    send({ type: "auto_rebuy", on: autoRebuy.checked });
  });
  // Watching: the seat is given up and the page stays, as a spectator's.
  parts.busted.querySelector('[data-command="watch"]').addEventListener("click", () => send({ type: "leave" }));
  parts.busted.querySelector('[data-command="leave_table"]').addEventListener("click", () => {
    if (table && table.your_seat === null) {
      window.location.assign("/"); // out of a tournament, the seat already cleared
      return;
    }
    isGoingToLobby = true;
    send({ type: "leave" });
  });
  wireInvite();
}

const COPIED_MS = 2000;

/** The head's Invite button copies the table's link; where the clipboard cannot be
 * written (no clipboard API outside https, or refused), it shows the link to copy. */
function wireInvite() {
  const link = find("[data-share-link]");
  if (!link) return; // practice and tournament tables are not shared
  const button = find("[data-copy-link]");
  const fallback = find("[data-invite-fallback]");
  button.addEventListener("click", async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard here");
      await navigator.clipboard.writeText(link.value);
    } catch {
      fallback.hidden = false;
      link.focus();
      link.select();
      return;
    }
    button.textContent = "Copied";
    window.setTimeout(() => (button.textContent = "Invite"), COPIED_MS);
  });
  const close = () => (fallback.hidden = true);
  link.addEventListener("blur", close);
  link.addEventListener("keydown", (event) => event.key === "Escape" && close());
}

wirePage();
connect();
window.setInterval(tick, 250);
