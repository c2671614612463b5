// Table sounds, made with WebAudio (no files, nothing fetched): a chime when it
// is your turn, a soft tick for a deal, a low knock for a check, a bright click
// for chips going in (a bet, raise or call), quick beeps when your clock is
// running out, rising notes when you win, and a doorbell for the host when a
// player asks for a seat or a rebuy (static/js/requests.js).
// Muted or not is remembered in this browser (localStorage); off by default
// until the player turns sound on, since a page may not play sound unasked.

import { icon } from "./icons.js";

const STORAGE_KEY = "felt.sound";
let context = null;

export function isSoundOn() {
  try {
    return window.localStorage.getItem(STORAGE_KEY) === "on";
  } catch {
    return false; // storage refused (private mode): stay quiet
  }
}

function remember(isOn) {
  try {
    window.localStorage.setItem(STORAGE_KEY, isOn ? "on" : "off");
  } catch {
    // not remembered: the choice still holds on this page
  }
}

function audio() {
  if (!context) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    context = new Context();
  }
  if (context.state === "suspended") context.resume();
  return context;
}

/** One note: `frequency` Hz for `seconds`, starting `delay` seconds from now. */
function note(frequency, seconds, delay = 0, volume = 0.15) {
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime + delay;
  const oscillator = ctx.createOscillator();
  const gain = ctx.createGain();
  oscillator.type = "sine";
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + seconds); // a fade, not a click
  oscillator.connect(gain).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + seconds);
}

const SOUNDS = {
  turn: () => { note(660, 0.18); note(880, 0.25, 0.12); },
  deal: () => note(320, 0.06, 0, 0.08),
  win: () => { note(523, 0.2); note(659, 0.2, 0.12); note(784, 0.35, 0.24); },
  check: () => { note(196, 0.07, 0, 0.2); note(196, 0.07, 0.11, 0.2); },
  bet: () => { note(1320, 0.04, 0, 0.08); note(1568, 0.05, 0.05, 0.08); },
  clock: () => { note(988, 0.09); note(988, 0.09, 0.16); note(988, 0.09, 0.32); },
  request: () => { note(784, 0.15); note(587, 0.3, 0.16); }, // a doorbell: someone asks the host
};

// Your clock warns once per decision when this little is left, if it started with more.
export const CLOCK_WARNING_SECONDS = 5;

// Sounds of one snapshot follow each other this far apart (seconds).
const SOUND_GAP = 0.2;

export function play(name, delay = 0) {
  if (isSoundOn() && SOUNDS[name]) {
    if (delay) window.setTimeout(() => SOUNDS[name](), delay * 1000);
    else SOUNDS[name]();
  }
}

/** Play `names` one after another. */
export function playAll(names) {
  names.forEach((name, index) => play(name, index * SOUND_GAP));
}

/** The sound on/off button: shows and flips the remembered choice. */
export function wireSoundButton(button) {
  const show = () => {
    const isOn = isSoundOn();
    button.setAttribute("aria-pressed", String(isOn));
    const words = document.createElement("span");
    words.className = "pill-words"; // hidden on a phone: the icon says it
    words.textContent = isOn ? " Sound on" : " Sound off";
    button.replaceChildren(icon(isOn ? "sound-on" : "sound-off"), words);
    button.setAttribute("aria-label", isOn ? "Turn sound off" : "Turn sound on");
  };
  button.addEventListener("click", () => {
    remember(!isSoundOn());
    if (isSoundOn()) play("deal"); // a click is the gesture that lets the page make sound
    show();
  });
  show();
}

/** The sounds a new snapshot calls for after `previous`, in order: what was just
 * done at the table (a check, chips going in), then what it means for you. */
export function soundsFor(previous, table) {
  if (!previous) return [];
  const sounds = [];
  const action = actionSound(previous, table);
  if (action) sounds.push(action);
  const isYourTurn = (t) => Boolean(t.legal) && t.your_seat !== null && t.to_act === t.your_seat;
  const justEnded = table.hand && table.hand.is_over && !(previous.hand && previous.hand.is_over);
  if (isYourTurn(table) && !isYourTurn(previous)) sounds.push("turn");
  else if (justEnded && table.hand.winners.some((w) => w.seat === table.your_seat)) sounds.push("win");
  else if (table.hand_number > previous.hand_number) sounds.push("deal");
  return sounds;
}

/** A check or chips going in since `previous`, in the same hand. */
function actionSound(previous, table) {
  if (!table.hand || !previous.hand || table.hand_number !== previous.hand_number) return null;
  const acted = table.hand.log.slice(previous.hand.log.length).filter((e) => e.kind === "player_acted");
  const last = acted[acted.length - 1];
  if (!last) return null;
  if (last.action === "check") return "check";
  return ["bet", "raise", "call"].includes(last.action) ? "bet" : null;
}
