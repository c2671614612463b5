// The host's panel at a friends' table (docs/protocol.md, "Host controls"):
// pause and resume, the blinds for the next hand, approvals, per player
// mute, make host and remove, letting a removed player back, and stack changes
// (a correction, or chips moved between two players). Drawn from the snapshot; every click is one
// message, and the next snapshot shows what the server made of it.

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function button(text, message, label) {
  const node = el("button", text, "secondary");
  node.type = "button";
  node.dataset.message = JSON.stringify(message);
  if (label) node.setAttribute("aria-label", label);
  return node;
}

/** Whether the host removed the member on this page and has not let them back. */
export function isBarred(table, userId) {
  return (table.barred || []).some((barred) => barred.user_id === userId);
}

/** Whether the member on this page runs the table. */
export function isHost(table, userId) {
  return table.host_user_id !== null && table.host_user_id !== undefined && table.host_user_id === userId;
}

function playerRow(table, info) {
  const row = el("li");
  row.dataset.hostSeat = String(info.seat);
  row.append(el("span", info.name, "host-player"));
  if (info.wants_rebuy) {
    row.append(
      el("span", "asks for a rebuy", "host-asks"),
      button("Allow rebuy", { type: "answer_rebuy", seat: info.seat, approve: true }, `Allow ${info.name}'s rebuy`),
      button("Refuse", { type: "answer_rebuy", seat: info.seat, approve: false }, `Refuse ${info.name}'s rebuy`),
    );
  }
  const mute = info.is_muted ? "Unmute" : "Mute";
  row.append(
    button(mute, { type: "mute", seat: info.seat, muted: !info.is_muted }, `${mute} ${info.name}`),
    button("Make host", { type: "make_host", seat: info.seat }, `Make ${info.name} the host`),
    button(info.is_removed ? "Leaving" : "Remove", { type: "remove", seat: info.seat }, `Remove ${info.name}`),
  );
  return row;
}

function requestRow(request) {
  const row = el("li");
  row.append(
    el("span", `${request.name} ${request.is_rebuy ? "is back and asks for a rebuy in" : "asks for"} seat ${request.seat + 1}`, "host-asks"),
    button("Let sit", { type: "answer_seat", request: request.id, approve: true }, `Let ${request.name} sit`),
    button("Refuse", { type: "answer_seat", request: request.id, approve: false }, `Refuse ${request.name}`),
  );
  return row;
}

function barredRow(barred) {
  const row = el("li");
  row.append(
    el("span", `${barred.name} was removed`, "host-asks"),
    button("Allow back", { type: "allow_back", player: barred.user_id }, `Allow ${barred.name} back`),
  );
  return row;
}

/** The stack forms' player lists: every person seated, the host too, with their stack. */
function fillPlayers(form, people) {
  for (const select of form.querySelectorAll("select")) {
    // Not the list the host is choosing from: refilling it would close it under the
    // pointer. The others follow the table, even while an amount is being typed.
    if (select === document.activeElement) continue;
    const chosen = select.value;
    select.replaceChildren(
      ...people.map((info) => {
        const option = el("option", `${info.name} (${info.stack})`);
        option.value = String(info.seat);
        return option;
      }),
    );
    if (people.some((info) => String(info.seat) === chosen)) select.value = chosen;
  }
}

// A snapshot sent before the click reached the server still carries the old
// setting; drawing it would untick the box just ticked. A box keeps the
// clicked value until a snapshot agrees or the wait runs out (a refusal).
const APPROVAL_WAIT_MS = 3000;

/** Notes that `box` was just clicked: `showSetting` keeps its value a moment. */
export function markClicked(box) {
  box.dataset.pending = String(box.checked);
  box.dataset.pendingSince = String(Date.now());
}

