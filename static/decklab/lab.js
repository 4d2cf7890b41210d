// Deck lab run page: poll the run's JSON while workers play; refresh the chart as batches land.
(function () {
  "use strict";
  const root = document.getElementById("lab-run");
  if (!root) return;
  const api = root.dataset.api;
  const fragment = root.dataset.fragment;
  const progress = document.getElementById("lab-progress");
  const doneEl = document.getElementById("lab-done");
  const statusEl = document.getElementById("lab-status");
  const labels = {};
  document.getElementById("status-labels").content.querySelectorAll("[data-k]").forEach(
    (el) => { labels[el.dataset.k] = el.textContent; });
  let shownDone = Number(root.dataset.done);
  let delay = 700;

  function finished(status) { return status === "done" || status === "failed"; }

  async function refreshChart() {
    const response = await fetch(fragment, { credentials: "same-origin" });
    if (response.ok) document.getElementById("lab-results").innerHTML = await response.text();
  }

  async function poll() {
    let data = null;
    try {
      const response = await fetch(api, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (response.ok) data = await response.json();
    } catch (e) { /* the network blinked: try again with a longer pause */ }
    if (data) {
      progress.max = data.games;
      progress.value = data.done;
      doneEl.textContent = data.done;
      statusEl.textContent = labels[data.status] || data.status;
      statusEl.dataset.status = data.status;
      root.dataset.status = data.status;
      if (data.done !== shownDone || finished(data.status)) {
        shownDone = data.done;
        await refreshChart();
      }
      if (finished(data.status)) return;
      delay = 700;
    } else {
      delay = Math.min(delay * 2, 8000);
    }
    setTimeout(poll, delay);
  }

  if (!finished(root.dataset.status)) setTimeout(poll, 300);
})();
