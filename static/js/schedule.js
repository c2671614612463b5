// A club's scheduling page: the start is read in the browser's own time zone, and
// the level editor adds, removes and moves rows (levels and breaks) and loads the
// presets. The rows stay plain form fields in the order shown, so what is posted is
// what the page shows; the server checks all of it (tournaments/level_rows.py and
// schedule_tournament) and marks a refused row. Without this script the same rows
// are edited in place.

const form = document.querySelector("[data-schedule]");
const editor = form.querySelector("[data-level-editor]");
const list = editor.querySelector("[data-level-rows]");
const statusLine = editor.querySelector("[data-editor-status]");
const summaryLine = editor.querySelector("[data-editor-summary]");
const presets = JSON.parse(document.getElementById("level-presets").textContent);
const MOVES = { up: "Move up", down: "Move down", remove: "Remove" };
const GLYPHS = { up: "↑", down: "↓", remove: "×" };

let lastRow = null; // the row last worked on: a new break goes after it

/** The start is typed in the browser's zone; the server reads it there (time_zone). */
function showZone() {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  form.querySelector('input[name="time_zone"]').value = zone;
  form.querySelector("[data-zone-name]").textContent = zone;
  form.querySelector("[data-zone-help]").textContent =
    "Your own time. Felt keeps the start in UTC and shows it to each member in their own zone.";
}

function enhance() {
  for (const row of rows()) {
    if (isBlank(row)) row.remove();
    else addTools(row);
  }
  editor.classList.add("is-enhanced");
  editor.querySelector("[data-no-script-help]").hidden = true;
  editor.querySelector("[data-editor-actions]").hidden = false;
  for (const button of editor.querySelectorAll("[data-preset]")) {
    button.type = "button"; // a preset loads here; posting it is the no-script way
    button.addEventListener("click", () => loadPreset(button.dataset.preset));
  }
  editor.querySelector("[data-add-level]").addEventListener("click", addLevel);
  editor.querySelector("[data-add-break]").addEventListener("click", addBreak);
  list.addEventListener("click", onRowButton);
  list.addEventListener("focusin", (event) => {
    lastRow = event.target.closest("[data-row]");
  });
  list.addEventListener("input", (event) => {
    clearError(event.target.closest("[data-row]"));
    summarise();
  });
  renumber();
}

const rows = () => [...list.querySelectorAll(":scope > [data-row]")];
const isBreak = (row) => row.dataset.row === "break";
const valueOf = (row, name) => row.querySelector(`[name="row_${name}"]`).value.trim();

function isBlank(row) {
  return ["small_blind", "big_blind", "ante", "minutes"].every((name) => !valueOf(row, name));
}

function addTools(row) {
  const tools = row.querySelector("[data-row-tools]");
  tools.replaceChildren(
    ...Object.keys(MOVES).map((action) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "row-tool";
      button.dataset.action = action;
      button.textContent = GLYPHS[action];
      return button;
    }),
  );
}

/** Level numbers, and names that say which row a field or button is about. */
function renumber() {
  let number = 0;
  const all = rows();
  all.forEach((row, index) => {
    const name = isBreak(row) ? `Break after level ${number}` : `Level ${++number}`;
    row.querySelector("[data-row-label]").textContent = isBreak(row) ? "Break" : name;
    row.dataset.name = name;
    for (const cell of row.querySelectorAll(".cell")) {
      const what = cell.querySelector(".cell-name").textContent.toLowerCase();
      cell.querySelector("input").setAttribute("aria-label", `${name}: ${what}`);
    }
    for (const button of row.querySelectorAll("[data-action]")) {
      const action = button.dataset.action;
      button.setAttribute("aria-label", `${MOVES[action]}: ${name}`);
      button.title = MOVES[action];
      if (action === "up") button.disabled = index === 0;
      if (action === "down") button.disabled = index === all.length - 1;
    }
  });
  summarise();
}

