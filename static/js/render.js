// Draws one snapshot's TABLE (see docs/protocol.md):
// seats around the oval, their cards, stacks and bets, the board and pots.
// Rendering is a pure function of the snapshot; nothing here talks to the socket.

import { cardBack, cardFace } from "./cards.js";

const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function isMotionWelcome() {
  return !lessMotion.matches;
}

// Where each seat sits, in percent of the table area, by how many seats the
// table has. Slot 0 is the bottom middle (the viewer's own seat), then
// clockwise: to the viewer's left, up, across and down the right side.
const LAYOUTS = {
  2: [[50, 90], [50, 10]],
  3: [[50, 90], [10, 30], [90, 30]],
  4: [[50, 90], [7, 50], [50, 10], [93, 50]],
  5: [[50, 90], [8, 64], [24, 10], [76, 10], [92, 64]],
  6: [[50, 90], [8, 70], [8, 28], [50, 10], [92, 28], [92, 70]],
  // Full ring: around the oval, two along each long side.
  7: [[50, 90], [14, 84], [5, 44], [28, 8], [72, 8], [95, 44], [86, 84]],
  8: [[50, 90], [14, 84], [5, 44], [20, 9], [50, 6], [80, 9], [95, 44], [86, 84]],
  9: [[50, 90], [20, 91], [4, 57], [8, 20], [34, 6], [66, 6], [92, 20], [96, 57], [80, 91]],
};
// How far from a seat toward the middle its bet sits (across, and up or down).
const BET_PULL_X = 0.5;
const BET_PULL_Y = 0.48;
const BET_PULL_Y_BOTTOM = 0.7;

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

/** The name a seat's player had in the hand on display (kept once they leave). */
export function playerName(table, seat) {
  const names = table.hand && table.hand.names;
  return (names && names[seat]) || seatName(table, seat);
}

function badges(info) {
  const box = el("span", "badges");
  if (info.is_small_blind) box.append(badge("SB", "blind", "Small blind"));
  if (info.is_big_blind) box.append(badge("BB", "blind", "Big blind"));
  if (info.is_straddle) box.append(badge("STR", "blind", "Straddle"));
  return box;
}

/** How many hole cards each player holds in the hand on display (Omaha: four). */
function holeCount(hand) {
  return hand && hand.game === "plo" ? 4 : 2;
}

function badge(text, kind, label) {
  const node = el("span", `badge ${kind}`, text);
  node.setAttribute("aria-label", label);
  node.title = label;
  return node;
}

function holeCards(info, isHandOver, count) {
  const box = el("div", count === 4 ? "hole four" : "hole");
  box.setAttribute("aria-label", info.is_you ? "Your cards" : `${info.name}'s cards`);
  if (info.cards) {
    info.cards.forEach((code) => box.append(cardFace(code)));
  } else if (info.is_dealt_in && !info.has_folded && !isHandOver) {
    for (let card = 0; card < count; card += 1) box.append(cardBack()); // face down; gone once mucked
  }
  return box;
}

