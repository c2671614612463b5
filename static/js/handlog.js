// The hand log in words: one line per public event of the engine's log
// ("alice raises to 60", "Flop: 7♣ 8♦ 9♥", "bob wins 120 with a Straight").

import { cardText } from "./cards.js";

const STREET_NAMES = { flop: "Flop", turn: "Turn", river: "River" };

function cardsText(cards) {
  return cards.map(cardText).join(" ");
}

function allIn(event) {
  return event.is_all_in ? " and is all-in" : "";
}

function actedLine(name, event) {
  if (event.timed_out) return `${name} timed out`; // the clock checked or folded for them
  switch (event.action) {
    case "fold": return `${name} folds`;
    case "check": return `${name} checks`;
    case "call": return `${name} calls ${event.amount}${allIn(event)}`;
    case "bet": return `${name} bets ${event.total}${allIn(event)}`;
    case "raise": return `${name} raises to ${event.total}${allIn(event)}`;
    default: return `${name} ${event.action}`;
  }
}

function awardedLines(nameOf, event) {
  const pot = event.pot_index === 0 ? "" : ` from side pot ${event.pot_index}`;
  const which = event.run ? `${pot} on the second board` : pot; // run twice (rule 25)
  const how = event.description ? ` with ${withArticle(event.description)}` : "";
  return event.shares.map((share) => `${nameOf(share.seat)} wins ${share.amount}${which}${how}`);
}

// "Straight, Nine High" -> "a Straight, Nine High"; plurals and "High Card" read
// better without the article's ambiguity, so only a few categories get one.
function withArticle(description) {
  const singular = ["Pair", "Straight", "Flush", "Full House", "Straight Flush", "Royal Flush"];
  const first = description.split(",")[0];
  return singular.includes(first) ? `a ${description}` : description;
}

/** The host's stack changes made during or after hand `handNumber`, as log lines
 * ("Host moved 500 from alice to bob"), for everyone. */
export function stackChangeLines(changes, handNumber) {
  return (changes || [])
    .filter((change) => change.hand_number === handNumber)
    .map((change) =>
      change.kind === "move"
        ? `Host moved ${change.amount} from ${change.from} to ${change.to}`
        : `Host set ${change.name}'s stack from ${change.from} to ${change.to}`,
    );
}

/**
 * The lines for one hand's log. `nameOf(seat)` gives a seat's player name;
 * `yourSeat` is the viewer's seat (its own hole cards are shown to it).
 */
export function logLines(log, nameOf, yourSeat) {
  const lines = [];
  const isBombPot = Boolean(log.length && log[0].kind === "hand_started" && log[0].bomb_pot);
  for (const event of log) {
    lines.push(...eventLines(event, nameOf, yourSeat, isBombPot));
  }
  return lines;
}

function eventLines(event, nameOf, yourSeat, isBombPot) {
  const name = event.seat === undefined ? "" : nameOf(event.seat);
  switch (event.kind) {
    case "hand_started":
      return [
        `${nameOf(event.button)} has the button`,
        ...(event.bomb_pot ? [`Bomb pot: everyone puts in ${event.bomb_pot}, and the hand starts on the flop`] : []),
      ];
    case "ante_posted":
      if (isBombPot) return [`${name} puts ${event.amount} in the bomb pot${allIn(event)}`];
      return [`${name} posts an ante of ${event.amount}${allIn(event)}`];
    case "blind_posted":
      if (event.blind === "straddle") return [`${name} straddles ${event.amount}${allIn(event)}`];
      return [`${name} posts the ${event.blind} blind ${event.amount}${allIn(event)}`];
    case "runouts_chosen":
      return [event.count === 2 ? "The players run it twice" : "The board is run once"];
    case "hole_cards_dealt":
      return event.seat === yourSeat && event.cards ? [`Dealt to you: ${cardsText(event.cards)}`] : [];
    case "player_acted":
      return [actedLine(name, event)];
    case "board_dealt": {
      const street = STREET_NAMES[event.street] || event.street;
      return [`${event.run ? "Second board, " + street.toLowerCase() : street}: ${cardsText(event.cards)}`];
    }
    case "uncalled_bet_returned":
      return [`Uncalled bet of ${event.amount} returned to ${name}`];
    case "cards_shown":
      return [`${name} shows ${cardsText(event.cards)}`];
    case "cards_mucked":
      return [`${name} mucks`];
    case "pot_awarded":
      return awardedLines(nameOf, event);
    default:
      return [];
  }
}
