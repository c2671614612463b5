/** The schedule page's line of how many members can afford the buy-in, said again as
 * the buy-in is typed (the server says it first: afford_line in
 * tournaments/clubs/views.py, in the same words). */

const line = document.querySelector("[data-afford-line]");
const buyIn = document.querySelector("[data-schedule] [name='buy_in']");
const balances = JSON.parse(document.getElementById("member-balances").textContent);

function sentence(price) {
  const members = `${balances.length} member${balances.length === 1 ? "" : "s"}`;
  if (price === 0) return `A freeroll: every member can register (${members}).`;
  const able = balances.filter((balance) => balance >= price).length;
  const verb = able === 1 ? "has" : "have";
  return `${able} of ${members} ${verb} the ${price.toLocaleString("en")} club points this buy-in takes.`;
}

function update() {
  const price = Number(buyIn.value);
  if (buyIn.value.trim() === "" || !Number.isInteger(price) || price < 0) return;
  line.textContent = sentence(price);
}

if (line && buyIn) {
  buyIn.addEventListener("input", update);
  update(); // a buy-in typed before this script arrived (a slow connection) counts too
}
