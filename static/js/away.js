// The seat controls (Sit out, Leave seat, Stay) and the dock of a player who is away:
// where the action bar would be, it says plainly why they are not playing and offers a
// large "I'm back"; back at a cash table after missing the big blind, it says they are
// dealt in again when the big blind comes to them (rule 29 of docs/rules.md).

function yourSeat(table) {
  if (table.your_seat === null || table.your_seat === undefined) return null;
  const you = table.seats[table.your_seat];
  return you && you.occupied ? you : null;
}

/** What the dock says to the viewer away, or back and waiting; null when neither. */
export function awayText(table, you) {
  if (you.is_sitting_out) {
    const why = you.has_timed_out ? "You were marked away: your time ran out." : "You are sitting out.";
    const what =
      table.kind === "tournament"
        ? "You are still dealt in: your blinds are posted and your hands folded until you are back."
        : "You are not dealt in and post no blinds until you are back.";
    return `${why} ${what}`;
  }
  if (you.waits_for_big_blind) return "Welcome back: you are dealt in when the big blind comes to you.";
  return null;
}

/** "Waiting for you to come back" on the page of the player the table waits for. */
export function waitingText(table) {
  const you = yourSeat(table);
  if (you && you.is_sitting_out && table.waiting_for === `Waiting for ${you.name} to come back`) {
    return "Waiting for you to come back";
  }
  return table.waiting_for;
}

/** The seat's own buttons, and the away panel over the action bar's room. */
export function renderSeatControls(seatControls, away, table) {
  const you = yourSeat(table);
  seatControls.hidden = !you;
  renderAway(away, table, you);
  if (!you) return;
  seatControls.querySelector('[data-command="sit_out"]').hidden = you.is_sitting_out;
  const leave = seatControls.querySelector('[data-command="leave"]');
  if (!leave) return; // a tournament's seat cannot be left
  leave.hidden = you.is_leaving;
  seatControls.querySelector("[data-leaving]").hidden = !you.is_leaving;
  seatControls.querySelector('[data-command="stay"]').hidden = !you.is_leaving;
}

function renderAway(away, table, you) {
  const text = you && !you.is_leaving ? awayText(table, you) : null;
  away.hidden = !text;
  if (!text) return;
  away.querySelector("[data-away-note]").textContent = text;
  away.querySelector('[data-command="sit_in"]').hidden = !you.is_sitting_out;
  away.classList.toggle("waiting", !you.is_sitting_out);
  away.setAttribute("aria-label", you.is_sitting_out ? "You are away" : "Waiting for the big blind");
}

/** After the seat controls (static/js/ledger.js may hide them once a tournament is
 * over for the viewer): no "I'm back" where there is no seat to come back to. */
export function hideAwayWithSeat(away, seatControls) {
  if (seatControls.hidden) away.hidden = true;
}

export function wireAway(away, send) {
  away.querySelector('[data-command="sit_in"]').addEventListener("click", () => send({ type: "sit_in" }));
}
