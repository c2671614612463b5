/** Copy buttons of one-time secrets and links (templates/includes/copy_field.html).
 * Like the table's Invite button: the clipboard gets the whole value and the button
 * says "Copied" for a moment; where the clipboard cannot be written (no clipboard API
 * outside https, or refused), the value is selected for copying by hand. */

const COPIED_MS = 2000;

function wire(button) {
  const field = document.getElementById(button.dataset.copy);
  const status = button.closest(".copy-field").querySelector("[data-copy-status]");
  button.addEventListener("click", async () => {
    try {
      if (!navigator.clipboard) throw new Error("no clipboard here");
      await navigator.clipboard.writeText(field.value);
    } catch {
      field.focus();
      field.select();
      status.textContent = "Selected: copy it from here.";
      return;
    }
    button.textContent = "Copied";
    status.textContent = "Copied to the clipboard.";
    window.setTimeout(() => {
      button.textContent = "Copy";
      status.textContent = "";
    }, COPIED_MS);
  });
  button.hidden = false;
}

document.querySelectorAll("[data-copy]").forEach(wire);
