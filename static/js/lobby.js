// The lobby's live panel: how many players are online, from the page's lobby
// socket (live.js), which also reconnects when it drops.

import { listen, onStatus } from "./live.js";

const panel = document.getElementById("online");
const countEl = panel.querySelector("[data-online-count]");
const statusEl = panel.querySelector("[data-connection-status]");

onStatus((text) => {
  statusEl.textContent = text.startsWith("Signed out") ? "Signed out: log in again to see who is online." : text;
});
listen((message) => {
  if (message.type === "online") countEl.textContent = String(message.count);
});
