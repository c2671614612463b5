// The action controls of the player to act: fold, check or call, bet or raise
// with a slider, a number box and presets, all kept inside the legal range the
// server sent; the keyboard shortcuts for them; and the choices a player makes
// before their turn (PreActions), sent by themselves when the turn comes.

function clamp(value, low, high) {
  return Math.min(Math.max(value, low), high);
}

function chips(amount) {
  return amount.toLocaleString("en-US");
}

/** The player's stack plus their bet on this street: an all-in raise's total. */
function everything(table) {
  const you = table.seats[table.your_seat] || {};
  return (you.stack || 0) + (you.bet || 0);
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

/** What calling costs the viewer right now: the bet they face, capped by their stack. */
function facing(table, you) {
  const bet = table.hand ? table.hand.current_bet : 0;
  return Math.min(Math.max(0, bet - (you.bet || 0)), you.stack);
}

/**
 * The choices a player makes while another player decides: "Check/Fold" (check if free,
 * else fold), "Check" (only while checking is free), "Call N" and "Call any". One at a
 * time, each a toggle; the one chosen is sent by itself when the turn comes, if the
 * rules still allow it. A choice holds for the bet the player saw when making it: a
 * bet or raise since drops it (but "Call any", which calls whatever it is), and so do
 * a new street and a new hand. Kept in the page only: the server never knows of it.
 */
export class PreActions {
  constructor(root) {
    this.root = root;
    this.table = null;
    this.choice = null;
    this.chosenAt = null; // {hand, street, facing} when the choice was made
    this.buttons = {};
    root.querySelectorAll("[data-pre-action]").forEach((button) => {
      this.buttons[button.dataset.preAction] = button;
      button.addEventListener("click", () => this.toggle(button.dataset.preAction));
    });
  }

  /** The viewer's seat while they wait in a hand in play with a decision still to make. */
  waitingSeat(table) {
    if (table.your_seat === null || table.your_seat === undefined) return null;
    const you = table.seats[table.your_seat];
    const hand = table.hand;
    const isWaiting = hand && !hand.is_over && table.to_act !== null && table.to_act !== table.your_seat;
    if (!isWaiting || !you || !you.occupied || !you.is_dealt_in || you.has_folded || you.is_all_in) {
      return null;
    }
    return you.is_sitting_out || you.is_leaving ? null : you;
  }

  toggle(kind) {
    const you = this.table && this.waitingSeat(this.table);
    if (!you) return;
    this.choice = this.choice === kind ? null : kind;
    const hand = this.table.hand;
    this.chosenAt = { hand: this.table.hand_number, street: hand.street, facing: facing(this.table, you) };
    this.render(you);
  }

  clear() {
    this.choice = null;
    this.chosenAt = null;
  }

  /** With every snapshot: drops a choice the table has moved past, shows the choices. */
  update(table) {
    this.table = table;
    this.expire(table);
    const you = this.waitingSeat(table);
    this.root.hidden = !you;
    this.render(you);
  }

  expire(table) {
    if (!this.choice) return;
    const you = table.your_seat === null || table.your_seat === undefined ? null : table.seats[table.your_seat];
    const hand = table.hand;
    const isSameStreet = hand && !hand.is_over && table.hand_number === this.chosenAt.hand &&
      hand.street === this.chosenAt.street;
    if (!isSameStreet || !you || !you.occupied || !you.is_dealt_in || you.has_folded) {
      this.clear();
    } else if (this.choice !== "call_any" && facing(table, you) !== this.chosenAt.facing) {
      this.clear(); // a bet or a raise since: the player chooses again
    }
  }

  /** The viewer's turn has come: the action their choice sends (null: none, or no longer
   * allowed), and the choice is used up. */
  take(table) {
    const choice = this.choice;
    const chosenFacing = this.chosenAt ? this.chosenAt.facing : null;
    this.clear();
    const legal = table.legal;
    if (choice === "check_fold") return legal.can_check ? "check" : "fold";
    if (choice === "check") return legal.can_check ? "check" : null;
    if (choice === "call") return !legal.can_check && legal.call_amount === chosenFacing ? "call" : null;
    if (choice === "call_any") return legal.can_check ? "check" : "call";
    return null;
  }

  /** The choices for the bet ``you`` face (null: not waiting, only which one is chosen). */
  render(you) {
    if (!you) {
      for (const button of Object.values(this.buttons)) {
        button.setAttribute("aria-pressed", String(this.choice === button.dataset.preAction));
      }
      return;
    }
    const toCall = facing(this.table, you);
    const shown = {
      check_fold: toCall === 0 ? "Check/Fold" : "Fold",
      check: toCall === 0 ? "Check" : null,
      call: toCall > 0 ? `Call ${chips(toCall)}` : null,
      call_any: "Call any",
    };
    for (const [kind, button] of Object.entries(this.buttons)) {
      button.hidden = shown[kind] === null;
      if (shown[kind] !== null) button.textContent = shown[kind];
      button.setAttribute("aria-pressed", String(this.choice === kind));
    }
  }
}

export class Controls {
  /** `root` holds the controls' markup (templates/tables/table.html); `send(message)` sends a
   * frame; `preActions` (optional) is the markup of the choices made before the turn. */
  constructor(root, send, preActions = null) {
    this.root = root;
    this.send = send;
    this.preActions = preActions ? new PreActions(preActions) : null;
    this.table = null;
    this.key = null;
    this.isPending = false;
    this.slider = root.querySelector("[data-raise-slider]");
    this.amountBox = root.querySelector("[data-raise-amount]");
    this.raiseBox = root.querySelector("[data-raise-box]");
    this.foldButton = root.querySelector('[data-act="fold"]');
    this.callButton = root.querySelector('[data-act="call"]');
    this.raiseButton = root.querySelector('[data-act="raise"]');
    this.note = root.querySelector("[data-raise-note]");
    this.wire();
  }

  wire() {
    this.foldButton.addEventListener("click", () => this.act("fold"));
    this.callButton.addEventListener("click", () => this.act(this.table.legal.can_check ? "check" : "call"));
    this.raiseButton.addEventListener("click", () => this.act("raise"));
    this.slider.addEventListener("input", () => this.setAmount(Number(this.slider.value)));
    this.amountBox.addEventListener("input", () => this.onTyped());
    this.amountBox.addEventListener("change", () => this.correctTyped());
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
    this.preActions?.update(table);
    this.root.hidden = !this.isActive;
    if (!this.isActive) {
      this.key = null;
      this.explain(null);
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
    const chosen = this.preActions?.take(table);
    if (chosen) this.act(chosen); // chosen while waiting: sent as the turn comes
  }

  prepareRaise(table) {
    const legal = table.legal;
    // Pot-limit (rule 22): the largest raise is the pot, not an all-in.
    const max = this.root.querySelector('[data-preset="max"]');
    const isPotLimited = legal.max_raise_to < everything(table);
    max.textContent = isPotLimited ? "Max" : "All-in";
    max.setAttribute("aria-label", isPotLimited ? "The pot limit" : "All-in amount");
    for (const input of [this.slider, this.amountBox]) {
      input.min = String(legal.min_raise_to);
      input.max = String(legal.max_raise_to);
      input.step = "1";
    }
    const key = decisionKey(table);
    const previous = Number(this.amountBox.value);
    const keep = key === this.key && Number.isFinite(previous) && previous > 0;
    this.key = key;
    if (keep && document.activeElement === this.amountBox) {
      this.onTyped(); // a snapshot while typing (someone sat down): the box is left as typed
      return;
    }
    this.setAmount(keep ? previous : legal.min_raise_to);
  }

  /** Puts ``value`` (clamped to the legal range) in the box, on the slider and on the button. */
  setAmount(value) {
    if (!this.canRaise) return;
    const legal = this.table.legal;
    const amount = clamp(Math.round(Number.isFinite(value) ? value : legal.min_raise_to),
      legal.min_raise_to, legal.max_raise_to);
    this.slider.value = String(amount);
    this.amountBox.value = String(amount);
    this.labelRaise(amount);
    this.explain(null);
  }

  /** The amount typed in the box, or null when it is not a legal raise-to total. */
  typedAmount() {
    const legal = this.table.legal;
    const text = this.amountBox.value.trim();
    const typed = Number(text);
    if (text === "" || !Number.isInteger(typed)) return null;
    return typed >= legal.min_raise_to && typed <= legal.max_raise_to ? typed : null;
  }

  /** Why ``typed`` cannot be sent as it is: the smallest raise, or all the player has. */
  reason(typed) {
    const legal = this.table.legal;
    const you = this.table.seats[this.table.your_seat] || {};
    const has = (you.stack || 0) + (you.bet || 0);
    if (Number.isFinite(typed) && typed > legal.max_raise_to) {
      // pot limit (rule 22): the most is the pot, not everything the player has
      if (legal.max_raise_to < has) return `Pot limit: the most is ${chips(legal.max_raise_to)}`;
      return `You have ${chips(has)}: all-in is ${chips(legal.max_raise_to)}`;
    }
    if (Number.isFinite(typed) && typed > legal.min_raise_to) return "Whole chips only";
    if (legal.min_raise_to === legal.max_raise_to) {
      return legal.max_raise_to < has
        ? `You can only raise to ${chips(legal.max_raise_to)}`
        : `You can only go all-in: ${chips(legal.max_raise_to)}`;
    }
    const isBet = !this.table.hand || this.table.hand.current_bet === 0;
    return isBet
      ? `The smallest bet is ${chips(legal.min_raise_to)}`
      : `The smallest raise is to ${chips(legal.min_raise_to)}`;
  }

  /** Says under the box why the amount changed (or clears the note with null). */
  explain(text) {
    if (!this.note) return;
    this.note.textContent = text || "";
    this.note.hidden = !text;
    this.amountBox.setAttribute("aria-invalid", text ? "true" : "false");
  }

  /** While typing: the slider and the button follow the box, clamped to the legal range.
   * Above the maximum the box shows the maximum at once (more digits only go higher),
   * saying why; below the minimum it is left alone until the box is left, so "1" can
   * still become "150", and the note says what the smallest raise is meanwhile. */
  onTyped() {
    if (!this.canRaise) return;
    const legal = this.table.legal;
    const typed = Number(this.amountBox.value);
    if (!Number.isFinite(typed) || this.amountBox.value === "") return;
    if (typed > legal.max_raise_to) {
      this.setAmount(legal.max_raise_to);
      this.explain(this.reason(typed));
      return;
    }
    const amount = clamp(Math.round(typed), legal.min_raise_to, legal.max_raise_to);
    this.slider.value = String(amount);
    this.labelRaise(amount);
    this.explain(this.typedAmount() === null ? this.reason(typed) : null);
  }

  /** The box left with an amount that cannot be sent: the nearest legal one, and why.
   * Returns whether the box had to change. */
  correctTyped() {
    if (!this.canRaise || this.typedAmount() !== null) return false;
    const typed = Number(this.amountBox.value.trim() === "" ? Number.NaN : this.amountBox.value);
    const why = this.reason(typed);
    this.setAmount(typed);
    this.explain(why);
    return true;
  }

  labelRaise(amount) {
    const isBet = !this.table.hand || this.table.hand.current_bet === 0;
    const word = amount === everything(this.table) ? "All-in" : isBet ? "Bet" : "Raise to";
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
      // An amount the rules refuse is corrected in the box, with the reason, and not sent:
      // the player sees what a second press sends.
      if (this.correctTyped()) {
        this.amountBox.focus();
        return;
      }
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
    } else if (key.startsWith("Arrow") && target.closest?.("[role=tablist]")) {
      return false; // the arrows move between the side panel's tabs there
    } else if (key === "ArrowUp" || key === "ArrowRight") {
      this.nudge(1);
    } else if (key === "ArrowDown" || key === "ArrowLeft") {
      this.nudge(-1);
    } else if (key === "Enter" && !target.closest?.("button, a, [role=tab], .share")) {
      // Enter on a focused button, link or tab presses that; anywhere else it confirms the raise.
      this.act("raise");
    } else {
      return false;
    }
    return true;
  }
}
