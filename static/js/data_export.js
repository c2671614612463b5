/** The profile's "Your data" (templates/accounts/includes/your_data.html): while the
 * zip is being prepared, ask the server every few seconds where it stands, and show
 * the download link once it is ready, without reloading the page (and losing what the
 * member may be typing in the profile's forms). Without script, a reload shows it. */

const POLL_MS = 3000;

function showLink(box, body) {
  const link = document.createElement("a");
  link.className = "button";
  link.href = body.url;
  link.setAttribute("download", "");
  link.dataset.exportLink = "";
  link.textContent = "Download your data (zip)";
  const para = document.createElement("p");
  para.append(link);
  const help = document.createElement("p");
  help.className = "help";
  const until = new Date(body.expires_at).toLocaleString(undefined, { dateStyle: "long", timeStyle: "short" });
  help.textContent = `The link works once, until ${until}; the file is then deleted from Felt.`;
  box.replaceChildren(para, help);
  delete box.dataset.preparing;
}

async function poll(box) {
  let body;
  try {
    const response = await fetch(box.dataset.statusUrl, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`status ${response.status}`);
    body = await response.json();
  } catch {
    body = { status: "preparing" }; // a blip: ask again
  }
  if (body.status === "ready") showLink(box, body);
  else if (body.status === "preparing") window.setTimeout(() => poll(box), POLL_MS);
  else window.location.reload(); // failed or gone: the page says so and offers the button
}

const box = document.querySelector("[data-data-export][data-preparing]");
if (box) window.setTimeout(() => poll(box), POLL_MS);
