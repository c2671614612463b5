// Checks a finished hand's cards against the deck sealed before the deal, in the
// browser with Web Crypto's SHA-256: the same checks as `python -m engine verify`
// (engine/fairness.py, engine/cut.py), on the hand as the API gives it to this viewer.
// A hand the players cut (docs/fairness.md, "The cut") is dealt from the sealed deck in
// the cut's order: its cut is checked first, then each card against the leaf of the
// sealed position it was dealt from. The table page uses the cut's pieces too
// (static/js/cut.js).

const DECK_SIZE = 52;
const HEX_DIGEST = /^[0-9a-f]{64}$/;
// engine.cut names a hand by printable text: no control, format or separator
// character but the space.
const HAND_NAME = /^(?:[^\p{C}\p{Z}]| )+$/u;

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function hexOf(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function sha256Hex(text) {
  return hexOf(await sha256(new TextEncoder().encode(text)));
}

/** A player's commitment to the cut value ``value`` (64 hex) for the hand ``ref``. */
export function cutCommitment(ref, value) {
  return sha256Hex(`felt-cut-value:${ref}:${value}`);
}

/** The cut's seed (32 bytes): from the deck's commitment and every value used, sorted. */
export function cutSeed(deckCommitment, values) {
  const used = [...values].sort().map((value) => `:${value}`);
  return sha256(new TextEncoder().encode(`felt-cut-seed:${deckCommitment}${used.join("")}`));
}

/** The stream's bytes: sha256(seed + counter) for counter 0, 1, ... (8 bytes, big-endian). */
async function* cutStream(seed) {
  for (let counter = 0n; ; counter += 1n) {
    const block = new Uint8Array(seed.length + 8);
    block.set(seed);
    new DataView(block.buffer).setBigUint64(seed.length, counter);
    yield* await sha256(block);
  }
}

/** The cut (Fisher-Yates over the stream): entry ``d`` is the sealed position that dealt
 * position ``d`` is taken from. A byte that would bias a draw is thrown away. */
export async function cutPermutation(seed, size = DECK_SIZE) {
  const stream = cutStream(seed);
  const order = Array.from({ length: size }, (_, position) => position);
  for (let i = size - 1; i > 0; i -= 1) {
    const choices = i + 1;
    let byte = (await stream.next()).value;
    while (byte >= 256 - (256 % choices)) byte = (await stream.next()).value;
    const j = byte % choices;
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** The permutation's fingerprint, as the hand's record and the public log give it. */
export function permutationDigest(permutation) {
  return sha256Hex(`felt-cut-permutation:${permutation.join(",")}`);
}

/** A value in a sentence, written as Python writes it: the engine's sentences alike. */
function shown(value) {
  if (typeof value === "string") return `'${value}'`;
  return value === null || value === undefined ? "None" : JSON.stringify(value);
}

/** A cut object's hand and (commitment, value or null) pairs; throws a sentence if it
 * cannot be read (as engine.cut's _read_record). */
function readCut(record, deckCommitment) {
  const digest = (what, text) => {
    if (typeof text === "string" && HEX_DIGEST.test(text)) return text;
    throw new Error(`${what} must be 64 lowercase hex digits (32 bytes), not ${shown(text)}`);
  };
  if (!record || typeof record !== "object" || !Array.isArray(record.contributions)) {
    throw new Error("expected an object with 'hand' and a list of 'contributions'");
  }
  if (typeof record.hand !== "string" || !HAND_NAME.test(record.hand)) {
    throw new Error(`a hand is named by printable text, not ${shown(record.hand)}`);
  }
  const pairs = record.contributions.map((entry) => {
    if (!entry || typeof entry !== "object") {
      throw new Error(`a contribution is an object, not ${shown(entry)}`);
    }
    const value = entry.value === null || entry.value === undefined ? null : digest("a cut value", entry.value);
    return [digest("a cut commitment", entry.commitment), value];
  });
  digest("the deck commitment", deckCommitment);
  return pairs;
}

/** The values a cut object used (none for an uncut hand). */
export function cutValues(record) {
  return (record.contributions || []).map((entry) => entry.value).filter((value) => value);
}

/** Check a hand's ``cut`` object against the deck's commitment: the permutation it makes
 * (null when the object cannot be read) and what does not match, one sentence each. */
export async function verifyCut(record, deckCommitment) {
  let pairs;
  try {
    pairs = readCut(record, deckCommitment);
  } catch (error) {
    return { permutation: null, problems: [`cut: ${error.message}`] };
  }
  const problems = [];
  for (const [commitment, value] of pairs) {
    if (value !== null && (await cutCommitment(record.hand, value)) !== commitment) {
      problems.push(`cut: the value ${value} does not open its commitment ${commitment}`);
    }
  }
  const values = pairs.map(([, value]) => value).filter((value) => value !== null);
  const seedBytes = await cutSeed(deckCommitment, values);
  const seed = hexOf(seedBytes);
  const permutation = await cutPermutation(seedBytes);
  if (record.seed !== seed) problems.push(`cut: the seal and the values make the seed ${seed}`);
  const digest = await permutationDigest(permutation);
  if (record.permutation_digest !== digest) problems.push(`cut: the permutation's digest is ${digest}`);
  if (record.uncut !== (values.length === 0)) problems.push(`cut: 'uncut' should be ${values.length === 0}`);
  return { permutation, problems };
}

/** This browser's note of a closed list of commitments (``cut.sealed.commitments``), to
 * compare with the hand's record once dealt: a list grown after the values were out
 * could have steered the cut. */
export function listDigest(commitments) {
  return sha256Hex(`felt-cut-list:${[...commitments].sort().join(",")}`);
}

/** What does not match between a hand's record and what this browser noted when it
 * revealed its value (``own``: ``{seal, listDigest}``): the seal it was shown, and the
 * list of commitments closed with it. */
export async function ownProblems(cut, commitment, own) {
  const problems = [];
  if (!own) return problems;
  if (own.seal && own.seal !== commitment) {
    problems.push(`commitment: not the seal shown before you revealed your cut value, ${own.seal}`);
  }
  const listed = cut && Array.isArray(cut.contributions) ? cut.contributions : null;
  if (own.listDigest && listed && (await listDigest(listed.map((entry) => entry.commitment))) !== own.listDigest) {
    problems.push("cut: its commitments are not the list closed when the deck was sealed");
  }
  return problems;
}

/** The seats dealt in, in the order they get cards: from the first left of the button. */
export function dealingOrder(button, seats) {
  const sorted = [...seats].sort((a, b) => a - b);
  return [...sorted.filter((seat) => seat > button), ...sorted.filter((seat) => seat <= button)];
}

/** Deck position -> card, for every card this hand shows the viewer. Each player gets
 * one card a round, two rounds (four in Omaha); the board follows, and a second
 * run-out's own cards follow the first board (docs/fairness.md). */
function cardsShown(hand) {
  const order = dealingOrder(hand.button, hand.players.map((player) => player.seat));
  const rounds = hand.game === "plo" ? 4 : 2;
  const shown = new Map();
  const second = (hand.second_board || []).filter((card) => !hand.board.includes(card));
  [...hand.board, ...second].forEach((card, index) => shown.set(rounds * order.length + index, card));
  for (const player of hand.players) {
    if (!player.hole_cards) continue;
    const index = order.indexOf(player.seat);
    player.hole_cards.forEach((card, round) => shown.set(index + round * order.length, card));
  }
  return shown;
}

/** Dealt position -> card revealed there; each card and salt must open the leaf of the
 * sealed position it was dealt from (the same position in a hand without a cut). */
async function checkRevealed(revealed, leaves, permutation, problems) {
  const given = new Map();
  for (const { position, card, salt } of revealed) {
    if (!Number.isInteger(position) || position < 0 || position >= DECK_SIZE) {
      problems.push(`revealed: no deck position ${position}`);
      continue;
    }
    given.set(position, card);
    const sealed = permutation ? permutation[position] : position;
    const where = `position ${position}${sealed === position ? "" : ` (sealed ${sealed})`}`;
    if ((await sha256Hex(`${sealed}:${card}:${salt}`)) !== leaves[sealed]) {
      problems.push(`${where}: ${card} with its salt does not hash to the leaf`);
    }
  }
  return given;
}

/** What does not match, one sentence each; an empty list when everything does. */
export async function verifyHand(hand) {
  const { fairness } = hand;
  const leaves = fairness.leaves || [];
  if (leaves.length !== DECK_SIZE || !leaves.every((leaf) => HEX_DIGEST.test(leaf))) {
    return [`leaves: expected ${DECK_SIZE} lowercase sha256 hex strings`];
  }
  const problems = [];
  if ((await sha256Hex(leaves.join(""))) !== fairness.commitment) {
    problems.push("commitment: the leaves do not hash to it");
  }
  let permutation = null;
  if ("cut" in fairness) {
    const cut = await verifyCut(fairness.cut, String(fairness.commitment));
    problems.push(...cut.problems);
    if (cut.permutation === null) return problems;
    permutation = cut.permutation;
  }
  const given = await checkRevealed(fairness.revealed || [], leaves, permutation, problems);
  const shown = cardsShown(hand);
  for (const position of [...shown.keys()].sort((a, b) => a - b)) {
    const card = shown.get(position);
    if (!given.has(position)) {
      problems.push(`position ${position}: ${card} is shown but was not revealed`);
    } else if (given.get(position) !== card) {
      problems.push(`position ${position}: revealed ${given.get(position)}, the hand shows ${card}`);
    }
  }
  for (const position of [...given.keys()].sort((a, b) => a - b)) {
    if (!shown.has(position)) {
      problems.push(`position ${position}: revealed, but the hand shows no card dealt from it`);
    }
  }
  return problems;
}

const players = (count) => `${count} player${count === 1 ? "" : "s"}`;

/** How a checked hand was cut, for a sentence: "" without a cut. ``own`` is this
 * browser's value for the hand, if its reveal was accepted (static/js/cut.js). */
function cutWords(cut, own) {
  if (!cut) return "";
  if (cut.uncut) return ", uncut: no player's value went into the order of the deal";
  const used = cutValues(cut);
  return `, cut by ${players(used.length)}${own && used.includes(own.value) ? ", yours included" : ""}`;
}

/** Fill ``element`` (data-fairness) with the outcome of checking ``hand``. ``own``: what
 * this browser revealed for the hand's cut and had accepted, ``{value, seal, listDigest}``
 * (static/js/cut.js), or null. */
export async function showVerification(element, hand, own = null) {
  if (!hand.fairness) {
    element.textContent = "This hand was dealt before decks were sealed: nothing to check.";
    return;
  }
  if (!globalThis.crypto || !crypto.subtle) {
    element.textContent = "Your browser checks the deck only over HTTPS; use python -m engine verify.";
    return;
  }
  const { cut, commitment, revealed } = hand.fairness;
  const problems = [...(await verifyHand(hand)), ...(await ownProblems(cut, commitment, own))];
  const isDisputed = Boolean(cut && own && !cutValues(cut).includes(own.value));
  const disputed = isDisputed ? "Disputed: your cut value was left out, though the server took it in time. " : "";
  element.dataset.verified = problems.length ? "no" : isDisputed ? "disputed" : "yes";
  const seen = `the ${revealed.length} cards you saw are the ones sealed before the deal`;
  element.textContent = problems.length
    ? `${disputed}Deck check failed: ${problems.join("; ")}`
    : `${disputed}Deck verified: ${seen}${cutWords(cut, own)}.`;
  element.title = `Commitment ${commitment}`;
}