function clockTime(iso) {
  return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function seatState(info, winnings) {
  if (winnings) return `Wins ${winnings}`;
  const away = info.disconnected_since ? `Offline since ${clockTime(info.disconnected_since)}` : "";
  if (info.is_all_in) return away ? `All-in · ${away}` : "All-in";
  if (away) return away;
  if (info.is_sitting_out) return info.has_timed_out ? "Timed out" : "Sitting out";
  if (info.has_folded) return "Folded";
  if (info.waits_for_big_blind) return "Waits for BB"; // rule 29: dealt in at their big blind
  return "";
}

function occupiedSeat(info, winnings, isHandOver, yourHands, count, bounty) {
  const node = el("div", "seat occupied");
  node.setAttribute("role", "group");
  node.classList.toggle("you", Boolean(info.is_you));
  node.classList.toggle("to-act", Boolean(info.is_to_act));
  node.classList.toggle("folded", Boolean(info.has_folded));
  node.classList.toggle("sitting-out", Boolean(info.is_sitting_out));
  node.classList.toggle("disconnected", Boolean(info.disconnected_since));
  node.classList.toggle("winner", Boolean(winnings));
  node.setAttribute("aria-label", `Seat ${info.seat + 1}: ${info.name}${info.is_you ? " (you)" : ""}`);
  const plate = el("div", "plate");
  const title = el("div", "who");
  title.append(el("span", "name", info.name));
  if (info.is_bot) title.append(el("span", "bot-tag", "BOT"));
  title.append(badges(info));
  // A knockout's bounty on this player: on the plate's lower corner, clear of the blinds.
  if (bounty) plate.append(badge(`KO ${bounty}`, "bounty", `Bounty: ${bounty} points for knocking ${info.name} out`));
  if (info.is_button) plate.append(badge("D", "button", "Dealer button"));
  const stack = el("div", "stack", String(info.stack));
  stack.setAttribute("aria-label", `Stack ${info.stack}`);
  const state = el("div", "state", seatState(info, winnings));
  state.title = state.textContent; // whole, where a full ring cuts it short
  plate.append(title, stack, state);
  if (info.is_to_act) plate.append(clockElement());
  node.append(holeCards(info, isHandOver, count));
  // What the viewer's own cards make: only ever in the viewer's own snapshot.
  if (info.is_you && yourHands.length) node.append(strength(yourHands));
  node.append(plate);
  return node;
}

/** The viewer's hand; on a hand run twice, a line per board, the first on top as
 * the boards are drawn. */
function strength([first, second]) {
  const node = el("div", "strength");
  if (!second) {
    node.textContent = first;
    return node;
  }
  node.classList.add("two");
  node.append(el("span", "", `1: ${first}`), el("span", "", `2: ${second}`));
  node.setAttribute("aria-label", `Your hand: ${first} on the first board, ${second} on the second`);
  node.title = `First board: ${first}\nSecond board: ${second}`;
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
  const isGoingOn = !table.closed_at && !table.closes_after_hand;
  const isFree = !table.you_are_barred; // removed by the host, until let back
  const canSit = isGoingOn && isFree && (table.your_seat === null || table.your_seat === undefined);
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

/** Where a seat's bet sits: from the seat part of the way toward the middle. */
export function betPosition(table, seat) {
  const [x, y] = positionOf(table, seat);
  // Beside your seat (the bottom row) a bet goes further up, clear of your cards.
  const pullY = y > 80 && slotOf(table, seat) !== 0 ? BET_PULL_Y_BOTTOM : BET_PULL_Y;
  return [x + (50 - x) * BET_PULL_X, y + (50 - y) * pullY];
}

function betChip(table, info) {
  const [x, y] = betPosition(table, info.seat);
  const chip = el("div", "bet", String(info.bet));
  chip.style.left = `${x}%`;
  chip.style.top = `${y}%`;
  chip.setAttribute("aria-label", `${info.name} bet ${info.bet}`);
  return chip;
}

/** A knockout tournament's bounty on the player at `seat` (TABLE.bounties), else 0. */
function bountyOf(table, seat) {
  return (table.bounties && table.bounties[seat]) || 0;
}

function yourHands(table) {
  return [table.your_hand, table.your_hand_second_board].filter(Boolean);
}

/** Replaces the children of `container` with every seat and every bet in front. */
export function renderSeats(container, table) {
  const won = winningsBySeat(table.hand);
  container.dataset.ring = table.seat_count > 6 ? "full" : "short"; // smaller seats for 7 to 9
  const isHandOver = Boolean(table.hand && table.hand.is_over);
  const nodes = [];
  for (const info of table.seats) {
    const bounty = bountyOf(table, info.seat);
    const node = info.occupied
      ? occupiedSeat(info, won.get(info.seat), isHandOver, yourHands(table), holeCount(table.hand), bounty)
      : emptySeat(table, info.seat);
    const [x, y] = positionOf(table, info.seat);
    node.style.left = `${x}%`;
    node.style.top = `${y}%`;
    node.dataset.seat = String(info.seat);
    node.dataset.slot = String(slotOf(table, info.seat));
    nodes.push(node);
    if (info.occupied && info.bet > 0) nodes.push(betChip(table, info));
  }
  // A new hand's hole cards arrive; redrawing the same hand leaves them still.
  const handKey = String(table.hand_number);
  if (container.dataset.hand !== handKey) {
    container.dataset.hand = handKey;
    nodes.forEach((node) => node.querySelectorAll?.(".hole .card").forEach((card) => card.classList.add("arriving")));
  }
  container.replaceChildren(...nodes);
}

/** Draws the board (two, one above the other, when it was run twice). The server
 * reveals an all-in run-out a street per snapshot (rule 30): only the cards new
 * since the last drawing arrive (an animation, where motion is welcome). */
export function renderBoard(container, hand) {
  const cards = hand ? hand.board.map(cardFace) : [];
  const shownBefore = Number(container.dataset.shown || 0);
  cards.forEach((card, index) => card.classList.toggle("arriving", index >= shownBefore));
  container.dataset.shown = String(cards.length);
  const second = hand && hand.second_board ? hand.second_board : [];
  const secondBefore = Number(container.dataset.shownSecond || 0);
  container.dataset.shownSecond = String(second.length);
  container.classList.toggle("twice", second.length > 0);
  if (!second.length) {
    container.replaceChildren(...cards);
    return;
  }
  // The second run-out shares the cards dealt before the question: only its own
  // cards arrive, each as its street is revealed.
  const shared = hand.board.filter((code, index) => second[index] === code).length;
  const secondCards = second.map(cardFace);
  secondCards.forEach((card, index) => {
    card.classList.toggle("arriving", index >= Math.max(shared, secondBefore));
    card.classList.toggle("shared", index < shared);
  });
  const row = (label, nodes) => {
    const line = el("div", "board-run");
    line.setAttribute("aria-label", label);
    line.append(...nodes);
    return line;
  };
  container.replaceChildren(row("First board", cards), row("Second board", secondCards));
}

/** Marks the face-up cards under `container` that a shown-down winning hand played. */
export function highlightWinningCards(container, table) {
  const hand = table.hand;
  const best = new Set();
  if (hand && hand.is_over) for (const winner of hand.winners) for (const code of winner.cards || []) best.add(code);
  container.querySelectorAll(".card.face").forEach((card) => {
    card.classList.toggle("best", best.has(card.dataset.card));
  });
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

/** "alice wins 120 with Straight, Nine High" for each winner of a finished hand; on a
 * hand run twice, for each board: "... on board 2". */
export function winnersText(table) {
  const hand = table.hand;
  if (!hand || !hand.is_over || !hand.winners) return "";
  return hand.winners
    .map((w) => {
      const how = w.description ? ` with ${w.description}` : "";
      const where = w.board ? ` on board ${w.board}` : "";
      return `${playerName(table, w.seat)} wins ${w.amount}${how}${where}`;
    })
    .join(" · ");
}
