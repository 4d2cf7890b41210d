// The live game page: renders the server's state for this viewer, sends actions, and keeps
// up to date over the WebSocket. Every message carries seq: a gap, or a reconnect, means a
// resync over HTTP (GET the match, then the missing events for the log). When the socket
// cannot connect, the page polls instead, so it also works where only HTTP is served.
(function () {
  "use strict";
  const B = window.KGKBoard;
  const S = B.S;
  const root = document.getElementById("game");
  const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  const url = (k) => root.dataset[k];
  let state = JSON.parse(document.getElementById("initial-state").textContent);
  let lastSeq = 0; // the last event shown in the log
  let socket = null;
  let socketOpen = false;
  let pollTimer = null;
  let reconnectDelay = 1000;
  let busy = false; // an action is on its way: one at a time, against the version it saw
  let selectedCard = null;
  let clockBase = { at: Date.now(), state };

  const me = () => (state.you === null || state.you === undefined ? null : state.you);
  const label = (a) => (B.lang === "en" ? a.label_en : a.label_hu) || a.id;
  const playerName = (seat) => {
    const p = (state.players || []).find((x) => x.seat === seat);
    const name = (p && p.name) || `#${seat + 1}`;
    return seat === me() ? `${name} (${S.ui.you})` : name;
  };

  function setConn(text, cls) {
    const c = document.getElementById("conn");
    c.textContent = text;
    c.className = `conn ${cls}`;
  }

  // ------------------------------------------------------------------ rendering

  function actionsByCard() {
    const map = {};
    (state.legal_actions || []).forEach((a) => {
      const p = a.params || {};
      ["card", "ship", "target", "value"].forEach((k) => {
        if (typeof p[k] === "number") (map[p[k]] = map[p[k]] || []).push({ ...a, label: label(a) });
      });
    });
    return map;
  }

  function clock(seat) {
    const node = B.el("span", { class: "clock", "data-clock": seat });
    node.textContent = clockString(seat);
    return node;
  }

  function clockString(seat) {
    const c = state.clocks || {};
    let bank = c.bank ? c.bank[seat] : null;
    const deciding = c.deciding_seat === seat && state.status === "active";
    if (deciding && bank !== null) bank -= (Date.now() - clockBase.at) / 1000;
    let text = `${S.ui.bank} ${B.clockText(bank)}`;
    if (deciding && c.decision_deadline) {
      const left = (new Date(c.decision_deadline).getTime() - Date.now()) / 1000;
      text += ` · ${S.ui.decision_left} ${B.clockText(left)}`;
    }
    return text;
  }

  function tickClocks() {
    document.querySelectorAll("[data-clock]").forEach((n) => { n.textContent = clockString(Number(n.dataset.clock)); });
  }

  function render() {
    const byCard = actionsByCard();
    if (state.view) {
      B.render(state.view, {
        me: me(),
        playerName,
        clock,
        actionsFor: (id) => byCard[id] || [],
        onCard: (id, acts) => {
          if (acts.length === 1) { send(acts[0]); return; }
          selectedCard = selectedCard === id ? null : id;
          renderActions();
        },
      });
    }
    renderActions();
    renderResult();
    document.getElementById("concede").hidden = !(state.status === "active" && me() !== null);
    document.getElementById("replay-link").hidden = state.status !== "finished";
  }

  function renderActions() {
    const box = document.getElementById("actions");
    const decision = document.getElementById("decision");
    const pending = state.pending;
    const legal = state.legal_actions || [];
    if (!state.view) {
      decision.textContent = state.status === "aborted" ? S.ui.aborted : S.ui.not_started;
    } else if (me() === null) {
      decision.textContent = S.ui.spectator + (pending ? ` ${B.fmt(S.ui.waiting, { name: playerName(pending.player) })}: ${S.decisions[pending.decision] || pending.decision}` : "");
    } else if (pending && pending.player === me()) {
      decision.textContent = `${S.ui.your_turn}: ${S.decisions[pending.decision] || pending.decision}`;
    } else if (pending) {
      decision.textContent = `${B.fmt(S.ui.waiting, { name: playerName(pending.player) })}: ${S.decisions[pending.decision] || pending.decision}`;
    } else {
      decision.textContent = "";
    }
    decision.className = `decision ${pending && pending.player === me() ? "mine" : ""} ${pending && pending.decision === "respond" ? "window" : ""}`;
    const shown = selectedCard === null ? legal : legal.filter((a) => Object.values(a.params || {}).includes(selectedCard));
    box.replaceChildren(...shown.map((a) => B.el("button", {
      type: "button", class: `act kind-${a.kind}`, "data-action": a.id, disabled: busy,
      onclick: () => send(a), text: label(a),
    })));
    if (selectedCard !== null && shown.length < legal.length) {
      box.append(B.el("button", { type: "button", class: "act show-all", onclick: () => { selectedCard = null; renderActions(); }, text: "…" }));
    }
    if (!legal.length && state.status === "active" && me() !== null) box.append(B.el("span", { class: "muted", text: S.ui.no_actions }));
    document.getElementById("keys").textContent = legal.length ? `${S.ui.pass_key} · ${S.ui.end_key}` : "";
  }

  function renderResult() {
    const node = document.getElementById("result");
    const r = state.result;
    if (!r) { node.hidden = true; return; }
    node.hidden = false;
    const reason = S.ui.reason[r.reason] || r.reason;
    let text;
    if (r.winner_seat === null || r.winner_seat === undefined) text = reason;
    else if (me() !== null) text = `${r.winner_seat === me() ? S.ui.won : S.ui.lost} (${reason})`;
    else text = `${B.fmt(S.ui.winner, { name: playerName(r.winner_seat) })} (${reason})`;
    node.textContent = text;
  }

  function appendLog(events) {
    const log = document.getElementById("log");
    events.forEach((ev) => {
      if (ev.seq <= lastSeq) return;
      lastSeq = ev.seq;
      log.append(B.el("li", { "data-seq": ev.seq, class: `ev ev-${ev.kind}`, text: B.describe(ev, playerName) }));
    });
    log.scrollTop = log.scrollHeight;
  }

  // ------------------------------------------------------------------ state and sync

  function adopt(next) {
    if (next.version < state.version) return; // an older answer overtaken by a newer one
    const moved = next.version !== state.version;
    state = next;
    clockBase = { at: Date.now(), state };
    if (moved) { busy = false; selectedCard = null; }
    render();
  }

  async function getJSON(u) {
    const r = await fetch(u, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`${r.status}`);
    return r.json();
  }

  async function resync() {
    try {
      const [next, events] = await Promise.all([getJSON(url("stateUrl")), getJSON(`${url("eventsUrl")}?after=${lastSeq}`)]);
      appendLog(events.events || []);
      adopt(next);
    } catch (e) { /* the next poll or message tries again */ }
  }

  function onMessage(msg) {
    if (msg.type !== "update") return;
    const events = msg.events || [];
    if (events.length && events[0].seq !== lastSeq + 1 && events[0].seq > lastSeq) { resync(); return; }
    if (!events.length && msg.seq > lastSeq) { resync(); return; } // (re)connect: catch the log up
    appendLog(events);
    if (msg.state) adopt(msg.state);
  }

  function connect() {
    if (!("WebSocket" in window)) { startPolling(); return; }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    try { socket = new WebSocket(`${proto}://${location.host}${url("wsUrl")}`); } catch (e) { startPolling(); return; }
    socket.onopen = () => { socketOpen = true; reconnectDelay = 1000; stopPolling(); setConn(S.ui.live, "live"); };
    socket.onmessage = (m) => { try { onMessage(JSON.parse(m.data)); } catch (e) { resync(); } };
    socket.onclose = () => {
      socketOpen = false;
      startPolling();
      if (state.status === "active" || state.status === "invited" || state.status === "open") {
        // Jittered (0.5-1.5x): after a server restart the pages would otherwise all come back
        // in the same instant, and 100 sockets at once wait ~0.5 s each (bench/RESULTS.md).
        setTimeout(connect, reconnectDelay * (0.5 + Math.random()));
        reconnectDelay = Math.min(reconnectDelay * 2, 30000);
      }
    };
  }

  function startPolling() {
    setConn(S.ui.polling, "polling");
    if (pollTimer) return;
    const tick = async () => {
      pollTimer = null;
      if (socketOpen) return;
      try {
        const events = await getJSON(`${url("eventsUrl")}?after=${lastSeq}`);
        if ((events.events || []).length || events.version !== state.version) {
          appendLog(events.events || []);
          adopt(await getJSON(url("stateUrl")));
        }
      } catch (e) { /* keep trying */ }
      if (!socketOpen && !["finished", "aborted"].includes(state.status)) pollTimer = setTimeout(tick, 1000);
    };
    pollTimer = setTimeout(tick, 500);
  }

  function stopPolling() { if (pollTimer) { clearTimeout(pollTimer); pollTimer = null; } }

  // ------------------------------------------------------------------ actions

  function showError(text) {
    const node = document.getElementById("action-error");
    node.textContent = text || "";
    node.hidden = !text;
  }

  async function post(u, body) {
    return fetch(u, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(body || {}),
    });
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  }

  async function send(action) {
    if (busy) return;
    busy = true;
    showError("");
    renderActions();
    let response;
    try {
      response = await post(url("actionsUrl"), { client_action_id: newId(), expected_version: state.version, action: action.id });
    } catch (e) { busy = false; renderActions(); showError(String(e)); return; }
    if (response.status === 202) {
      if (!socketOpen) setTimeout(resync, 150); // no socket: fetch the result ourselves
      const accepted = await response.json().catch(() => ({}));
      if (accepted.request) watchRequest(accepted.request.id, state.version, 2500);
      return;
    }
    busy = false;
    const body = await response.json().catch(() => ({}));
    if (response.status === 409) { showError(S.ui.stale); resync(); return; }
    showError((S.errors && S.errors[body.code]) || body.detail || `${response.status}`);
    renderActions();
  }

  // The drain may still reject an accepted request (the position moved on first): if the
  // version has not moved after a while, ask what became of it rather than wait forever.
  function watchRequest(id, sentAt, delay) {
    setTimeout(async () => {
      if (state.version > sentAt || !busy) return;
      let body = null;
      try { body = await getJSON(`${url("actionsUrl")}${id}/`); } catch (e) { /* retry below */ }
      const r = body && body.request;
      if (r && r.status === "rejected") {
        busy = false;
        showError(r.code === "STALE_VERSION" ? S.ui.stale : (S.errors[r.code] || r.message || r.code));
        resync();
        return;
      }
      if (r && r.status === "applied") { resync(); return; }
      watchRequest(id, sentAt, Math.min(delay * 2, 10000));
    }, delay);
  }

  function firstOf(kinds) {
    const legal = state.legal_actions || [];
    for (const k of kinds) { const a = legal.find((x) => x.kind === k); if (a) return a; }
    return null;
  }

  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    let a = null;
    if (e.key === "p" || e.key === "P") a = firstOf(["pass", "done", "hold_fire", "decline", "keep"]);
    if (e.key === "e" || e.key === "E") a = firstOf(["end_turn"]);
    if (a) { e.preventDefault(); send(a); }
  });

  document.getElementById("concede").addEventListener("click", async () => {
    if (!window.confirm(S.ui.concede_confirm)) return;
    const r = await post(url("concedeUrl"));
    const body = await r.json().catch(() => ({}));
    if (r.ok) adopt(body); else showError(S.errors[body.code] || body.detail);
    resync();
  });

  render();
  setInterval(tickClocks, 1000);
  getJSON(`${url("eventsUrl")}?after=0`).then((d) => appendLog(d.events || [])).catch(() => {});
  if (!["finished", "aborted"].includes(state.status)) connect();
  // for tests and the curious: the state shown, the socket's health, a dropped connection
  window.KGKGame = {
    resync, state: () => state, lastSeq: () => lastSeq, live: () => socketOpen,
    receive: onMessage, dropSocket: () => socket && socket.close(),
  };
})();
