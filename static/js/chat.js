// The table's chat: lines drawn as text (never as HTML), newest at the bottom.

const MAX_LINES = 100; // kept on the page; the server sends the last 20 on connect

function lineOf(chat) {
  const item = document.createElement("li");
  const name = document.createElement("strong");
  name.textContent = chat.name;
  item.append(name, `: ${chat.text}`);
  if (chat.at) item.title = new Date(chat.at).toLocaleTimeString();
  return item;
}

/** Adds chat lines to `list` (an <ol>), dropping the oldest past MAX_LINES. */
export function addChat(list, lines) {
  list.append(...lines.map(lineOf));
  while (list.children.length > MAX_LINES) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
}

/** Sends what is typed in `form` as a chat line, then clears the box; a quick
 * reaction's button sends its own words. */
export function wireChat(form, send) {
  const reactions = form.parentElement.querySelector(".reactions");
  if (reactions) {
    reactions.addEventListener("click", (event) => {
      const button = event.target.closest("[data-reaction]");
      if (button) send({ type: "chat", text: button.dataset.reaction });
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const box = form.querySelector("input");
    const text = box.value.trim();
    if (!text) return;
    send({ type: "chat", text });
    box.value = "";
  });
}
