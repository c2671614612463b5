// Draws one snapshot's TABLE (see docs/protocol.md):
// seats around the oval, their cards, stacks and bets, the board and pots.
// Rendering is a pure function of the snapshot; nothing here talks to the socket.

import { cardBack, cardFace } from "./cards.js";

// Where each seat sits, in percent of the table area, by how many seats the
// table has. Slot 0 is the bottom middle (the viewer's own seat), then
// clockwise: to the viewer's left, up, across and down the right side.
const LAYOUTS = {
  2: [[50, 90], [50, 10]],
  3: [[50, 90], [10, 30], [90, 30]],
  4: [[50, 90], [7, 50], [50, 10], [93, 50]],
  5: [[50, 90], [8, 64], [24, 10], [76, 10], [92, 64]],
  6: [[50, 90], [8, 70], [8, 28], [50, 10], [92, 28], [92, 70]],
};
// How far from a seat toward the middle its bet sits (across, and up or down).
const BET_PULL_X = 0.55;
const BET_PULL_Y = 0.58;

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** The seat shown at the bottom: the viewer's own, or seat 0 for a spectator. */
function slotOf(table, seat) {
  const anchor = table.your_seat === null || table.your_seat === undefined ? 0 : table.your_seat;
  return (seat - anchor + table.seat_count) % table.seat_count;
}

export function positionOf(table, seat) {
  const layout = LAYOUTS[table.seat_count] || LAYOUTS[6];
  return layout[slotOf(table, seat)];
}

export function seatName(table, seat) {
  const info = table.seats[seat];
  return info && info.occupied ? info.name : `Seat ${seat + 1}`;
}

function badges(info) {
  const box = el("span", "badges");
  if (info.is_small_blind) box.append(badge("SB", "blind", "Small blind"));
  if (info.is_big_blind) box.append(badge("BB", "blind", "Big blind"));
  return box;
}

function badge(text, kind, label) {
  const node = el("span", `badge ${kind}`, text);
  node.setAttribute("aria-label", label);
  node.title = label;
  return node;
}

function holeCards(info, isHandOver) {
  const box = el("div", "hole");
  box.setAttribute("aria-label", info.is_you ? "Your cards" : `${info.name}'s cards`);
  if (info.cards) {
    info.cards.forEach((code) => box.append(cardFace(code)));
  } else if (info.is_dealt_in && !info.has_folded && !isHandOver) {
    box.append(cardBack(), cardBack()); // face down in play; gone once mucked
  }
  return box;
}

function seatState(info, winnings) {
  if (winnings) return `Wins ${winnings}`;
  if (info.has_folded) return "Folded";
  if (info.is_all_in) return "All-in";
  if (info.is_sitting_out) return "Sitting out";
  return "";
}

function occupiedSeat(info, winnings, isHandOver) {
  const node = el("div", "seat occupied");
  node.setAttribute("role", "group");
  node.classList.toggle("you", Boolean(info.is_you));
  node.classList.toggle("to-act", Boolean(info.is_to_act));
  node.classList.toggle("folded", Boolean(info.has_folded));
  node.classList.toggle("sitting-out", Boolean(info.is_sitting_out));
  node.classList.toggle("winner", Boolean(winnings));
  node.setAttribute("aria-label", `Seat ${info.seat + 1}: ${info.name}${info.is_you ? " (you)" : ""}`);
  const plate = el("div", "plate");
  const title = el("div", "who");
  title.append(el("span", "name", info.name));
  if (info.is_bot) title.append(el("span", "bot-tag", "BOT"));
  title.append(badges(info));
  if (info.is_button) plate.append(badge("D", "button", "Dealer button"));
  const stack = el("div", "stack", String(info.stack));
  stack.setAttribute("aria-label", `Stack ${info.stack}`);
  plate.append(title, stack, el("div", "state", seatState(info, winnings)));
  if (info.is_to_act) plate.append(clockElement());
  node.append(holeCards(info, isHandOver), plate);
  return node;
}

function clockElement() {
  const clock = el("div", "clock");
  clock.dataset.clock = "";
  const bar = el("div", "clock-bar");
  bar.append(el("div", "clock-fill"));
  clock.append(bar, el("span", "clock-text", ""));
  return clock;
}

function emptySeat(table, seat) {
  const node = el("div", "seat empty");
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", `Seat ${seat + 1}: empty`);
  const canSit = table.your_seat === null || table.your_seat === undefined;
  // Tournaments assign their seats; a replay is only watched.
  if (canSit && table.kind !== "tournament" && table.kind !== "replay") {
    const button = el("button", "sit", "Sit here");
    button.type = "button";
    button.dataset.sit = String(seat);
    button.setAttribute("aria-label", `Sit in seat ${seat + 1}`);
    node.append(button);
  } else {
    node.append(el("span", "vacant", "Empty"));
  }
  return node;
}

function winningsBySeat(hand) {
  const won = new Map();
  if (!hand || !hand.is_over || !hand.winners) return won;
  for (const winner of hand.winners) {
    won.set(winner.seat, (won.get(winner.seat) || 0) + winner.amount);
  }
  return won;
}

function betChip(table, info) {
  const [x, y] = positionOf(table, info.seat);
  const chip = el("div", "bet", String(info.bet));
  chip.style.left = `${x + (50 - x) * BET_PULL_X}%`;
  chip.style.top = `${y + (50 - y) * BET_PULL_Y}%`;
  chip.setAttribute("aria-label", `${info.name} bet ${info.bet}`);
  return chip;
}

/** Replaces the children of `container` with every seat and every bet in front. */
export function renderSeats(container, table) {
  const won = winningsBySeat(table.hand);
  const isHandOver = Boolean(table.hand && table.hand.is_over);
  const nodes = [];
  for (const info of table.seats) {
    const node = info.occupied
      ? occupiedSeat(info, won.get(info.seat), isHandOver)
      : emptySeat(table, info.seat);
    const [x, y] = positionOf(table, info.seat);
    node.style.left = `${x}%`;
    node.style.top = `${y}%`;
    node.dataset.seat = String(info.seat);
    node.dataset.slot = String(slotOf(table, info.seat));
    nodes.push(node);
    if (info.occupied && info.bet > 0) nodes.push(betChip(table, info));
  }
  container.replaceChildren(...nodes);
}

export function renderBoard(container, hand) {
  container.replaceChildren(...(hand ? hand.board.map(cardFace) : []));
}

/** "Pot 120" or "Main pot 100 · Side pot 40", counting only chips already gathered. */
/** "Pot 180": everything in the middle, the bets in front of the players included;
 * with side pots, the total then each pot as gathered so far. */
export function potText(table) {
  const hand = table.hand;
  if (!hand) return "";
  const inFront = table.seats.reduce((sum, seat) => sum + (seat.occupied ? seat.bet : 0), 0);
  const gathered = hand.pots.reduce((sum, pot) => sum + pot.amount, 0);
  if (gathered + inFront === 0) return "";
  const total = `Pot ${gathered + inFront}`;
  if (hand.pots.length < 2) return total;
  const pots = hand.pots.map((pot, index) => `${index === 0 ? "Main pot" : `Side pot ${index}`} ${pot.amount}`);
  return [total, ...pots].join(" · ");
}

/** "alice wins 120 with Straight, Nine High" for each winner of a finished hand. */
export function winnersText(table) {
  const hand = table.hand;
  if (!hand || !hand.is_over || !hand.winners) return "";
  return hand.winners
    .map((w) => `${seatName(table, w.seat)} wins ${w.amount}${w.description ? ` with ${w.description}` : ""}`)
    .join(" · ");
}
