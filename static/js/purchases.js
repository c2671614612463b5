// A tournament's chips for points, from the viewer's own snapshot
// (TABLE.your_purchases, docs/protocol.md): the rebuy offered to a player out of
// chips (with the seconds left to take it), a rebuy for a short stack, the add-on
// after the rebuy period, and chips bought that arrive before the next hand.

/** Fills the dock's purchases panel; `secondsLeft(iso)` counts to a moment. */
export function renderPurchases(panel, table, secondsLeft) {
  const offer = table.your_purchases;
  panel.hidden = !offer;
  if (!offer) return;
  const rebuy = panel.querySelector('[data-command="rebuy"]');
  const addOn = panel.querySelector('[data-command="add_on"]');
  const decline = panel.querySelector('[data-command="decline_rebuy"]');
  const note = panel.querySelector("[data-purchases-note]");
  const unit = offer.unit;
  const lines = [];
  rebuy.hidden = !offer.rebuy;
  decline.hidden = !(offer.rebuy && offer.rebuy.until);
  if (offer.rebuy) {
    const { price, chips, left, until } = offer.rebuy;
    rebuy.textContent = `Rebuy ${chips} for ${price} ${unit}`;
    rebuy.setAttribute("aria-label", `Rebuy ${chips} chips for ${price} ${unit}`);
    const count = `${left} rebuy${left === 1 ? "" : "s"} left`;
    if (until) {
      const seconds = Math.max(0, Math.ceil(secondsLeft(until)));
      lines.push(`You are out of chips: rebuy within ${seconds} s or you are out (${count}).`);
    } else {
      lines.push(`Rebuys are open (${count}).`);
    }
  }
  addOn.hidden = !offer.add_on;
  if (offer.add_on) {
    const { price, chips } = offer.add_on;
    addOn.textContent = `Add-on ${chips} for ${price} ${unit}`;
    addOn.setAttribute("aria-label", `Add-on: ${chips} chips for ${price} ${unit}`);
    lines.push("The add-on is open, once per player.");
  }
  if (offer.chips_coming) lines.push(`${offer.chips_coming} chips bought arrive before your next hand.`);
  note.textContent = lines.join(" ");
  panel.classList.toggle("urgent", Boolean(offer.rebuy && offer.rebuy.until));
}
