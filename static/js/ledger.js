// A friends' table's money side, drawn from the snapshot (docs/protocol.md):
// who is up and who is down (TABLE.ledger), and the choices of a player
// who has run out of chips. Pure functions of the snapshot, no socket.

function el(tag, text) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

function signed(amount) {
  return amount > 0 ? `+${amount}` : String(amount);
}

/** The viewer's seat if they sit there with no chips, not all-in in a hand in play; else null. */
export function bustedSeat(table) {
  if (table.your_seat === null || table.your_seat === undefined) return null;
  const you = table.seats[table.your_seat];
  if (!you || !you.occupied || you.stack > 0) return null;
  const isInPlay = you.is_dealt_in && table.hand && !table.hand.is_over;
  return isInPlay ? null : you;
}

/** Shows or hides the busted panel: rebuy (where the table allows it), watch, leave. */
export function renderBusted(panel, table) {
  const isBusted = bustedSeat(table) !== null;
  panel.hidden = !isBusted;
  if (!isBusted) return;
  panel.querySelector("[data-busted-choices]").textContent = table.rebuys
    ? "Rebuy to keep playing, watch from the rail, or leave the table."
    : "Watch from the rail, or leave the table.";
  const rebuy = panel.querySelector('[data-command="rebuy"]');
  rebuy.hidden = !table.rebuys;
  const you = table.seats[table.your_seat];
  rebuy.disabled = Boolean(you.wants_rebuy);
  rebuy.textContent = you.wants_rebuy ? "Asked the host for a rebuy…" : `Rebuy ${table.starting_stack}`;
  rebuy.setAttribute("aria-label", `Rebuy ${table.starting_stack} chips`);
}

/** The ledger as table rows: name, bought in, cashed out, stack, net (+ up, - down). */
export function renderLedger(section, table) {
  const rows = table.ledger || [];
  section.hidden = rows.length === 0;
  const body = section.querySelector("tbody");
  body.replaceChildren(
    ...rows.map((row) => {
      const line = el("tr");
      line.append(el("th", row.name), el("td", String(row.bought_in)), el("td", String(row.cashed_out)),
        el("td", String(row.stack)));
      const net = el("td", signed(row.net));
      net.className = row.net > 0 ? "up" : row.net < 0 ? "down" : "even";
      line.append(net);
      return line;
    }),
  );
}
