// Deck advice page: while the run plays, reload the server-rendered results every moment.
(function () {
  "use strict";
  const root = document.getElementById("advice-run");
  if (!root) return;
  const target = document.getElementById("advice-results");
  let delay = 1500;

  function active() {
    const state = target.querySelector(".advice-state");
    return state && state.dataset.active === "1";
  }

  async function poll() {
    try {
      const response = await fetch(root.dataset.fragment, { credentials: "same-origin" });
      if (response.ok) {
        // keep open the evidence someone is reading while the numbers change under it
        const open = new Set([...target.querySelectorAll("details[open]")].map((d) => d.closest("li").dataset.key));
        target.innerHTML = await response.text();
        target.querySelectorAll("li[data-key]").forEach((li) => {
          const details = li.querySelector("details");
          if (details && open.has(li.dataset.key)) details.open = true;
        });
        delay = 1500;
      } else {
        delay = Math.min(delay * 2, 10000);
      }
    } catch (e) { delay = Math.min(delay * 2, 10000); /* the network blinked */ }
    if (active()) setTimeout(poll, delay);
  }

  if (active()) setTimeout(poll, delay);
})();
