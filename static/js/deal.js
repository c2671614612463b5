// A deal at a tournament's final table (rule 28; docs/tournaments.md, "A deal at the
// final table"), from the snapshot's public `deal` and `deal_figures` and the viewer's
// `can_propose_deal` (docs/protocol.md): a player may open the proposal (the ICM and
// chip-chop figures per player, or amounts of their own, and points kept for the
// winner), then everyone sees the offer with each player's amount and answers it
// within the seconds left.

const METHOD_NAMES = { icm: "an ICM", chip_chop: "a chip-chop", custom: "a custom" };
const STATUS_TEXTS = {
  accepted: "The deal was accepted: its amounts are paid as prizes.",
  refused: "The deal was refused: play goes on.",
  expired: "Not everyone answered the deal in time: play goes on.",
};

const ANNOUNCEMENTS = {
  accepted: "Deal accepted",
  refused: "Deal refused: play goes on",
  expired: "Deal not answered in time: play goes on",
};

/** The short line the felt's announcement adds for a deal just decided; "" otherwise. */
export function dealAnnouncement(table) {
  const deal = table.deal;
  if (!deal || deal.status === "open") return "";
  return ANNOUNCEMENTS[deal.status] || "";
}

function seatName(table, deal, seat) {
  const names = (deal && deal.names) || {};
  return names[seat] || (table.seats[seat] && table.seats[seat].name) || `Seat ${Number(seat) + 1}`;
}

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.append(td);
  return td;
}

/** "1 of 3 players have answered": how far the answers to a deal have come. */
function answeredText(answers, amounts) {
  const asked = Object.keys(amounts).length;
  return `${Object.keys(answers).length} of ${asked} players have answered`;
}

/** The offer as everyone sees it: each player's chips, amount and answer. */
function renderOffer(panel, table, secondsLeft) {
  const deal = table.deal;
  const rows = panel.querySelector("[data-deal-rows]");
  const key = JSON.stringify([deal.amounts, deal.answers, deal.status]);
  if (rows.dataset.key !== key) {
    rows.dataset.key = key;
    rows.replaceChildren();
    panel.querySelector("[data-deal-head]").replaceChildren(
      ...["Player", "Chips", "Deal", "Answer"].map((text) => {
        const th = document.createElement("th");
        th.textContent = text;
        return th;
      }),
    );
    for (const seat of Object.keys(deal.amounts)) {
      const row = document.createElement("tr");
      const answer = deal.answers[seat];
      cell(row, seatName(table, deal, seat) + (Number(seat) === table.your_seat ? " (you)" : ""));
      cell(row, String(deal.stacks[seat] ?? ""));
      cell(row, String(deal.amounts[seat]));
      cell(row, answer === true ? "Accepted" : answer === false ? "Refused" : "…", answer === false ? "no" : "");
      rows.append(row);
    }
  }
  const proposer = seatName(table, deal, deal.proposer_seat);
  const kept = deal.kept_for_winner ? `, ${deal.kept_for_winner} points kept for the winner` : "";
  const note = panel.querySelector("[data-deal-note]");
  if (deal.status === "open") {
    const seconds = Math.max(0, Math.ceil(secondsLeft(deal.ends_at)));
    note.textContent =
      `${proposer} proposes ${METHOD_NAMES[deal.method]} deal${kept}. ` +
      `${answeredText(deal.answers, deal.amounts)}. Answers within ${seconds} s.`;
  } else {
    note.textContent = STATUS_TEXTS[deal.status] || "";
  }
  const mine = table.your_seat !== null && String(table.your_seat) in deal.amounts;
  const canAnswer = deal.status === "open" && mine && !(String(table.your_seat) in deal.answers);
  panel.querySelectorAll("[data-deal-answer]").forEach((button) => {
    button.hidden = !canAnswer;
  });
}

