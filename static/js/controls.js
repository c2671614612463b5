// The action controls of the player to act: fold, check or call, bet or raise
// with a slider, a number box and presets, all kept inside the legal range the
// server sent; and the keyboard shortcuts for them.

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

function chipsInFront(table) {
  return table.seats.reduce((sum, seat) => sum + (seat.occupied ? seat.bet : 0), 0);
}

/**
 * The raise-to total of a preset: "min", "half" (half pot), "pot" or "max",
 * clamped to [min_raise_to, max_raise_to]. A pot-sized raise first calls, then
 * raises by the whole pot as it stands after the call.
 */
export function presetAmount(table, preset) {
  const legal = table.legal;
  const low = legal.min_raise_to;
  const high = legal.max_raise_to;
  if (preset === "min") return low;
  if (preset === "max") return high;
  const gathered = table.hand ? table.hand.pots.reduce((sum, pot) => sum + pot.amount, 0) : 0;
  const potAfterCall = gathered + chipsInFront(table) + legal.call_amount;
  const currentBet = table.hand ? table.hand.current_bet : 0;
  const share = preset === "half" ? potAfterCall / 2 : potAfterCall;
  return clamp(Math.round(currentBet + share), low, high);
}

function decisionKey(table) {
  const hand = table.hand || {};
  return `${table.hand_number}/${hand.street}/${table.to_act}/${hand.current_bet}`;
}

function isTyping(target) {
  return target instanceof HTMLElement && (target.isContentEditable || target.tagName === "TEXTAREA" ||
    (target.tagName === "INPUT" && !("raiseAmount" in target.dataset) && target.type !== "range"));
}

