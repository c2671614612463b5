// The lobby's live panels, from the page's lobby socket (live.js), which also
// reconnects when it drops: how many players are online, and the friends' tables
// with a free seat as their hosts list them or take them off the list
// (docs/protocol.md, "The lobby socket"). A table of the member's own (marked
// data-mine by the page) stays in their list when its host takes it off.

import { listen, onStatus } from "./live.js";

const panel = document.getElementById("online");
const countEl = panel.querySelector("[data-online-count]");
const statusEl = panel.querySelector("[data-connection-status]");
const tableList = document.querySelector("[data-open-tables]");
const noTables = document.querySelector("[data-no-open-tables]");

onStatus((text) => {
  statusEl.textContent = text.startsWith("Signed out") ? "Signed out: log in again to see who is online." : text;
});

function span(text, data) {
  const node = document.createElement("span");
  node.textContent = text;
  if (data) node.setAttribute(data, "");
  return node;
}

/** The line templates/lobby.html draws for a listed table. */
function tableLine(row) {
  const line = document.createElement("p");
  line.className = "open-table";
  line.dataset.tableId = String(row.id);
  const link = document.createElement("a");
  link.href = row.url;
  link.textContent = row.name;
  const facts = [span(row.game, "data-game"), row.blinds, ...row.options];
  facts.push(span(`${row.players}/${row.seat_count} seated`, "data-seats-taken"));
  line.append(link);
  for (const fact of facts) line.append(" · ", fact);
  return line;
}

function lineOf(id) {
  return tableList.querySelector(`[data-table-id="${Number(id)}"]`);
}

function showTable(row) {
  const old = lineOf(row.id);
  const line = tableLine(row);
  if (old) {
    if (old.hasAttribute("data-mine")) line.setAttribute("data-mine", "");
    old.replaceWith(line);
  } else {
    tableList.prepend(line); // the newest first, as the page lists them
  }
  noTables.hidden = true;
}

function dropTable(id) {
  const line = lineOf(id);
  if (!line) return;
  if (line.hasAttribute("data-mine")) {
    if (!line.querySelector(".quiet-tag")) {
      const tag = span("by link only");
      tag.className = "quiet-tag";
      line.append(" · ", tag);
    }
    return;
  }
  line.remove();
  noTables.hidden = tableList.children.length > 0;
}

listen((message) => {
  if (message.type === "online") countEl.textContent = String(message.count);
  if (message.type === "table_listed") showTable(message.table);
  if (message.type === "table_unlisted") dropTable(message.table_id);
});
