// The hand replayer: steps through the snapshots the server built for this
// viewer (tables/history/replay.py), drawing each with the live table's renderer.
// Back / forward / play / pause, a jump to each street, the pot and each
// visible hand's equity at every step.

import { acceptedValue } from "./cut.js";
import { showVerification } from "./fairness.js";
import { potText, renderBoard, renderSeats, seatName, winnersText } from "./render.js";

const PLAY_MS = 1200;
const root = document.getElementById("replayer");
const steps = JSON.parse(document.getElementById("replay-steps").textContent);
const find = (selector) => root.querySelector(selector);
const parts = {
  seats: find("[data-seats]"),
  board: find("[data-board]"),
  pot: find("[data-pot]"),
  label: find("[data-label]"),
  equity: find("[data-equity]"),
  position: find("[data-position]"),
  play: find("[data-play]"),
};
let index = 0;
let timer = null;

function equityText(step) {
  const entries = Object.entries(step.equity || {});
  if (entries.length === 0) return "";
  // a sampled figure (an Omaha hand before the flop) is said to be one
  return (step.equity_is_estimate ? "Equity (estimated): " : "Equity: ") + entries
    .map(([seat, percent]) => `${seatName(step.table, Number(seat))} ${percent}%`)
    .join(" · ");
}

function show(target) {
  index = Math.max(0, Math.min(steps.length - 1, target));
  const step = steps[index];
  renderSeats(parts.seats, step.table);
  renderBoard(parts.board, step.table.hand);
  parts.pot.textContent = potText(step.table);
  const winners = step.table.hand.is_over ? winnersText(step.table) : "";
  parts.label.textContent = winners ? `${step.label}` : step.label;
  parts.equity.textContent = equityText(step);
  parts.position.textContent = `Step ${index + 1} of ${steps.length}`;
  root.dataset.step = String(index);
  root.dataset.street = step.street;
  find('[data-step="back"]').disabled = index === 0;
  find('[data-step="forward"]').disabled = index === steps.length - 1;
  for (const button of root.querySelectorAll("[data-street]")) {
    button.disabled = !steps.some((s) => s.street === button.dataset.street);
  }
  if (index === steps.length - 1) pause();
}

function pause() {
  if (timer !== null) clearInterval(timer);
  timer = null;
  parts.play.textContent = "Play";
  parts.play.setAttribute("aria-label", "Play");
}

function play() {
  if (index === steps.length - 1) show(0);
  parts.play.textContent = "Pause";
  parts.play.setAttribute("aria-label", "Pause");
  timer = setInterval(() => show(index + 1), PLAY_MS);
}

root.addEventListener("click", (event) => {
  const button = event.target.closest("button");
  if (!button || !root.contains(button)) return;
  if (button.dataset.step === "back") { pause(); show(index - 1); }
  if (button.dataset.step === "forward") { pause(); show(index + 1); }
  if (button.dataset.play !== undefined) { if (timer === null) play(); else pause(); }
  if (button.dataset.street) {
    pause();
    show(steps.findIndex((s) => s.street === button.dataset.street));
  }
});

document.addEventListener("keydown", (event) => {
  if (event.key === "ArrowLeft") { pause(); show(index - 1); }
  if (event.key === "ArrowRight") { pause(); show(index + 1); }
});

show(0);
const hand = JSON.parse(document.getElementById("hand-detail").textContent);
// A hand the players cut: whether this browser's value, accepted in time, was used.
showVerification(find("[data-fairness]"), hand, acceptedValue(hand.fairness?.cut?.hand));
