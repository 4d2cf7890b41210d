// Replay of a finished game: every step from the chosen seat's view, with its events.
(function () {
  "use strict";
  const B = window.KGKBoard;
  const root = document.getElementById("replay");
  if (!document.getElementById("replay-controls")) return;
  const seat = Number(root.dataset.seat);
  let data = null;
  let index = 0;
  const views = [];

  const playerName = (s) => {
    const v = views[0];
    const name = (v && v.players[s] && v.players[s].name) || `#${s + 1}`;
    return s === seat ? `${name} (${B.S.ui.you})` : name;
  };

  function show(i) {
    index = Math.max(0, Math.min(views.length - 1, i));
    const step = index === 0 ? { events: data.initial_events || [], seq: 0 } : data.steps[index - 1];
    B.render(views[index], { me: seat, playerName });
    const log = document.getElementById("log");
    log.replaceChildren(...(step.events || []).map((ev) => B.el("li", { class: `ev ev-${ev.kind}`, text: B.describe(ev, playerName) })));
    document.getElementById("scrub").value = index;
    document.getElementById("step-label").textContent = `${index} / ${views.length - 1}`;
    const result = document.getElementById("result");
    if (index === views.length - 1 && data.result) {
      result.hidden = false;
      const r = data.result;
      const reason = B.S.ui.reason[r.reason] || r.reason;
      result.textContent = r.winner_seat === null ? reason : `${B.fmt(B.S.ui.winner, { name: playerName(r.winner_seat) })} (${reason})`;
    } else {
      result.hidden = true;
    }
  }

  async function load() {
    const r = await fetch(root.dataset.replayApi, { credentials: "same-origin", headers: { Accept: "application/json" } });
    data = await r.json();
    if (!r.ok) { document.getElementById("status-line").textContent = data.detail || r.status; return; }
    views.push(data.initial_view, ...data.steps.map((s) => s.view));
    views.forEach(B.learn); // names of every card this seat ever saw, for the log
    document.getElementById("scrub").max = views.length - 1;
    show(0);
  }

  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(index - 1);
  document.getElementById("next").onclick = () => show(index + 1);
  document.getElementById("last").onclick = () => show(views.length - 1);
  document.getElementById("scrub").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(index + 1);
    if (e.key === "ArrowLeft") show(index - 1);
  });
  load();
  window.KGKReplay = { show, count: () => views.length };
})();
