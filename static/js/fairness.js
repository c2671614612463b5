// Checks a finished hand's cards against the deck sealed before the deal, in the
// browser with Web Crypto's SHA-256: the same checks as `python -m engine verify`
// (engine/fairness.py), on the hand as the API gives it to this viewer.

const DECK_SIZE = 52;
const HEX_DIGEST = /^[0-9a-f]{64}$/;

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The seats dealt in, in the order they get cards: from the first left of the button. */
export function dealingOrder(button, seats) {
  const sorted = [...seats].sort((a, b) => a - b);
  return [...sorted.filter((seat) => seat > button), ...sorted.filter((seat) => seat <= button)];
}

/** Deck position -> card, for every card this hand shows the viewer. Each player gets
 * one card a round, two rounds (four in Omaha); the board follows, and a second
 * run-out's own cards follow the first board (docs/fairness.md). */
function cardsShown(hand) {
  const order = dealingOrder(hand.button, hand.players.map((player) => player.seat));
  const rounds = hand.game === "plo" ? 4 : 2;
  const shown = new Map();
  const second = (hand.second_board || []).filter((card) => !hand.board.includes(card));
  [...hand.board, ...second].forEach((card, index) => shown.set(rounds * order.length + index, card));
  for (const player of hand.players) {
    if (!player.hole_cards) continue;
    const index = order.indexOf(player.seat);
    player.hole_cards.forEach((card, round) => shown.set(index + round * order.length, card));
  }
  return shown;
}

/** What does not match, one sentence each; an empty list when everything does. */
export async function verifyHand(hand) {
  const { fairness } = hand;
  const leaves = fairness.leaves || [];
  if (leaves.length !== DECK_SIZE || !leaves.every((leaf) => HEX_DIGEST.test(leaf))) {
    return [`leaves: expected ${DECK_SIZE} lowercase sha256 hex strings`];
  }
  const problems = [];
  if ((await sha256Hex(leaves.join(""))) !== fairness.commitment) {
    problems.push("commitment: the leaves do not hash to it");
  }
  const given = new Map();
  for (const { position, card, salt } of fairness.revealed || []) {
    if (!Number.isInteger(position) || position < 0 || position >= DECK_SIZE) {
      problems.push(`revealed: no deck position ${position}`);
      continue;
    }
    given.set(position, card);
    if ((await sha256Hex(`${position}:${card}:${salt}`)) !== leaves[position]) {
      problems.push(`position ${position}: ${card} with its salt does not hash to the leaf`);
    }
  }
  const shown = cardsShown(hand);
  for (const position of [...shown.keys()].sort((a, b) => a - b)) {
    const card = shown.get(position);
    if (!given.has(position)) {
      problems.push(`position ${position}: ${card} is shown but was not revealed`);
    } else if (given.get(position) !== card) {
      problems.push(`position ${position}: revealed ${given.get(position)}, the hand shows ${card}`);
    }
  }
  for (const position of [...given.keys()].sort((a, b) => a - b)) {
    if (!shown.has(position)) {
      problems.push(`position ${position}: revealed, but the hand shows no card dealt from it`);
    }
  }
  return problems;
}

/** Fill ``element`` (data-fairness) with the outcome of checking ``hand``. */
export async function showVerification(element, hand) {
  if (!hand.fairness) {
    element.textContent = "This hand was dealt before decks were sealed: nothing to check.";
    return;
  }
  if (!globalThis.crypto || !crypto.subtle) {
    element.textContent = "Your browser checks the deck only over HTTPS; use python -m engine verify.";
    return;
  }
  const problems = await verifyHand(hand);
  element.dataset.verified = problems.length === 0 ? "yes" : "no";
  element.textContent = problems.length === 0
    ? `Deck verified: the ${hand.fairness.revealed.length} cards you saw are the ones sealed before the deal.`
    : `Deck check failed: ${problems.join("; ")}`;
  element.title = `Commitment ${hand.fairness.commitment}`;
}
