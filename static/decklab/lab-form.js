// Deck lab form: the expected run time for the chosen bot and number of games, before the run
// starts. The same sum as decklab.services.expected_seconds, from the per-game times the
// server put on each option (measured by bench/lab_game_cost.py).
(function () {
  "use strict";
  const form = document.getElementById("lab-form");
  if (!form) return;
  const bot = form.querySelector("#bot");
  const games = form.querySelector("#games");
  const out = document.getElementById("lab-estimate");
  const time = document.getElementById("lab-estimate-time");
  const limits = document.getElementById("lab-limits");
  const workers = Math.max(1, Number(out.dataset.workers) || 1);

  function words(seconds) {
    if (seconds < 120) return out.dataset.s.replace("%(n)d", String(Math.max(1, Math.round(seconds))));
    if (seconds < 7200) return out.dataset.min.replace("%(n)d", String(Math.round(seconds / 60)));
    const hours = (Math.round(seconds / 360) / 10).toString().replace(".", out.dataset.decimal);
    return out.dataset.h.replace("%(n)s", hours);
  }

  function update() {
    const option = bot.options[bot.selectedIndex];
    const max = Number(option.dataset.max);
    games.max = String(max);
    limits.textContent = limits.dataset.template.replace("__MAX__", String(max));
    const n = Number(games.value);
    if (!Number.isInteger(n) || n < 1 || n > max) { time.textContent = "—"; return; }
    const chunk = Number(option.dataset.chunk);
    const rounds = Math.ceil(Math.ceil(n / chunk) / workers);
    time.textContent = words(rounds * Math.min(chunk, n) * Number(option.dataset.perGame));
  }

  bot.addEventListener("change", update);
  games.addEventListener("input", update);
  update();
})();