/** Draws a setting from a snapshot into `box`, unless it contradicts a click in flight. */
export function showSetting(box, value) {
  const pending = box.dataset.pending;
  if (pending !== undefined) {
    const waited = Date.now() - Number(box.dataset.pendingSince);
    if (String(value) !== pending && waited < APPROVAL_WAIT_MS) return;
    delete box.dataset.pending;
  }
  box.checked = value;
}

/** Shows the panel to the host only, filled from `table`. */
export function renderHost(panel, table, userId) {
  panel.hidden = !isHost(table, userId) || Boolean(table.closed_at);
  if (panel.hidden) return;
  panel.querySelector('[data-host="pause"]').hidden = table.is_paused;
  panel.querySelector('[data-host="resume"]').hidden = !table.is_paused;
  panel.querySelector('[data-host="end_game"]').hidden = table.closes_after_hand;
  showSetting(panel.querySelector('[data-approval="rebuys"]'), table.rebuy_approval);
  showSetting(panel.querySelector('[data-approval="seating"]'), table.seat_approval);
  showSetting(panel.querySelector("[data-listed]"), table.listed);
  const form = panel.querySelector("[data-blinds-form]");
  if (!form.contains(document.activeElement)) {
    const next = table.next_blinds || table;
    form.elements.small_blind.value = String(next.small_blind);
    form.elements.big_blind.value = String(next.big_blind);
    form.elements.ante.value = String(next.ante);
  }
  const others = table.seats.filter((info) => info.occupied && !info.is_bot && !info.is_you);
  panel.querySelector("[data-host-players]").replaceChildren(...others.map((info) => playerRow(table, info)));
  panel.querySelector("[data-host-requests]").replaceChildren(...(table.seat_requests || []).map(requestRow));
  panel.querySelector("[data-host-barred]").replaceChildren(...(table.barred || []).map(barredRow));
  const people = table.seats.filter((info) => info.occupied && !info.is_bot);
  panel.querySelectorAll("[data-stack-form]").forEach((stackForm) => fillPlayers(stackForm, people));
}

// Ending the game cashes everyone out for good: the first click only asks again.
const CONFIRM_MS = 5000;

function isConfirmed(button) {
  if (button.dataset.armed === "true") return true;
  const label = button.textContent;
  button.dataset.armed = "true";
  button.textContent = "Sure? Click again to end the game";
  window.setTimeout(() => {
    button.dataset.armed = "false";
    button.textContent = label;
  }, CONFIRM_MS);
  return false;
}

/** Wires the panel's controls to `send`. */
export function wireHost(panel, send) {
  panel.addEventListener("click", (event) => {
    const target = event.target.closest("[data-message], [data-host]");
    if (!target) return;
    if (target.dataset.host === "end_game" && !isConfirmed(target)) return;
    send(target.dataset.message ? JSON.parse(target.dataset.message) : { type: target.dataset.host });
  });
  panel.querySelectorAll("[data-approval]").forEach((box) => {
    box.addEventListener("change", () => {
      markClicked(box);
      send({ type: "set_approvals", [box.dataset.approval]: box.checked });
    });
  });
  const listed = panel.querySelector("[data-listed]");
  listed.addEventListener("change", () => {
    markClicked(listed);
    send({ type: "set_listed", listed: listed.checked });
  });
  const form = panel.querySelector("[data-blinds-form]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const number = (name) => Number(form.elements[name].value);
    send({ type: "set_blinds", small_blind: number("small_blind"), big_blind: number("big_blind"), ante: number("ante") });
    document.activeElement.blur();
  });
  // Set a stack, or move chips: the form's fields are the message's (whole numbers).
  panel.querySelectorAll("[data-stack-form]").forEach((stackForm) => {
    stackForm.addEventListener("submit", (event) => {
      event.preventDefault();
      const message = { type: stackForm.dataset.stackForm };
      for (const field of stackForm.elements) if (field.name) message[field.name] = Number(field.value);
      send(message);
      document.activeElement.blur();
    });
  });
}
