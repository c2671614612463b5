// The table's side panel (templates/tables/table.html): chat, hand log, ledger and
// host controls as tabs. Beside the felt on a wide screen; on a narrow one a drawer
// over it, opened by the toggle in the table's head. A chat line that arrives while
// the chat cannot be seen marks the Chat tab and the toggle until it is shown.

const WIDE = "(min-width: 64rem) and (min-height: 34rem)"; // as .table-page's grid in table.css

export class SidePanel {
  /** `panel` is the <aside data-panel>; `toggle` the head's button that opens it as a drawer. */
  constructor(panel, toggle) {
    this.panel = panel;
    this.toggle = toggle;
    this.tabs = [...panel.querySelectorAll("[data-tab]")];
    this.marks = [...document.querySelectorAll("[data-unread]")];
    this.unread = 0;
    this.wide = window.matchMedia(WIDE);
    this.wire();
  }

  wire() {
    for (const tab of this.tabs) tab.addEventListener("click", () => this.select(tab.dataset.tab));
    this.panel.querySelector("[role=tablist]").addEventListener("keydown", (event) => this.onArrow(event));
    this.toggle.addEventListener("click", () => this.setOpen(this.panel.dataset.open !== "true"));
    this.panel.querySelector("[data-panel-close]").addEventListener("click", () => {
      this.setOpen(false);
      this.toggle.focus();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.panel.dataset.open === "true") this.setOpen(false);
    });
    this.wide.addEventListener("change", () => this.clearIfSeen());
    document.addEventListener("visibilitychange", () => this.clearIfSeen());
  }

  get selected() {
    return this.tabs.find((tab) => tab.getAttribute("aria-selected") === "true");
  }

  /** Shows the tab `name` (and its pane); the others' panes are hidden. */
  select(name) {
    for (const tab of this.tabs) {
      const isChosen = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(isChosen));
      tab.tabIndex = isChosen ? 0 : -1;
      this.pane(tab.dataset.tab).hidden = !isChosen;
    }
    this.clearIfSeen();
  }

  pane(name) {
    return this.panel.querySelector(`[data-pane="${name}"]`);
  }

  /** Left and right arrows move between the tabs, as in any tab list. */
  onArrow(event) {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const shown = this.tabs.filter((tab) => !tab.hidden);
    const step = event.key === "ArrowRight" ? 1 : -1;
    const next = shown[(shown.indexOf(this.selected) + step + shown.length) % shown.length];
    this.select(next.dataset.tab);
    next.focus();
  }

  setOpen(isOpen) {
    this.panel.dataset.open = String(isOpen);
    this.toggle.setAttribute("aria-expanded", String(isOpen));
    if (isOpen) this.selected.focus();
    this.clearIfSeen();
  }

  /** After each snapshot: a tab shows only while its section has something (the ledger
   * once there is one, the host's controls for the host); a vanished tab gives way to chat. */
  sync() {
    for (const tab of this.tabs) {
      const section = this.pane(tab.dataset.tab).querySelector("section");
      tab.hidden = Boolean(section && section.hidden);
    }
    if (this.selected.hidden) this.select("chat");
  }

  isChatSeen() {
    const isPanelShown = this.wide.matches || this.panel.dataset.open === "true";
    return isPanelShown && this.selected.dataset.tab === "chat" && document.visibilityState === "visible";
  }

  /** A chat line arrived: marked as unread unless the chat is in sight. */
  noteChat() {
    if (this.isChatSeen()) return;
    this.unread += 1;
    this.showMarks();
  }

  clearIfSeen() {
    if (!this.isChatSeen()) return;
    this.unread = 0;
    this.showMarks();
  }

  /** The dots show the count; screen readers hear it in the tab's and the toggle's names. */
  showMarks() {
    const count = this.unread === 1 ? "1 new chat message" : `${this.unread} new chat messages`;
    for (const mark of this.marks) {
      mark.hidden = this.unread === 0;
      mark.textContent = this.unread > 9 ? "9+" : String(this.unread);
    }
    const chatTab = this.tabs.find((tab) => tab.dataset.tab === "chat");
    const words = this.unread ? `, ${count}` : "";
    chatTab.setAttribute("aria-label", `Chat${words}`);
    this.toggle.setAttribute("aria-label", `Chat, hand log and more${words}`);
  }
}