/** The proposal form: figures per player, the method, custom amounts, points kept. */
function renderProposal(panel, table) {
  const figures = table.deal_figures;
  const rows = panel.querySelector("[data-deal-rows]");
  const form = panel.querySelector("[data-deal-form]");
  const key = JSON.stringify(figures);
  if (rows.dataset.key !== key) {
    rows.dataset.key = key;
    rows.replaceChildren();
    panel.querySelector("[data-deal-head]").replaceChildren(
      ...["Player", "Chips", "ICM", "Chip chop", "Custom"].map((text) => {
        const th = document.createElement("th");
        th.textContent = text;
        if (text === "Custom") th.dataset.custom = "";
        return th;
      }),
    );
    for (const seat of Object.keys(figures.stacks)) {
      const row = document.createElement("tr");
      cell(row, seatName(table, null, seat) + (Number(seat) === table.your_seat ? " (you)" : ""));
      cell(row, String(figures.stacks[seat]));
      cell(row, String(figures.icm[seat]));
      cell(row, String(figures.chip_chop[seat]));
      const custom = cell(row, "");
      custom.dataset.custom = "";
      const input = document.createElement("input");
      Object.assign(input, { type: "number", min: "0", step: "1", inputMode: "numeric" });
      input.value = String(figures.icm[seat]);
      input.dataset.dealSeat = seat;
      input.setAttribute("aria-label", `Custom amount for ${seatName(table, null, seat)}`);
      custom.append(input);
      rows.append(row);
    }
    const kept = form.querySelector("[data-deal-kept]");
    kept.max = String(figures.most_kept);
    panel.querySelector("[data-deal-note]").textContent =
      `${figures.to_pay} ${figures.unit} are left to pay. Share them by ICM, by chip chop or your own way; ` +
      `you may keep up to ${figures.most_kept} for the winner and play on.`;
  }
  const method = form.querySelector("[name=deal-method]:checked").value;
  panel.classList.toggle("custom", method === "custom");
  if (method === "custom") {
    let total = 0;
    rows.querySelectorAll("[data-deal-seat]").forEach((input) => {
      total += Number(input.value || 0);
    });
    const due = figures.to_pay - Number(form.querySelector("[data-deal-kept]").value || 0);
    form.querySelector("[data-deal-sum]").textContent =
      total === due ? `Your amounts add up to ${due}.` : `Your amounts add up to ${total}: they must add up to ${due}.`;
  }
}

/** Fills the dock's deal panel; `secondsLeft(iso)` counts to a moment. */
export function renderDeal(panel, table, secondsLeft) {
  const deal = table.deal;
  const mayPropose = Boolean(table.can_propose_deal && table.deal_figures);
  const isOffer = Boolean(deal);
  panel.hidden = !isOffer && !mayPropose;
  if (panel.hidden) {
    panel.classList.remove("proposing");
    return;
  }
  const form = panel.querySelector("[data-deal-form]");
  const opener = panel.querySelector("[data-deal-open]");
  panel.classList.toggle("offer", isOffer);
  const isProposing = !isOffer && panel.classList.contains("proposing");
  opener.hidden = isOffer || isProposing;
  form.hidden = !isProposing;
  panel.querySelector("[data-deal-table]").hidden = !isOffer && !isProposing;
  if (isOffer) {
    renderOffer(panel, table, secondsLeft);
  } else {
    panel.querySelectorAll("[data-deal-answer]").forEach((button) => {
      button.hidden = true;
    });
    if (isProposing) renderProposal(panel, table);
    else {
      const figures = table.deal_figures;
      panel.querySelector("[data-deal-note]").textContent =
        `${Object.keys(figures.stacks).length} players left: you may propose a deal sharing the ${figures.to_pay} ${figures.unit} left to pay.`;
    }
  }
}

/** The panel's buttons: open the proposal, propose, accept, refuse. */
export function wireDeal(panel, send, getTable, secondsLeft) {
  const rows = panel.querySelector("[data-deal-rows]");
  const rerender = () => {
    const table = getTable();
    if (table) renderDeal(panel, table, secondsLeft);
  };
  panel.querySelector("[data-deal-open]").addEventListener("click", () => {
    rows.dataset.key = "";
    panel.classList.add("proposing");
    rerender();
  });
  panel.querySelector("[data-deal-cancel]").addEventListener("click", () => {
    rows.dataset.key = "";
    panel.classList.remove("proposing");
    rerender();
  });
  const form = panel.querySelector("[data-deal-form]");
  form.addEventListener("change", rerender);
  form.addEventListener("input", rerender);
  rows.addEventListener("input", rerender);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const method = form.querySelector("[name=deal-method]:checked").value;
    const kept = Number(form.querySelector("[data-deal-kept]").value || 0);
    const message = { type: "propose_deal", method, kept_for_winner: kept };
    if (method === "custom") {
      message.amounts = {};
      rows.querySelectorAll("[data-deal-seat]").forEach((input) => {
        message.amounts[input.dataset.dealSeat] = Number(input.value || 0);
      });
    }
    rows.dataset.key = "";
    panel.classList.remove("proposing");
    send(message);
  });
  panel.querySelectorAll("[data-deal-answer]").forEach((button) => {
    button.addEventListener("click", () => send({ type: "answer_deal", accept: button.dataset.dealAnswer === "yes" }));
  });
}
