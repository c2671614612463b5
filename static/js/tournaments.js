// The tournament lobby (/tournaments/): every SNG's row follows the lobby
// socket's {"type": "tournament"} messages without a reload (counts, starts,
// levels, finishes); a new SNG gets a row, one that started moves to "Running".

import { listen, onStatus } from "./live.js";
import { ordinal } from "./places.js";

const csrf = document.querySelector("[name=csrfmiddlewaretoken]");
const status = document.querySelector("[data-connection-status]");
const urls = document.getElementById("sng-lobby").dataset;

onStatus((text) => {
  status.textContent = text;
});
listen((message) => {
  if (message.type === "tournament" && message.tournament.kind === "sng") update(message.tournament);
});

function cell(text, attribute) {
  const td = document.createElement("td");
  td.textContent = text;
  if (attribute) td.setAttribute(attribute, "");
  return td;
}

function link(text, href) {
  const td = document.createElement("td");
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  td.append(a);
  return td;
}

function levelText(level) {
  if (!level) return "";
  const ante = level.ante ? `, ante ${level.ante}` : "";
  return `${level.level} (${level.small_blind}/${level.big_blind}${ante})`;
}

function registerCell(t, isRegistered) {
  const td = document.createElement("td");
  const form = document.createElement("form");
  form.method = "post";
  form.action = (isRegistered ? urls.unregisterUrl : urls.registerUrl).replace("ID", t.id);
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = csrf ? csrf.value : "";
  const button = document.createElement("button");
  button.type = "submit";
  button.dataset.register = "";
  button.textContent = isRegistered ? "Unregister" : "Register";
  form.append(token, button);
  td.append(form);
  return td;
}

function row(t, old) {
  const tr = document.createElement("tr");
  tr.dataset.tournamentId = String(t.id);
  if (t.status === "registering") {
    const isRegistered = old ? old.dataset.registered === "true" : false;
    tr.dataset.registered = String(isRegistered);
    tr.append(
      link(t.kind === "mtt" ? t.title : t.structure[0].toUpperCase() + t.structure.slice(1), t.url),
      cell(t.game_name, "data-game"),
      cell(t.buy_in ? String(t.buy_in) : "Freeroll"),
      cell(`${t.registered}/${t.entrant_limit}${rebuys(t)}`, "data-count"),
      cell(String(t.prize_pool), "data-pool"),
      cell(t.payouts.join(" / ") || "—", "data-payouts"),
      registerCell(t, isRegistered),
    );
  } else if (t.status === "running") {
    // Registered before the start, or in it since: the member plays in it, and the
    // first button takes them to their seat, wherever it is now (not to watch).
    const isPlaying = old ? old.dataset.registered === "true" || old.dataset.playing === "true" : false;
    tr.dataset.playing = String(isPlaying);
    const watch = document.createElement("td");
    if (isPlaying) {
      const a = document.createElement("a");
      a.className = "button";
      a.href = `/tournaments/${t.id}/seat/`;
      a.dataset.seatLink = "";
      a.textContent = "Take your seat";
      watch.append(a);
    } else if (t.tables.length) {
      const a = document.createElement("a");
      a.href = `/tables/${t.tables[0]}/`;
      a.textContent = "Watch";
      watch.append(a);
    }
    tr.append(
      link(t.title, t.url),
      cell(t.game_name, "data-game"),
      cell(t.announcement ? `${levelText(t.level)} — ${t.announcement}` : levelText(t.level), "data-level"),
      cell(`${t.players_left}/${t.registered}${rebuys(t)}`, "data-left"),
      cell(String(t.prize_pool)),
      watch,
    );
  } else {
    const winners = t.winners.map((w) => `${ordinal(w.place)} ${w.name} (${w.prize})`).join(", ");
    tr.append(link(t.title, t.url), cell(t.game_name, "data-game"), cell(winners));
  }
  return tr;
}

function update(t) {
  const old = document.querySelector(`tr[data-tournament-id="${t.id}"]`);
  const section = document.querySelector(`table[data-section="${t.status}"] tbody`);
  if (old) old.remove();
  if (!section) return; // cancelled: gone from the lobby
  const fresh = row(t, old);
  section.querySelectorAll(".empty-row").forEach((empty) => empty.remove());
  if (t.status === "registering") section.append(fresh);
  else section.prepend(fresh);
}

/** " · 5 rebuys" after the entries of a tournament with rebuys. */
function rebuys(t) {
  if (!t.rebuys) return "";
  const count = t.rebuys.rebuys;
  return ` · ${count} rebuy${count === 1 ? "" : "s"}`;
}
