// One tournament's page: its facts and players follow the lobby socket's
// {"type": "tournament"} messages for this tournament, and the time to the
// next level counts down. Each state of a tournament shows its own lines (what
// it pays, a deal, the columns of its players): when the state changes (it
// starts, ends, is cancelled, a deal is made, a break begins or ends) the
// page's tournament is drawn again from the server's page, in place, so the
// socket and any notice on the page stay.

import { listen, onStatus } from "./live.js";
import { showLocalTimes } from "./localtime.js";
import { ordinal } from "./places.js";

const root = document.getElementById("tournament");
const id = Number(root.dataset.tournamentId);
const find = (selector) => root.querySelector(selector);
const STATUS = { registering: "Registering", running: "Running", finished: "Finished", cancelled: "Cancelled" };

onStatus((text) => {
  find("[data-connection-status]").textContent = text;
});
listen((message) => {
  if (message.type === "tournament" && message.tournament.id === id) update(message.tournament);
});

function setText(selector, text) {
  const element = find(selector);
  if (element) element.textContent = text;
}

/** Each player's cell by its column's name (the page's table head lists them). */
const CELLS = {
  name: (p) => (p.is_reentry ? `${p.name} (re-entry)` : p.name),
  stack: (p) => p.stack ?? "",
  rebuys: (p) => `${p.rebuys}${p.has_added_on ? " + add-on" : ""}`,
  bounty: (p) => p.bounty ?? "",
  bounties_won: (p) => p.bounties_won || "",
  place: (p) => ordinal(p.place),
  place_prize: (p) => p.place_prize || "",
  deal: (p) => p.deal ?? "",
  paid: (p) => p.paid || "",
};

function isAnotherState(t) {
  const isOnBreak = Boolean(t.level && t.level.break_ends_at);
  return (
    t.status !== root.dataset.state ||
    Boolean(t.deal) !== root.hasAttribute("data-has-deal") ||
    (t.status === "running" && isOnBreak !== Boolean(find("[data-break]")))
  );
}

let redrawing = null; // the fetch of the page under way, if any

/** The tournament drawn again from a fresh copy of this page (its new state). */
async function redraw() {
  const response = await fetch(window.location.href, { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("tournament");
  if (!fresh) return;
  const connection = find("[data-connection-status]").textContent;
  for (const name of ["data-state", "data-has-deal"]) {
    if (fresh.hasAttribute(name)) root.setAttribute(name, fresh.getAttribute(name));
    else root.removeAttribute(name);
  }
  root.replaceChildren(...[...fresh.childNodes].map((node) => document.importNode(node, true)));
  find("[data-connection-status]").textContent = connection;
  showLocalTimes(root);
  tick();
}

function update(t) {
  if (isAnotherState(t)) {
    // One fetch at a time; a change that comes during it is drawn by the next.
    redrawing = (redrawing || Promise.resolve()).then(redraw).catch(() => window.location.reload());
    return;
  }
  setText("[data-status]", STATUS[t.status] || t.status);
  // A registered player's "Take your seat", drawn hidden before the start (it leads to
  // wherever their seat is); gone once the tournament is over.
  const seatLink = find("[data-seat-link]");
  if (seatLink) seatLink.hidden = t.status !== "running";
  const left = t.players_left === null ? "" : `, ${t.players_left} left`;
  setText("[data-count]", `${t.registered}/${t.entrant_limit}${left}`);
  setText("[data-average-stack]", t.average_stack === null ? "—" : String(t.average_stack));
  const seating = find("[data-seating]");
  if (seating && t.seating.length) seating.replaceChildren(...t.seating.map(tableBox));
  if (t.rebuys) setText("[data-rebuy-count]", rebuyCount(t.rebuys));
  if (t.reentries !== null) {
    setText("[data-reentry-count]", `${t.reentries} re-entr${t.reentries === 1 ? "y" : "ies"} so far`);
  }
  if (t.bounties) setText("[data-bounties-taken]", `${t.bounties.taken} taken`);
  setText("[data-pool]", `${t.prize_pool} points`);
  const payouts = find("[data-payouts][data-none]"); // what it pays, before a deal or the end
  if (payouts) {
    payouts.textContent = t.payouts.map((prize, i) => `${ordinal(i + 1)} ${prize}`).join(" · ") || payouts.dataset.none;
  }
  root.querySelectorAll("[data-deal-pending]").forEach((line) => {
    line.hidden = !t.has_open_deal;
  });
  if (t.level) {
    const ante = t.level.ante ? `, ante ${t.level.ante}` : "";
    const news = t.announcement ? ` — ${t.announcement}` : "";
    setText("[data-level]", `${t.level.level}: blinds ${t.level.small_blind}/${t.level.big_blind}${ante}${news}`);
    const next = find("[data-next-level]");
    if (next) next.dataset.endsAt = t.level.ends_at || "";
    root.querySelectorAll("[data-level-row]").forEach((tr) => {
      const isCurrent = t.status === "running" && Number(tr.dataset.levelRow) === t.level.level;
      tr.classList.toggle("current", isCurrent);
    });
  }
  const columns = [...root.querySelectorAll("[data-columns] [data-column]")].map((th) => th.dataset.column);
  const rows = t.players.map((p) => {
    const tr = document.createElement("tr");
    for (const column of columns) {
      const td = document.createElement("td");
      td.textContent = String(CELLS[column](p));
      tr.append(td);
    }
    return tr;
  });
  if (rows.length) find("[data-players]").replaceChildren(...rows);
}

/** "4 rebuys, 2 add-ons so far" (the add-ons where the tournament has one). */
function rebuyCount(r) {
  const addOns = r.addon_chips ? `, ${counted(r.add_ons, "add-on")}` : "";
  return `${counted(r.rebuys, "rebuy")}${addOns} so far`;
}

function counted(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** One table of a multi-table tournament: its name (a link) and who sits where. */
function tableBox(table) {
  const box = document.createElement("div");
  box.className = "seating";
  box.dataset.seatingTable = String(table.id);
  const title = document.createElement("h3");
  const link = document.createElement("a");
  link.href = table.url;
  link.textContent = table.name;
  title.append(link);
  const list = document.createElement("ul");
  for (const p of table.players) {
    const item = document.createElement("li");
    item.textContent = `Seat ${p.seat}: ${p.name} · ${p.stack}`;
    list.append(item);
  }
  box.append(title, list);
  return box;
}

function tick() {
  const next = find("[data-next-level]");
  if (!next) return;
  if (!next.dataset.endsAt) {
    next.textContent = "None: this is the last level";
    return;
  }
  const seconds = Math.max(0, Math.ceil((Date.parse(next.dataset.endsAt) - Date.now()) / 1000));
  next.textContent = `in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

tick();
window.setInterval(tick, 1000);
