// A player's money side and the end of their game, drawn from the snapshot
// (docs/protocol.md): who is up and who is down at a friends' table
// (TABLE.ledger); what a player out of chips can do, by the kind of table
// (rebuy, a new practice table, or a tournament's place and prize); and the
// word that the host removed them.

function el(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(amount) {
  return amount > 0 ? `+${amount}` : String(amount);
}

// A tournament's result for this viewer (TABLE.your_result), kept once seen: the
// snapshots after the busted seat is cleared are a spectator's, without it.
let knownResult = null;

function sentence(text) {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** The viewer's seat if they sit there with no chips, not all-in in a hand in play; else null. */
export function bustedSeat(table) {
  if (table.your_seat === null || table.your_seat === undefined) return null;
  const you = table.seats[table.your_seat];
  if (!you || !you.occupied || you.stack > 0) return null;
  const isInPlay = you.is_dealt_in && table.hand && !table.hand.is_over;
  return isInPlay ? null : you;
}

/** The panel for a player out of chips, or out of a tournament: each kind of table its
 * own end. Friends' and practice tables: rebuy (a practice table also offers a new one),
 * watch, leave. A tournament: the place and prize, the tournament's page, leave. */
export function renderBusted(panel, table) {
  if (table.your_result) knownResult = table.your_result;
  const you = bustedSeat(table);
  const result = knownResult;
  const isOffered = Boolean(table.your_purchases?.rebuy?.until); // the purchases panel asks
  panel.hidden = (you === null && result === null) || (result === null && isOffered);
  if (panel.hidden) return;
  const show = (selector, isShown) => {
    const node = panel.querySelector(selector);
    if (node) node.hidden = !isShown;
    return node;
  };
  const title = panel.querySelector("[data-busted-title]");
  const choices = panel.querySelector("[data-busted-choices]");
  const link = show("[data-result-link]", result !== null);
  show('[data-command="watch"]', result === null);
  show("[data-new-practice]", result === null);
  const rebuy = show('[data-command="rebuy"]', result === null && table.rebuys);
  if (result !== null) {
    panel.setAttribute("aria-label", "Your result");
    title.textContent = sentence(result.text);
    const isOver = table.waiting_for === "The tournament is over"; // a deal ended it, say
    choices.textContent =
      result.place === 1 || isOver ? "" : "The others play on: watch from here, or leave.";
    if (link && result.url) link.href = result.url;
    return;
  }
  panel.setAttribute("aria-label", "Out of chips");
  title.textContent = "You are out of chips.";
  const isPractice = Boolean(panel.querySelector("[data-new-practice]"));
  choices.textContent = !table.rebuys
    ? "Watch from the rail, or leave the table."
    : isPractice
      ? "Rebuy to keep playing, start a new practice table, watch, or leave."
      : "Rebuy to keep playing, watch from the rail, or leave the table.";
  rebuy.disabled = Boolean(you.wants_rebuy);
  rebuy.textContent = you.wants_rebuy ? "Asked the host for a rebuy…" : `Rebuy ${table.starting_stack}`;
  rebuy.setAttribute("aria-label", `Rebuy ${table.starting_stack} chips`);
}

/** What a seated player's own controls say about how their game ends: none once
 * out of a tournament (nothing there can be used); while the host's removal waits
 * for the hand's end, that they leave after it, with no "Stay". */
export function renderSeatEnd(seatControls, removedNote, table) {
  const you = table.your_seat === null || table.your_seat === undefined ? null : table.seats[table.your_seat];
  if (you) {
    removedNote.hidden = true; // seated (again): the old word no longer applies
    if (knownResult !== null) seatControls.hidden = true;
  } else if (table.you_are_barred) {
    removedNote.textContent = BARRED_TEXT; // and no seat offers "Sit here" (render.js)
    removedNote.hidden = false;
  } else if (removedNote.textContent === BARRED_TEXT) {
    removedNote.hidden = true; // the host let them back
  }
  const isRemoved = Boolean(you && you.is_removed);
  const leaving = seatControls.querySelector("[data-leaving]");
  if (leaving) {
    leaving.textContent = isRemoved ? "The host removed you: you leave after this hand" : "Leaving after this hand";
  }
  const stay = seatControls.querySelector('[data-command="stay"]');
  if (stay && isRemoved) stay.hidden = true;
}

const BARRED_TEXT = "The host removed you from this table: you can sit here again once the host lets you back.";

/** The host removed the viewer (a `removed` notice): said where the seat was. */
export function showRemoved(removedNote, notice, table) {
  if (notice.table_id !== undefined && table && notice.table_id !== table.id) return;
  removedNote.textContent = table && table.you_are_barred ? BARRED_TEXT : notice.text;
  removedNote.hidden = false;
}

/** What the host changed in a row's stacks: "+500 corrected, -300 moved", or "". */
function hostChanges(row) {
  const parts = [];
  if (row.corrected) parts.push(`${signed(row.corrected)} corrected`);
  if (row.moved) parts.push(`${signed(row.moved)} moved`);
  return parts.join(", ");
}

/** The ledger as table rows: name, bought in, cashed out, the host's changes (a column
 * only once there are some), stack, net (+ up, - down). */
export function renderLedger(section, table) {
  const rows = table.ledger || [];
  section.hidden = rows.length === 0;
  const hasHostChanges = rows.some((row) => row.corrected || row.moved);
  section.querySelector("[data-ledger-host]").hidden = !hasHostChanges;
  const body = section.querySelector("tbody");
  body.replaceChildren(
    ...rows.map((row) => {
      const line = el("tr");
      line.append(el("th", row.name), el("td", String(row.bought_in)), el("td", String(row.cashed_out)));
      if (hasHostChanges) line.append(el("td", hostChanges(row)));
      line.append(el("td", String(row.stack)));
      const net = el("td", signed(row.net));
      net.className = row.net > 0 ? "up" : row.net < 0 ? "down" : "even";
      line.append(net);
      return line;
    }),
  );
}
