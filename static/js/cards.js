// Playing cards drawn with plain elements: the rank and a Unicode suit,
// red for hearts and diamonds, black for clubs and spades.

const SUITS = {
  c: { symbol: "♣", name: "clubs", color: "black" },
  d: { symbol: "♦", name: "diamonds", color: "red" },
  h: { symbol: "♥", name: "hearts", color: "red" },
  s: { symbol: "♠", name: "spades", color: "black" },
};

const RANKS = {
  2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
  9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace",
};

/** "Ts" -> "10♠", for text such as the hand log. */
export function cardText(code) {
  const rank = code[0] === "T" ? "10" : code[0];
  return rank + SUITS[code[1]].symbol;
}

/** "Ts" -> "Ten of spades", for screen readers. */
export function cardName(code) {
  return `${RANKS[code[0]]} of ${SUITS[code[1]].name}`;
}

/** A face-up card element. */
export function cardFace(code) {
  const suit = SUITS[code[1]];
  const el = document.createElement("span");
  el.className = `card face ${suit.color}`;
  el.dataset.card = code;
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(code));
  const rank = document.createElement("span");
  rank.className = code[0] === "T" ? "rank ten" : "rank"; // "10": the widest rank
  rank.textContent = code[0] === "T" ? "10" : code[0];
  const symbol = document.createElement("span");
  symbol.className = "suit";
  symbol.textContent = suit.symbol;
  rank.setAttribute("aria-hidden", "true");
  symbol.setAttribute("aria-hidden", "true");
  el.append(rank, symbol);
  return el;
}

/** A face-down card element. */
export function cardBack() {
  const el = document.createElement("span");
  el.className = "card back";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "Face-down card");
  return el;
}