/** How many levels and breaks, and how long until the last level (it then runs on). */
function summarise() {
  const all = rows();
  const levels = all.filter((row) => !isBreak(row));
  let minutes = 0;
  for (const row of all.slice(0, all.indexOf(levels.at(-1)))) {
    minutes += Number(valueOf(row, "minutes")) || 0;
  }
  const breaks = all.length - levels.length;
  const hours = Math.floor(minutes / 60);
  const length = hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
  summaryLine.textContent =
    `${levels.length} level${levels.length === 1 ? "" : "s"}, ${breaks} break${breaks === 1 ? "" : "s"}. ` +
    (levels.length > 1 ? `The last level starts ${length} after the start (breaks included) and lasts until the end.` : "");
}

function announce(text) {
  statusLine.textContent = text;
}

function clearError(row) {
  if (!row) return;
  row.classList.remove("has-error");
  row.querySelector("[data-row-error]")?.remove();
}

function onRowButton(event) {
  const button = event.target.closest("button[data-action]");
  if (!button) return;
  const row = button.closest("[data-row]");
  const name = row.dataset.name;
  const action = button.dataset.action;
  if (action === "remove") {
    const next = row.nextElementSibling || row.previousElementSibling;
    row.remove();
    renumber();
    (next?.querySelector('[data-action="remove"]') || editor.querySelector("[data-add-level]")).focus();
    announce(`${name} removed.`);
    return;
  }
  const other = action === "up" ? row.previousElementSibling : row.nextElementSibling;
  if (!other) return;
  if (action === "up") other.before(row);
  else other.after(row);
  renumber();
  // moving the row took the focus away: give it back, to move again with the keyboard
  (button.disabled ? row.querySelector("[data-action]:not(:disabled)") : button).focus();
  lastRow = row;
  announce(`${name} moved ${action}: now ${row.dataset.name}.`);
}

/** A row from its template, with values. */
function makeRow(template, values) {
  const row = form.querySelector(template).content.firstElementChild.cloneNode(true);
  for (const [name, value] of Object.entries(values)) {
    row.querySelector(`[name="row_${name}"]`).value = String(value);
  }
  addTools(row);
  return row;
}

function levelRow([small, big, ante, minutes]) {
  return makeRow("[data-level-template]", { small_blind: small, big_blind: big, ante, minutes });
}

function loadPreset(name) {
  const preset = presets[name];
  list.replaceChildren(...preset.levels.map(levelRow));
  form.querySelector('[name="structure"]').value = name;
  form.querySelector('[name="starting_stack"]').value = preset.starting_stack;
  lastRow = null;
  renumber();
  announce(`${name[0].toUpperCase()}${name.slice(1)} levels loaded: ${preset.levels.length} levels.`);
}

/** A level after the last: blinds doubled, the same minutes (to edit as wanted). */
function addLevel() {
  const last = rows().filter((row) => !isBreak(row)).at(-1);
  let values = ["", "", "", ""];
  if (last) {
    const big = Number(valueOf(last, "big_blind")) || 0;
    const ante = Number(valueOf(last, "ante")) ? Math.round(big / 4) : 0;
    values = [big, big * 2, ante, valueOf(last, "minutes")];
  }
  const row = levelRow(values);
  list.append(row);
  renumber();
  row.querySelector('[name="row_small_blind"]').focus();
  announce(`${row.dataset.name} added.`);
}

/** A break after the row last worked on, else before the last level. */
function addBreak() {
  const row = makeRow("[data-break-template]", {});
  const levels = rows().filter((r) => !isBreak(r));
  if (lastRow && lastRow.isConnected) lastRow.after(row);
  else if (levels.length > 1) levels.at(-1).before(row);
  else list.append(row);
  renumber();
  row.querySelector('[name="row_minutes"]').focus();
  lastRow = row;
  announce(`${row.dataset.name} added.`);
}

/** Enter in a quick-structure field fills the levels (elsewhere it schedules). */
function quickEnter() {
  const quick = form.querySelector("[data-quick]");
  quick.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.target.tagName === "BUTTON") return;
    event.preventDefault();
    quick.querySelector("[data-quick-fill]").click();
  });
}

showZone();
enhance();
quickEnter();
