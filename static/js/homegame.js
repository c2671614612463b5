// A friends' table's game and home-game options on the page (docs/rules.md rules
// 23-25): the head's line naming them, the player's straddle tick, the run-it-twice
// question in the dock, and the host's form for the next hand. Drawn from the
// snapshot; every click is one message (docs/protocol.md).

import { markClicked, showSetting } from "./host.js";

export const GAME_NAMES = { nlhe: "No-Limit Hold'em", plo: "Pot-Limit Omaha" };

function you(table) {
  const seat = table.your_seat;
  return seat === null || seat === undefined ? null : table.seats[seat];
}

/** "Straddles · Run it twice · Bomb pot 40 every 5 hands": the options in play. */
export function optionsText(table) {
  const options = table.options;
  if (!options) return "";
  const parts = [];
  if (options.straddle) parts.push("Straddles");
  if (options.run_it_twice) parts.push("Run it twice");
  if (options.bomb_pot_ante) {
    const when = options.bomb_pot_every ? ` every ${options.bomb_pot_every} hands` : "";
    parts.push(`Bomb pot ${options.bomb_pot_ante}${when}`);
  }
  if (options.bomb_pot_next) parts.push("Bomb pot next hand");
  return parts.map((part) => `· ${part}`).join(" ");
}

/** The run-it-twice question: what the viewer is asked, or null. */
function question(table) {
  const runout = table.hand && table.hand.runout;
  if (!runout) return null;
  const seat = table.your_seat;
  const isAsked = seat !== null && seat !== undefined && runout.seats.includes(seat);
  return { runout, isAsked, hasAnswered: isAsked && String(seat) in runout.answers };
}

/** The dock's question for a player in the pot who has not answered yet. */
export function renderRunout(box, table) {
  const asked = question(table);
  box.hidden = !asked || !asked.isAsked || asked.hasAnswered;
  if (box.hidden) return;
  const others = asked.runout.seats.length - 1;
  box.querySelector("[data-runout-note]").textContent =
    `Twice only if ${others === 1 ? "the other player agrees" : `all ${others + 1} players agree`}; no answer is once.`;
}

/** The announcement while the question is open ("Run it twice? 1 of 2 players have
 * answered · 12 s"); the viewer's own answer shows in the question leaving the dock. */
export function runoutAnnouncement(table, secondsLeft) {
  const asked = question(table);
  if (!asked) return "";
  const answered = Object.keys(asked.runout.answers).length;
  const count = `${answered} of ${asked.runout.seats.length} players have answered`;
  return `Run it twice? ${count} · ${Math.max(0, Math.ceil(secondsLeft))} s`;
}

/** The straddle tick, where the table allows straddles. */
export function renderStraddle(label, table) {
  const seat = you(table);
  label.hidden = !seat || !(table.options && table.options.straddle);
  if (!label.hidden) showSetting(label.querySelector("[data-straddle]"), Boolean(seat.wants_straddle));
}

/** The host's options form, filled from the snapshot unless the host is editing it. */
export function renderOptions(form, table) {
  const options = table.options;
  if (!options || form.contains(document.activeElement)) return;
  form.elements.game.value = table.game;
  form.elements.straddle.checked = options.straddle;
  form.elements.run_it_twice.checked = options.run_it_twice;
  form.elements.bomb_pot_ante.value = String(options.bomb_pot_ante);
  form.elements.bomb_pot_every.value = String(options.bomb_pot_every);
  const bomb = form.querySelector("[data-bomb-pot]");
  bomb.hidden = !options.bomb_pot_ante;
  bomb.setAttribute("aria-pressed", String(options.bomb_pot_next));
  bomb.textContent = options.bomb_pot_next ? "Call off the bomb pot" : "Bomb pot next hand";
}

/** Wires the tick, the question's buttons and the host's form to `send`. */
export function wireHomeGame(root, send, currentTable) {
  const tick = root.querySelector("[data-straddle]");
  tick?.addEventListener("change", () => {
    markClicked(tick);
    send({ type: "straddle", on: tick.checked });
  });
  root.querySelectorAll("[data-runout-answer]").forEach((button) => {
    button.addEventListener("click", () => {
      send({ type: "run_it_twice", run_twice: button.dataset.runoutAnswer === "true" });
      root.querySelector("[data-runout]").hidden = true; // one tap; the snapshot confirms
    });
  });
  const form = root.querySelector("[data-options-form]");
  if (!form) return;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    send({
      type: "set_options",
      game: form.elements.game.value,
      straddle: form.elements.straddle.checked,
      run_it_twice: form.elements.run_it_twice.checked,
      bomb_pot_ante: Number(form.elements.bomb_pot_ante.value),
      bomb_pot_every: Number(form.elements.bomb_pot_every.value),
    });
    document.activeElement.blur();
  });
  form.querySelector("[data-bomb-pot]").addEventListener("click", () => {
    const table = currentTable();
    send({ type: "bomb_pot", on: !(table && table.options && table.options.bomb_pot_next) });
  });
}
