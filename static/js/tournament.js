// One tournament's page: its facts and players follow the lobby socket's
// {"type": "tournament"} messages for this tournament, and the time to the
// next level counts down.

import { listen, onStatus } from "./live.js";

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

function update(t) {
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
  setText("[data-payouts]", t.payouts.map((prize, i) => `${i + 1}. ${prize}`).join(" · "));
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
  const rows = t.players.map((p) => {
    const tr = document.createElement("tr");
    const bought = t.rebuys ? [`${p.rebuys}${p.has_added_on ? " + add-on" : ""}`] : [];
    const bounties = t.bounties ? [p.bounty ?? "", p.bounties_won || ""] : [];
    const name = p.is_reentry ? `${p.name} (re-entry)` : p.name;
    for (const value of [name, p.stack ?? "", ...bought, ...bounties, p.place ?? "", p.prize || ""]) {
      const td = document.createElement("td");
      td.textContent = String(value);
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
  if (!next || !next.dataset.endsAt) return;
  const seconds = Math.max(0, Math.ceil((Date.parse(next.dataset.endsAt) - Date.now()) / 1000));
  next.textContent = `in ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

tick();
window.setInterval(tick, 1000);