export class Controls {
  /** `root` holds the controls' markup (templates/tables/table.html); `send(message)` sends a frame. */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.table = null;
    this.key = null;
    this.isPending = false;
    this.slider = root.querySelector("[data-raise-slider]");
    this.amountBox = root.querySelector("[data-raise-amount]");
    this.raiseBox = root.querySelector("[data-raise-box]");
    this.foldButton = root.querySelector('[data-act="fold"]');
    this.callButton = root.querySelector('[data-act="call"]');
    this.raiseButton = root.querySelector('[data-act="raise"]');
    this.wire();
  }

  wire() {
    this.foldButton.addEventListener("click", () => this.act("fold"));
    this.callButton.addEventListener("click", () => this.act(this.table.legal.can_check ? "check" : "call"));
    this.raiseButton.addEventListener("click", () => this.act("raise"));
    this.slider.addEventListener("input", () => this.setAmount(Number(this.slider.value)));
    this.amountBox.addEventListener("input", () => this.onTyped());
    this.amountBox.addEventListener("change", () => this.setAmount(Number(this.amountBox.value)));
    this.root.querySelectorAll("[data-preset]").forEach((button) => {
      button.addEventListener("click", () => this.setAmount(presetAmount(this.table, button.dataset.preset)));
    });
    document.addEventListener("keydown", (event) => this.onKey(event));
  }

  get isActive() {
    const table = this.table;
    return Boolean(table && table.legal && table.your_seat !== null && table.to_act === table.your_seat);
  }

  get canRaise() {
    return this.isActive && this.table.legal.min_raise_to !== null && this.table.legal.max_raise_to !== null;
  }

  /** Shows the controls for a new snapshot (hidden unless the viewer must act). */
  update(table) {
    this.table = table;
    this.isPending = false;
    this.root.hidden = !this.isActive;
    if (!this.isActive) {
      this.key = null;
      return;
    }
    const legal = table.legal;
    const you = table.seats[table.your_seat];
    this.foldButton.hidden = legal.can_check; // the engine refuses a fold when checking is free
    if (legal.can_check) {
      this.label(this.callButton, "Check", "C");
    } else {
      const allIn = you && legal.call_amount >= you.stack ? " (all-in)" : "";
      this.label(this.callButton, `Call ${legal.call_amount}${allIn}`, "C");
    }
    this.raiseBox.hidden = !this.canRaise;
    this.raiseButton.hidden = !this.canRaise;
    if (this.canRaise) this.prepareRaise(table);
    this.setDisabled(false);
  }

  prepareRaise(table) {
    const legal = table.legal;
    for (const input of [this.slider, this.amountBox]) {
      input.min = String(legal.min_raise_to);
      input.max = String(legal.max_raise_to);
      input.step = "1";
    }
    const key = decisionKey(table);
    const previous = Number(this.amountBox.value);
    const keep = key === this.key && Number.isFinite(previous) && previous > 0;
    this.key = key;
    this.setAmount(keep ? previous : legal.min_raise_to);
  }

  setAmount(value) {
    if (!this.canRaise) return;
    const legal = this.table.legal;
    const amount = clamp(Math.round(Number.isFinite(value) ? value : legal.min_raise_to),
      legal.min_raise_to, legal.max_raise_to);
    this.slider.value = String(amount);
    this.amountBox.value = String(amount);
    this.labelRaise(amount);
  }

  /** While typing: the slider and the button follow the box, clamped to the legal range.
   * Above the maximum the box shows the maximum at once (more digits only go higher);
   * below the minimum it is left alone until the box is left, so "1" can still become "150". */
  onTyped() {
    if (!this.canRaise) return;
    const legal = this.table.legal;
    const typed = Number(this.amountBox.value);
    if (!Number.isFinite(typed) || this.amountBox.value === "") return;
    if (typed > legal.max_raise_to) {
      this.setAmount(legal.max_raise_to);
      return;
    }
    const amount = clamp(Math.round(typed), legal.min_raise_to, legal.max_raise_to);
    this.slider.value = String(amount);
    this.labelRaise(amount);
  }

  labelRaise(amount) {
    const legal = this.table.legal;
    const isBet = !this.table.hand || this.table.hand.current_bet === 0;
    const word = amount === legal.max_raise_to ? "All-in" : isBet ? "Bet" : "Raise to";
    this.label(this.raiseButton, `${word} ${amount}`, "R");
  }

  label(button, text, key) {
    const kbd = document.createElement("kbd");
    kbd.textContent = key;
    button.replaceChildren(`${text} `, kbd);
    button.setAttribute("aria-label", text);
  }

  setDisabled(isDisabled) {
    this.root.querySelectorAll("button, input").forEach((control) => {
      control.disabled = isDisabled;
    });
  }

  act(action) {
    if (!this.isActive || this.isPending) return;
    const message = { type: "act", action, decision: this.table.decision };
    if (action === "raise") {
      if (!this.canRaise) return;
      this.setAmount(Number(this.amountBox.value));
      message.amount = Number(this.amountBox.value);
    }
    this.isPending = true;
    this.setDisabled(true); // until the next snapshot (or an error) arrives
    this.send(message);
  }

  /** After an error frame: let the player try again. */
  release() {
    if (!this.isActive) return;
    this.isPending = false;
    this.setDisabled(false);
  }

  nudge(direction) {
    const step = Math.max(1, this.table.big_blind || 1);
    this.setAmount(Number(this.amountBox.value) + direction * step);
  }

  onKey(event) {
    if (!this.isActive || event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    if (this.shortcut(event.key, event.target)) event.preventDefault();
  }

  shortcut(key, target) {
    const lower = key.length === 1 ? key.toLowerCase() : key;
    if (lower === "f") {
      if (this.table.legal.can_check) return false;
      this.act("fold");
    } else if (lower === "c") {
      this.act(this.table.legal.can_check ? "check" : "call");
    } else if (!this.canRaise) {
      return false;
    } else if (lower === "r") {
      this.amountBox.focus();
      this.amountBox.select();
    } else if (key === "ArrowUp" || key === "ArrowRight") {
      this.nudge(1);
    } else if (key === "ArrowDown" || key === "ArrowLeft") {
      this.nudge(-1);
    } else if (key === "Enter" && !target.closest?.(".action-buttons, [data-seat-controls], .share")) {
      // Enter on a focused action button presses it; anywhere else it confirms the raise.
      this.act("raise");
    } else {
      return false;
    }
    return true;
  }
}
