// A finishing place as people say it: 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st
// (the words of engine/formats/pokerstars.py's `ordinal`, which the pages use).

/** "1st" for 1, "" for no place (a player still in). */
export function ordinal(place) {
  if (place === null || place === undefined || place === "") return "";
  const number = Number(place);
  const tens = number % 100;
  if (tens >= 10 && tens <= 20) return `${number}th`;
  return `${number}${{ 1: "st", 2: "nd", 3: "rd" }[number % 10] || "th"}`;
}
