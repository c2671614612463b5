// The players' cut at the table (docs/fairness.md, "The cut"; docs/protocol.md): a
// seated player's page adds a random value to the order each hand is dealt in. It
// commits to a value for the hand the server takes commitments for (`cut.open`),
// reveals it once that hand's deck is sealed (`cut.sealed`), one `cut` message for
// both, and says beside the "Deck sealed" mark how the hand on display was cut: by
// how many players while it is played, then, once its record comes with the hand's
// end, with this player's value in or left out (disputed), or uncut.
// Bots and spectators take no part. The values are kept in localStorage, so that a
// reloaded page can still reveal and the replayer can tell whether yours was used.

import { cutCommitment, cutValues, listDigest, ownProblems, verifyCut } from "./fairness.js";
import { icon } from "./icons.js";

const STORAGE_KEY = "felt-cut-values";
const KEPT_VALUES = 300; // the newest; a value is of use for a few hands, then to the replayer
const VALUE_BYTES = 32;
// Refusals of a cut message: the page says nothing and decides again on the next snapshot.
const CUT_ERRORS = new Set(["stale_cut", "bad_cut", "not_seated"]);
const hasCrypto = Boolean(globalThis.crypto && crypto.subtle); // Web Crypto: https or localhost

/** Every hand's record in this browser, by ref: ``{value, commitAccepted, seal,
 * listDigest, revealAccepted}`` (``seal`` and ``listDigest``: the deck's seal and the
 * closed list of commitments shown when the value was revealed). */
function storedRecords() {
  try {
    const records = JSON.parse(window.localStorage.getItem(STORAGE_KEY) || "{}");
    return records && typeof records === "object" && !Array.isArray(records) ? records : {};
  } catch {
    return {}; // storage refused (private mode) or spoilt: the page keeps its own
  }
}

/** Keeps ``ref``'s record as this page has it (another page of this browser may have
 * drawn a value of its own: the server keeps the last commitment, and the page that
 * reveals the value it kept writes last), and the newest KEPT_VALUES records. A ref (32
 * hex digits) is never an array index, so an object keeps its refs in the order they
 * were first stored. */
function store(ref, record) {
  const records = storedRecords();
  records[ref] = record;
  const refs = Object.keys(records);
  for (const old of refs.slice(0, Math.max(0, refs.length - KEPT_VALUES))) delete records[old];
  try {
    window.localStorage.setItem(STORAGE_KEY, JSON.stringify(records));
  } catch {
    // not kept: this page still remembers it
  }
}

/** What this browser revealed for the hand ``ref`` and the server accepted in time,
 * ``{value, seal, listDigest}``, or null: the replayer says whether the cut used it. */
export function acceptedValue(ref) {
  const record = ref ? storedRecords()[ref] : null;
  if (!record || !record.revealAccepted || typeof record.value !== "string") return null;
  return { value: record.value, seal: record.seal || null, listDigest: record.listDigest || null };
}

