// Replay of a finished game: every step from the chosen seat's view, with its events and
// the combat as it happened (the same board, sentences and combat view as the live page).
import * as B from "./board.js";

(function () {
  const S = B.S;
  const root = document.getElementById("replay");
  if (!document.getElementById("replay-controls")) return;
  const seat = Number(root.dataset.seat);
  // the person looking: their own seat, or none (a spectator, another account): only a
  // player of the game reads "(you)" by a name (issue 34)
  const viewer = root.dataset.viewer === "" || root.dataset.viewer === undefined ? null : Number(root.dataset.viewer);
  const players = JSON.parse(document.getElementById("players").textContent || "[]");
  let data = null;
  let index = 0;
  let wanted = 0;
  const views = [];
  const stepEvents = [];

  const playerName = (s) => {
    const p = players.find((x) => x.seat === s);
    const name = (p && (p.bot ? B.botName(p) : p.name)) || "–";
    return s === viewer ? `${name} (${S.ui.you})` : name;
  };

  // the events of the combat going on at step i (from its attack up to step i)
  function combatSoFar(i) {
    const out = [];
    for (let j = 0; j <= i; j += 1) {
      (stepEvents[j] || []).forEach((ev) => {
        if (ev.kind === "attack") out.length = 0;
        if (["attack", "designate", "fire", "damage", "return_fire", "hold_fire", "bombard", "bombard_success", "no_bombardment", "no_defence", "stealth", "heavy_weapons", "ordnance", "burst_fire"].includes(ev.kind)) out.push(ev);
      });
    }
    return out;
  }

  function show(i) {
    if (!views.length) { wanted = i; return; } // still loading: shown once loaded
    index = Math.max(0, Math.min(views.length - 1, i));
    B.render(views[index], { me: seat, you: viewer, playerName, rerender: () => show(index), shots: views[index].combat ? combatSoFar(index).map((ev) => B.describe(ev, playerName)) : [] });
    const log = document.getElementById("log");
    // a decision taken for its player (issue 34): its own next line says so, as on the table
    const shown = (stepEvents[index] || []).filter((ev) => !B.redundant(ev));
    log.replaceChildren(...shown.filter((ev, i) => !(ev.kind === "taken_for" && ev.marks && shown[i + 1])).map((ev) => {
      const j = shown.indexOf(ev);
      const marked = j > 0 && shown[j - 1].kind === "taken_for" && shown[j - 1].marks;
      return B.el("li", { class: `ev ev-${ev.kind}` }, B.describe(ev, playerName), marked ? B.el("span", { class: "taken-for", text: ` (${S.ui.taken_for})` }) : null);
    }));
    thinking(index);
    document.getElementById("scrub").value = index;
    document.getElementById("step-label").textContent = `${B.num(index)} / ${B.num(views.length - 1)}`;
    const result = document.getElementById("result");
    const r = data.result;
    if (index === views.length - 1 && r) {
      result.hidden = false;
      result.className = `result ${r.winner_seat === seat ? "won" : r.winner_seat === null ? "" : "lost"}`;
      document.getElementById("result-head").textContent = r.winner_seat === null ? S.ui.draw_result : B.fmt(S.ui.winner, { name: playerName(r.winner_seat) });
      document.getElementById("result-detail").textContent = `${B.reasonText(r, views[index], playerName)} · ${B.fmt(S.ui.result_turns, { n: views[index].turn })}`;
    } else {
      result.hidden = true;
    }
  }

  // A search bot's top three options at the decision that made this step (the players of a
  // finished game only: the server sends them to nobody else, docs/rulings.md).
  function thinking(i) {
    const box = document.getElementById("thinking");
    const step = i > 0 ? data.steps[i - 1] : null;
    const options = step && step.explanation;
    box.hidden = !options;
    if (!options) return;
    document.getElementById("thinking-who").textContent = B.fmt(S.ui.thinking_who, { name: playerName(step.by) });
    const lang = root.dataset.lang === "en" ? "en" : "hu";
    document.getElementById("thinking-list").replaceChildren(...options.map((o) => B.el("li", { class: o.chosen ? "chosen" : "" },
      B.el("span", { class: "option", text: o[`label_${lang}`] || S.ui.thinking_unnamed }),
      o.chosen ? B.el("span", { class: "tag chosen-tag", text: S.ui.thinking_chosen }) : null,
      B.el("span", { class: "rate muted", text: `${S.ui.thinking_win_rate}: ${o.win_rate === null ? "–" : `${B.num(o.win_rate)}%`} · ${B.fmt(S.ui.thinking_playouts, { n: o.playouts })}` }))));
  }

  async function load() {
    const r = await fetch(root.dataset.replayApi, { credentials: "same-origin", headers: { Accept: "application/json" } });
    data = await r.json();
    if (!r.ok) { document.getElementById("status-line").textContent = data.detail || ""; return; }
    views.push(data.initial_view, ...data.steps.map((s) => s.view));
    stepEvents.push(data.initial_events || [], ...data.steps.map((s) => s.events || []));
    views.forEach(B.learn); // names of every card this seat ever saw, for the log
    stepEvents.flat().forEach((ev) => { if (ev.secret) B.learn(ev.secret); });
    document.getElementById("scrub").max = views.length - 1;
    show(wanted === Infinity ? views.length - 1 : wanted);
  }

  document.getElementById("first").onclick = () => show(0);
  document.getElementById("prev").onclick = () => show(index - 1);
  document.getElementById("next").onclick = () => show(index + 1);
  document.getElementById("last").onclick = () => show(views.length ? views.length - 1 : Infinity);
  document.getElementById("scrub").oninput = (e) => show(Number(e.target.value));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") show(index + 1);
    if (e.key === "ArrowLeft") show(index - 1);
  });
  load();
  window.KGKReplay = { show, count: () => views.length };
})();
