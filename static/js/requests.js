// Requests reach the host at once, wherever they are looking: a rebuy or a seat
// asked for shows as a count on the Host tab and on the panel's toggle, and as a
// toast over the page with Approve and Refuse (a chime too, if sound is on). The
// toast answers with the same messages as the host panel (docs/protocol.md,
// "Host controls"); the next snapshot shows what the server made of it.

import { play } from "./sounds.js";

const SHOWN_AT_ONCE = 3; // more wait in the Host tab, counted on its badge

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** What waits for the host's answer, oldest seat requests after the rebuys asked in seats. */
export function hostRequests(table) {
  const rebuys = table.seats
    .filter((seat) => seat.occupied && seat.wants_rebuy)
    .map((seat) => ({
      key: `rebuy:${seat.seat}:${seat.name}`,
      name: seat.name,
      text: `${seat.name} asks for a rebuy`,
      answer: (approve) => ({ type: "answer_rebuy", seat: seat.seat, approve }),
    }));
  const seats = (table.seat_requests || []).map((request) => ({
    key: `seat:${request.id}`,
    name: request.name,
    text: request.is_rebuy
      ? `${request.name} is back and asks for a rebuy (seat ${request.seat + 1})`
      : `${request.name} asks for seat ${request.seat + 1}`,
    answer: (approve) => ({ type: "answer_seat", request: request.id, approve }),
  }));
  return [...rebuys, ...seats];
}

export class RequestAlerts {
  /** `box` is the toasts' container; `badges` the count marks on the Host tab and the toggle. */
  constructor(box, badges, send) {
    this.box = box;
    this.badges = badges;
    this.send = send;
    this.seen = new Set(); // keys already announced (chimed), so a snapshot does not chime again
    this.dismissed = new Set(); // keys the host closed the toast of: still counted
    this.isFirst = true;
  }

  /** After each snapshot: `isHost` says whether the page's member runs the table. */
  update(table, isHost) {
    const requests = isHost && !table.closed_at ? hostRequests(table) : [];
    this.showCount(requests.length);
    const fresh = requests.filter((request) => !this.seen.has(request.key));
    // A request waiting when the page opened is counted and shown, but not chimed.
    if (fresh.length && !this.isFirst) play("request");
    this.isFirst = false;
    const keys = new Set(requests.map((request) => request.key));
    for (const key of this.seen) if (!keys.has(key)) this.seen.delete(key);
    for (const key of this.dismissed) if (!keys.has(key)) this.dismissed.delete(key);
    for (const request of fresh) this.seen.add(request.key);
    const shown = requests.filter((request) => !this.dismissed.has(request.key)).slice(0, SHOWN_AT_ONCE);
    this.box.replaceChildren(...shown.map((request) => this.toast(request)));
    this.box.hidden = shown.length === 0;
  }

  /** The badges show the count; screen readers hear the toasts (a live region). */
  showCount(count) {
    for (const badge of this.badges) {
      badge.hidden = count === 0;
      badge.textContent = count > 9 ? "9+" : String(count);
    }
  }

  toast(request) {
    const node = el("div", undefined, "request-toast");
    node.setAttribute("role", "group");
    node.setAttribute("aria-label", request.text);
    node.dataset.request = request.key;
    const answer = (label, approve, className) => {
      const button = el("button", label, className);
      button.type = "button";
      button.setAttribute("aria-label", `${label}: ${request.text}`);
      button.addEventListener("click", () => {
        button.disabled = true; // once: the next snapshot takes the toast away
        this.send(request.answer(approve));
      });
      return button;
    };
    const close = el("button", "×", "request-close secondary");
    close.type = "button";
    close.setAttribute("aria-label", `Later: ${request.text} (it stays in the Host tab)`);
    close.addEventListener("click", () => {
      this.dismissed.add(request.key);
      node.remove();
      this.box.hidden = this.box.childElementCount === 0;
    });
    node.append(el("p", request.text), answer("Approve", true, ""), answer("Refuse", false, "secondary"), close);
    return node;
  }
}
