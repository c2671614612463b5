// The words over the felt: the line in the oval's middle and the blinds in the head.

import { waitingText } from "./away.js";
import { dealAnnouncement } from "./deal.js";
import { runoutAnnouncement } from "./homegame.js";
import { winnersText } from "./render.js";

function blindFigures(blinds) {
  return `${blinds.small_blind}/${blinds.big_blind}${blinds.ante ? `, ante ${blinds.ante}` : ""}`;
}

/** "Blinds 10/20", and "(25/50 from the next hand)" once the host changed them. */
export function blindsText(table) {
  const next = table.next_blinds ? ` (${blindFigures(table.next_blinds)} from the next hand)` : "";
  return `Blinds ${blindFigures(table)}${next}`;
}

/** What the middle of the felt says: who won (each board's winners on a hand run twice),
 * a deal, the run-it-twice question's clock, and why or when the next hand comes.
 * `secondsUntil` turns a server time into seconds from now. */
export function announcement(table, secondsUntil) {
  const lines = [];
  const winners = winnersText(table);
  if (winners) lines.push(winners);
  const dealt = dealAnnouncement(table);
  if (dealt) lines.push(dealt);
  const handRunning = table.hand && !table.hand.is_over;
  if (handRunning && table.hand.runout && table.deadline) {
    lines.push(runoutAnnouncement(table, secondsUntil(table.deadline)));
  }
  if (table.closed_at) {
    lines.push(
      table.kind === "friends" ? "The host ended the game: the final ledger is in the Ledger tab" : "This game has ended",
    );
  } else if (handRunning && table.closes_after_hand) {
    lines.push("The host is ending the game: this is the last hand");
  } else if (handRunning && table.is_paused) {
    lines.push("Paused by the host: the clock is stopped, and no hand follows this one");
  } else if (!handRunning && table.waiting_for) {
    lines.push(waitingText(table)); // "Paused by the host", "Need one more player", ...
  } else if (!handRunning && table.next_hand_at) {
    lines.push(`Next hand in ${Math.max(0, Math.ceil(secondsUntil(table.next_hand_at)))} s`);
  } else if (!handRunning && !winners) {
    const isSeated = table.your_seat !== null && table.your_seat !== undefined;
    if (table.kind === "tournament") lines.push(isSeated ? "Waiting for the next hand" : "Watching");
    else lines.push(isSeated ? "Waiting for another player to sit down" : "Take a seat to play");
  }
  return lines.join(" — ");
}
