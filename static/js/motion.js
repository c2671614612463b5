// Chips that move between two snapshots, only where the system has not asked for
// less motion: bets gathered at the end of a street slide into the pot, and a pot
// slides to whoever won it (an all-in run-out's once its result frame arrives).

import { betPosition, isMotionWelcome, positionOf } from "./render.js";

const SLIDE_MS = 450;

/** Slides the chips that moved from `previous` to `table` across `layer`: bets into
 * the pot when a street ends, then each pot to its winner. `pot` is where the pot is
 * drawn ([x, y] in % of the layer): under the board, never on its cards. */
export function moveChips(layer, previous, table, pot) {
  if (!isMotionWelcome() || !previous || previous.hand_number !== table.hand_number) return;
  for (const before of previous.seats) {
    const now = table.seats[before.seat];
    if (before.occupied && before.bet > 0 && now && now.bet === 0) {
      slide(layer, betPosition(previous, before.seat), pot, before.bet, 0);
    }
  }
  const hand = table.hand;
  const justEnded = hand && hand.is_over && !(previous.hand && previous.hand.is_over);
  if (!justEnded || !hand.winners) return;
  for (const winner of hand.winners) {
    slide(layer, pot, positionOf(table, winner.seat), winner.amount, SLIDE_MS);
  }
}

function slide(layer, [fromX, fromY], [toX, toY], amount, delayMs) {
  const chip = document.createElement("div");
  chip.className = "bet moving";
  chip.textContent = String(amount);
  chip.style.left = `${fromX}%`;
  chip.style.top = `${fromY}%`;
  chip.style.transitionDelay = `${delayMs}ms`;
  layer.append(chip);
  chip.getBoundingClientRect(); // the start position is laid out before the move
  chip.style.left = `${toX}%`;
  chip.style.top = `${toY}%`;
  window.setTimeout(() => chip.remove(), delayMs + SLIDE_MS + 100);
}