function newValue() {
  const bytes = crypto.getRandomValues(new Uint8Array(VALUE_BYTES));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** How the hand on display was cut while it is played: the snapshot gives the count
 * only (`cut.dealt`); its record, to check, comes once the hand is over. */
function describeCount(dealt) {
  const players = `${dealt.cut_by} player${dealt.cut_by === 1 ? "" : "s"}`;
  if (dealt.uncut) return ["uncut", "Uncut", "Uncut: no player's value went into this hand's deal"];
  return [
    "cut",
    `Cut by ${dealt.cut_by}`,
    `Cut by ${players}: the deck was dealt in an order their values chose; checked when the hand is over`,
  ];
}

/** How the hand on display was cut, for the mark: its state and the words, short and
 * long. ``own``: this browser's accepted value, or null; ``problems``: the cut's check,
 * null until it is done ("yours in" only once it passes). */
function describe(dealt, own, problems) {
  const count = cutValues(dealt).length;
  const players = `${count} player${count === 1 ? "" : "s"}`;
  if (problems && problems.length) {
    return ["failed", "Cut check failed", `This hand's cut does not check out: ${problems.join("; ")}`];
  }
  if (own && !cutValues(dealt).includes(own.value)) {
    return [
      "disputed",
      "Disputed: your value was left out",
      "Disputed: the server accepted your cut value in time, but left it out of this hand's cut",
    ];
  }
  if (dealt.uncut) return ["uncut", "Uncut", "Uncut: no player's value went into this hand's deal"];
  if (own && problems !== null) {
    return ["yours", `Cut by ${count} · yours in`, `Cut by ${players}, yours included, checked by this browser`];
  }
  return ["cut", `Cut by ${count}`, `Cut by ${players}: the deck was dealt in an order their values chose`];
}

export class TableCut {
  /** ``element``: the mark (data-cut); ``send(message)`` sends on the socket if open
   * and says whether it did, without a word to the player. */
  constructor(element, send) {
    this.element = element;
    this.send = send;
    this.table = null;
    this.records = new Map(); // ref -> record: this page's, where storage is refused
    this.commitments = new Map(); // ref -> the commitment of this browser's value
    this.sent = new Set(); // "commit:<ref>", "reveal:<ref>" sent on this socket
    this.waiting = []; // the cut messages sent and not answered yet, oldest first
    this.checks = new Map(); // [seal, cut, own] as JSON -> the cut's problems, null while checking
    this.work = Promise.resolve(); // one snapshot's turn at a time: no value drawn twice
    this.isOpen = false; // the mark shows its whole sentence (on a phone, its only words)
    this.shown = null; // what the mark shows now
    element.addEventListener("click", () => this.open(!this.isOpen));
    element.addEventListener("blur", () => this.open(false)); // a tap anywhere else closes it
  }

  open(isOpen) {
    if (isOpen === this.isOpen) return;
    this.isOpen = isOpen;
    this.shown = null;
    this.render();
  }

  /** A new socket: what was sent on the old one may never have arrived. */
  connected() {
    this.sent.clear();
    this.waiting = [];
  }

  /** Every snapshot: take part if seated, and show how the hand on display was cut. */
  update(table) {
    this.table = table;
    this.render();
    if (table.your_seat === null || table.your_seat === undefined || !table.cut || !hasCrypto) return;
    const { cut } = table;
    this.work = this.work.then(() => this.takePart(cut)).catch(() => {});
  }

  /** ``cut_accepted``: the server keeps the commitment, the value, or both. */
  accepted(message) {
    this.waiting.shift();
    if (message.commit) this.remember(message.commit, { commitAccepted: true });
    if (message.reveal) this.remember(message.reveal, { revealAccepted: true });
    this.render();
  }

  /** Whether an error frame is the answer to a cut message (and so is not shown): a
   * stale part is sent again if the next snapshot still asks for it, a bad one not. */
  tookError(message) {
    if (!CUT_ERRORS.has(message.code)) return false;
    if (message.code === "not_seated" && this.waiting.length === 0) return false;
    const refused = this.waiting.shift();
    if (refused && message.code !== "bad_cut") {
      if (refused.commit) this.sent.delete(`commit:${refused.commit.hand}`);
      if (refused.reveal) this.sent.delete(`reveal:${refused.reveal.hand}`);
    }
    return true;
  }

  /** This browser's record for the hand ``ref``, or null: the page's, else the stored one. */
  record(ref) {
    const stored = this.records.has(ref) ? null : storedRecords()[ref];
    if (stored) this.records.set(ref, stored);
    return this.records.get(ref) || null;
  }

  remember(ref, changes) {
    const record = { ...this.record(ref), ...changes };
    this.records.set(ref, record);
    store(ref, record);
  }

  async commitmentOf(ref, value) {
    if (!this.commitments.has(ref)) this.commitments.set(ref, await cutCommitment(ref, value));
    return this.commitments.get(ref);
  }

  /** The brief's rules: reveal this browser's value for the sealed hand if its commitment
   * is in the closed list; commit to a value for the open hand if the server has none. */
  async takePart({ open, sealed }) {
    const message = { type: "cut" };
    const ours = sealed && this.record(sealed.hand);
    if (ours && !ours.revealAccepted && !this.sent.has(`reveal:${sealed.hand}`)) {
      const commitment = await this.commitmentOf(sealed.hand, ours.value);
      if (sealed.commitments.includes(commitment)) {
        this.remember(sealed.hand, { seal: sealed.seal, listDigest: await listDigest(sealed.commitments) });
        message.reveal = { hand: sealed.hand, value: ours.value };
      }
    }
    if (open && !this.sent.has(`commit:${open}`) && !(this.record(open) || {}).commitAccepted) {
      if (!this.record(open)) this.remember(open, { value: newValue() });
      message.commit = { hand: open, commitment: await this.commitmentOf(open, this.record(open).value) };
    }
    if (!message.commit && !message.reveal) return;
    if (!this.send(message)) return; // not connected: the next snapshot tries again
    if (message.commit) this.sent.add(`commit:${open}`);
    if (message.reveal) this.sent.add(`reveal:${sealed.hand}`);
    this.waiting.push(message);
  }

  /** The cut of the hand on display, checked once: the values open their commitments and
   * with the seal make the seed and the permutation's digest the record gives; the seal
   * and the list are the ones shown when this browser revealed its value (``own``). */
  problemsOf(dealt, seal, own) {
    const key = JSON.stringify([seal, dealt, own]);
    if (!hasCrypto) return null;
    if (!this.checks.has(key)) {
      this.checks.set(key, null);
      Promise.all([verifyCut(dealt, seal), ownProblems(dealt, seal, own)]).then(([cut, noted]) => {
        this.checks.set(key, [...cut.problems, ...noted]);
        this.render();
      });
    }
    return this.checks.get(key);
  }

  /** The mark beside "Deck sealed": hidden for a hand without a cut. While the hand is
   * played it gives the count; once it is over, the check of its record. */
  render() {
    const table = this.table;
    const count = table && table.cut && table.cut.dealt;
    this.element.hidden = !count || !table.commitment;
    if (this.element.hidden) return;
    const record = table.cut.record && table.cut.record.hand === count.hand ? table.cut.record : null;
    let described;
    if (record) {
      const own = acceptedValue(record.hand);
      described = describe(record, own, this.problemsOf(record, table.commitment, own));
    } else {
      described = describeCount(count);
    }
    const [state, short, long] = described;
    if (this.shown === `${state}:${short}:${long}`) return;
    this.shown = `${state}:${short}:${long}`;
    this.element.dataset.state = state;
    this.element.dataset.hand = count.hand;
    this.element.dataset.open = String(this.isOpen);
    this.element.title = `${long}.`;
    this.element.setAttribute("aria-label", `${long}.`);
    const words = document.createElement("span");
    words.className = "pill-words";
    words.textContent = ` ${short}`;
    this.element.replaceChildren(icon(state === "disputed" || state === "failed" ? "alert" : "cut"), words);
    if (!this.isOpen) return;
    // Open, the whole sentence in a box under the mark: the felt does not move for it.
    const detail = document.createElement("span");
    detail.className = "cut-detail";
    detail.textContent = `${long}.`;
    this.element.append(detail);
  }
}
