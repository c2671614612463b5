// The site's navigation on narrow screens: a Menu button in the header opens the
// links as a list over the page (felt.css, .site-header[data-menu]). Without this
// script the links stay in the header, wrapped, as on a wide screen.

const header = document.querySelector(".site-header");
const toggle = header && header.querySelector("[data-menu-toggle]");
const nav = header && header.querySelector(".site-nav");

function setOpen(isOpen) {
  toggle.setAttribute("aria-expanded", String(isOpen));
  header.dataset.menu = isOpen ? "open" : "closed";
}

if (toggle && nav) {
  toggle.hidden = false;
  setOpen(false);
  toggle.addEventListener("click", () => setOpen(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || toggle.getAttribute("aria-expanded") !== "true") return;
    setOpen(false);
    toggle.focus();
  });
  // A tap anywhere else closes it.
  document.addEventListener("click", (event) => {
    if (!header.contains(event.target)) setOpen(false);
  });
}
