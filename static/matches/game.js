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
  let clockBase = { at: Date.now(), state };

  const me = () => (state.you === null || state.you === undefined ? null : state.you);
  const store = {
    get(k, d) { try { const v = localStorage.getItem(`kgk.${k}`); return v === null ? d : JSON.parse(v); } catch (e) { return d; } },
    set(k, v) { try { localStorage.setItem(`kgk.${k}`, JSON.stringify(v)); } catch (e) { /* private mode */ } },
  };
  // Stops (docs/rulings.md): which response windows wait for you. Automatic passes follow
  // only these settings and public facts (whose turn, the window's kind, an empty chain).
  const STOP_DEFAULTS = { start: false, main: false, declare: true, combat: false, own: false };
  let stops = { ...STOP_DEFAULTS, ...store.get("stops", {}) };
  let passUntilMyTurn = false;
  let menuCard = null; // the card whose actions are offered in the panel
  let sheetOpen = false; // a phone's decision sheet: one line of the main actions, or all of it
  let confirmEnd = null; // the end-turn action waiting for "are you sure"
  let picks = { key: null, ids: [] }; // the cards picked in the current multi-pick
  let combatEvents = []; // this combat's events, for the combat view
  let focus = null; // a table (R 17.1): the colony the player clicked to see in full
  const guideSeen = new Set(store.get("guide", []));
  const isBotGame = () => (state.players || []).some((p) => p.bot);
  const playerName = (seat) => {
    const p = (state.players || []).find((x) => x.seat === seat);
    let name = (p && (p.bot ? B.botName(p) : p.name)) || "–";
    if (p && p.stand_in) name = B.fmt(S.ui.stand_in, { name });
    return seat === me() ? `${name} (${S.ui.you})` : name;
  };

  function setConn(text, cls) {
    const c = document.getElementById("conn");
    if (["finished", "aborted"].includes(state.status)) { text = S.ui.finished; cls = "finished"; }
    c.textContent = text;
    c.className = `conn ${cls}`;
  }

  // ------------------------------------------------------------------ actions as words

  const decision = () => (state.pending && state.pending.decision) || null;
  const allCards = () => {
    const out = {};
    const walk = (c) => { out[c.id] = c; (c.attachments || []).forEach(walk); };
    if (state.view) state.view.players.forEach((p) => ["centre", "surface", "canteen", "hangar", "trash", "wasteland"].forEach((z) => (p[z] || []).forEach(walk)));
    return out;
  };

  // "the card, in its place": two cards of one name are told apart by zone and position
  function cardWords(id, cards) {
    const c = cards[id] || B.cardInfo(id);
    const name = B.nameOf(c);
    if (!cards[id]) return name;
    const same = Object.values(cards).filter((x) => x.name && B.nameOf(x) === name && x.zone === c.zone && x.controller === c.controller);
    const zone = S.zones[c.zone] || "";
    if (same.length > 1) return `${name} (${B.fmt(S.ui.position, { zone, n: same.findIndex((x) => x.id === id) + 1 })})`;
    return zone ? `${name} (${zone})` : name;
  }

  function actionKey(a) {
    const p = a.params || {};
    if (a.kind === "place") return `place.${p.to}`;
    if (a.kind === "attack") return `attack.${p.target}`;
    if (a.kind === "cash") return p.a === p.b ? "cash.self" : "cash";
    if (a.kind === "choose" && S.actions[`choose.${decision()}`]) return `choose.${decision()}`;
    if (a.kind === "done" && !picks.ids.length && ["attackers", "defenders", "bombers", "board", "search"].includes(decision())) return "done.none";
    if (a.kind === "activate" && typeof p.ability === "number" && p.ability > 0) return "activate.n";
    return a.kind;
  }

  // The card an action is done with or to (null: a panel button).
  function subjectOf(a, cards) {
    const p = a.params || {};
    if (a.kind === "fire") return p.target;
    if (["stealth", "heavy_weapons", "ordnance"].includes(a.kind)) return p.ship;
    if (a.kind === "cash") return p.a;
    if (a.kind === "choose") return !["mode", "opponent"].includes(decision()) && (cards[p.value] || B.known[p.value]) ? p.value : null;
    return typeof p.card === "number" ? p.card : null;
  }

  function phrase(a, cards, withSubject) {
    const p = a.params || {};
    const whom = a.kind === "choose" && decision() === "opponent" ? p.value : p.player;
    let text = B.fmt(S.actions[actionKey(a)] || S.actions.choose, {
      player: typeof whom === "number" ? playerName(whom) : "",
      at: p.at, n: (typeof p.ability === "number" ? p.ability : p.value || 0) + 1,
      ship: typeof p.ship === "number" ? cardWords(p.ship, cards) : "", other: typeof p.b === "number" ? cardWords(p.b, cards) : "",
    });
    if (a.kind === "attack" && typeof p.player === "number") text = B.fmt(S.actions["attack.player"], { attack: text, player: playerName(p.player) });
    if (a.kind === "done" && picks.ids.length) text = B.fmt(S.ui.confirm_n, { n: picks.ids.length });
    if (typeof a.cost === "number") text += ` ${B.fmt(S.ui.cost_now, { n: a.cost })}`; // the server's number (R 19.6)
    if (a.kind === "fire") {
      // on the target's menu: which ship fires; in the panel: which ship fires at which
      if (withSubject) return B.fmt(S.actions["fire.at"], { ship: cardWords(p.ship, cards), target: cardWords(p.target, cards) });
      if (shootersOf(p.target).length > 1) return B.fmt(S.actions["fire.with"], { ship: cardWords(p.ship, cards) });
    }
    const subject = subjectOf(a, cards);
    if (withSubject && subject !== null && subject !== undefined) text += ` — ${cardWords(subject, cards)}`;
    return text;
  }

  function shootersOf(target) {
    return (state.legal_actions || []).filter((a) => a.kind === "fire" && a.params.target === target).map((a) => a.params.ship);
  }

  function byCard(cards) {
    const map = {};
    (state.legal_actions || []).forEach((a) => {
      const id = subjectOf(a, cards);
      if (id !== null && id !== undefined) (map[id] = map[id] || []).push(a);
      // a crew card tapped (its menu open): each ship it may board takes it when tapped
      if (a.kind === "board" && menuCard !== null && a.params.card === menuCard) (map[a.params.ship] = map[a.params.ship] || []).push(a);
      if (a.kind === "cash" && a.params.b !== a.params.a) (map[a.params.b] = map[a.params.b] || []).push(a);
    });
    return map;
  }

  function pickedIds() {
    const c = state.view && state.view.combat;
    const d = decision();
    if (c && d === "attackers") return c.attackers || [];
    if (c && d === "defenders") return c.defenders || [];
    if (c && d === "bombers") return c.bombers || [];
    return picks.ids;
  }

  // ------------------------------------------------------------------ rendering

  function clock(seat) {
    const node = B.el("span", { class: "clock", "data-clock": seat });
    node.textContent = clockString(seat);
    return node;
  }

  function clockString(seat) {
    const c = state.clocks || {};
    let bank = c.bank ? c.bank[seat] : null;
    const deciding = c.deciding_seat === seat && state.status === "active";
    if (state.status !== "active" || c.timed === false) return ""; // untimed: no clock runs
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
    lowBank();
  }

  // Under a minute in your own bank: a warning band, your clock marked, and (when you
  // turned it on; off by default, remembered in localStorage) a short sound once per fall.
  const LOW_BANK = 60;
  let lowWarned = false;
  function myBankLeft() {
    const c = state.clocks || {};
    const seat = me();
    if (seat === null || state.status !== "active" || c.timed === false || !c.bank || c.bank[seat] === null) return null;
    let bank = c.bank[seat];
    if (c.deciding_seat === seat) bank -= (Date.now() - clockBase.at) / 1000;
    return bank;
  }
  function lowBank() {
    const band = document.getElementById("clock-warning");
    if (!band) return;
    const left = myBankLeft();
    const low = left !== null && left < LOW_BANK;
    band.hidden = !low;
    document.querySelectorAll(`[data-clock="${me()}"]`).forEach((n) => n.classList.toggle("low", low));
    if (low && !lowWarned && store.get("clockSound", false)) beep();
    lowWarned = low;
  }
  function beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      const ctx = new Ctx();
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = 880;
      gain.gain.value = 0.15;
      osc.connect(gain).connect(ctx.destination);
      osc.start();
      osc.stop(ctx.currentTime + 0.35);
    } catch (e) { /* no audio here */ }
  }
  const soundToggle = document.getElementById("clock-sound");
  if (soundToggle) {
    const showSound = () => {
      const on = store.get("clockSound", false);
      soundToggle.setAttribute("aria-pressed", on ? "true" : "false");
      soundToggle.textContent = on ? soundToggle.dataset.on : soundToggle.dataset.off;
    };
    soundToggle.addEventListener("click", () => { store.set("clockSound", !store.get("clockSound", false)); showSound(); });
    showSound();
  }

  function render() {
    const cards = allCards();
    const acts = byCard(cards);
    const mine = state.pending && state.pending.player === me();
    const picked = new Set(pickedIds());
    const shooters = new Set((state.legal_actions || []).filter((a) => a.kind === "fire").map((a) => a.params.ship));
    if (state.view) {
      B.render(state.view, {
        me: me(),
        playerName,
        clock,
        focus,
        onFocus: (seat) => { focus = focus === seat ? null : seat; render(); },
        rerender: render,
        shots: combatEvents.map((ev) => B.describe(ev, playerName)),
        mark: (card) => {
          if (!mine || busy) return picked.has(card.id) ? "picked" : null;
          if (menuCard === card.id) return "selected";
          if (acts[card.id]) return acts[card.id].every((a) => a.kind === "choose") ? "pick" : "act";
          if (picked.has(card.id)) return "picked";
          if (shooters.has(card.id)) return "acting";
          return null;
        },
        onCard: (card, node) => onCard(card, acts[card.id] || [], cards),
      });
    }
    renderPanel(cards, acts);
    renderResult();
    const leave = document.getElementById("concede");
    const seated = (state.players || []).find((x) => x.seat === me());
    leave.hidden = !(state.status === "active" && me() !== null && !(seated && seated.stand_in));
    if (state.seat_count > 2) leave.textContent = S.ui.leave_table; // a bot plays on for you
    document.getElementById("stops").hidden = state.status !== "active" || me() === null;
    maybeAutoPass();
    continueSuggestion();
  }

  function onCard(card, acts, cards) {
    if (!acts.length) return;
    const direct = acts.length === 1 && decision() !== "main";
    if (direct) { menuCard = null; click(acts[0]); return; }
    menuCard = menuCard === card.id ? null : card.id;
    render();
    const menu = document.getElementById("card-menu");
    if (menu) menu.scrollIntoView({ block: "nearest" });
  }

  function button(a, cards, cls, withSubject) {
    return B.el("button", { type: "button", class: `act ${cls || ""}`, disabled: busy, onclick: () => click(a), text: phrase(a, cards, withSubject) });
  }

  function renderPanel(cards, acts) {
    const box = document.getElementById("actions");
    const title = document.getElementById("decision");
    const help = document.getElementById("decision-help");
    const pending = state.pending;
    const legal = state.legal_actions || [];
    const info = pending ? S.decisions[pending.decision] : null;
    const mine = pending && pending.player === me();
    if (!state.view) {
      title.textContent = state.status === "aborted" ? S.ui.aborted : S.ui.not_started;
    } else if (!pending) {
      title.textContent = "";
    } else if (mine) {
      title.textContent = `${S.ui.your_turn}: ${info ? info.title : ""}`;
    } else {
      // the titles speak to the decider ("Your shot"): others only read who is deciding
      title.textContent = B.fmt(S.ui.waiting, { name: playerName(pending.player) });
    }
    title.className = `decision ${mine ? "mine" : ""}`;
    help.replaceChildren();
    if (mine && info) {
      help.append(B.el("span", { class: "help-text", text: info.help }));
      const extra = pending.info || {};
      const left = typeof extra.points_left === "number" ? extra.points_left : extra.picks_left;
      if (info.count && (typeof left === "number" || typeof info.count === "string")) help.prepend(B.el("b", { class: "count", text: `${B.fmt(info.count, { n: left })} ` }));
      else if (typeof extra.points_left === "number") help.append(B.el("b", { class: "left", text: ` ${B.fmt(S.ui.points_left, { n: extra.points_left })}` }));
      else if (typeof extra.picks_left === "number") help.append(B.el("b", { class: "left", text: ` ${B.fmt(S.ui.picks_left, { n: extra.picks_left })}` }));
      if (pending.decision === "respond" && extra.scope) help.prepend(B.el("b", { text: `${S.windows[extra.scope] || ""}: ` }));
      const v = state.view;
      if (pending.decision === "main" && v && v.turn === 1 && v.starting_player === me()) help.append(B.el("span", { class: "note", text: ` ${S.ui.no_first_attack}` }));
    }
    renderGuide(mine ? pending.decision : null);
    const parts = [];
    if (confirmEnd) {
      const keep = B.el("input", { type: "checkbox", id: "dont-ask" });
      parts.push(B.el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-text" },
        B.el("p", { id: "confirm-text", text: S.stops.end_confirm }),
        B.el("button", { type: "button", class: "act", onclick: () => {
          if (keep.checked) store.set("noEndConfirm", true);
          const a = confirmEnd; confirmEnd = null; send(a);
        }, text: S.stops.end_confirm_yes }),
        B.el("button", { type: "button", class: "act primary", onclick: () => { confirmEnd = null; render(); }, text: S.stops.end_confirm_no }),
        B.el("label", { class: "dont-ask" }, keep, ` ${S.stops.dont_ask}`)));
    } else if (menuCard !== null && acts[menuCard]) {
      parts.push(B.el("div", { class: "card-menu", id: "card-menu", role: "group", "aria-label": B.fmt(S.ui.card_menu, { card: B.nameOf(cards[menuCard] || menuCard) }) },
        B.el("p", {}, B.sentence(S.ui.card_menu, { card: B.cardRef(cards[menuCard] || menuCard) })),
        acts[menuCard].map((a) => button(a, cards, "in-menu")),
        B.el("button", { type: "button", class: "act subtle", onclick: () => { menuCard = null; render(); }, text: S.ui.cancel })));
    }
    if (confirmEnd) { box.replaceChildren(...parts); return; }
    // cards offered but not on the table (the top of the colony, a look at a centre): shown
    // here as cards, clicked like the others
    const offered = Object.keys(acts).map(Number).filter((id) => !cards[id]);
    if (offered.length) {
      parts.push(B.el("div", { class: "choices zone-cards", role: "group", "aria-label": S.ui.choices },
        offered.map((id) => B.cardNode(B.cardInfo(id), { mark: () => (busy ? null : "pick"), onCard: (card) => onCard(card, acts[id], cards) }))));
    }
    const suggested = mine ? suggestedActions() : [];
    if (suggested.length) { // engine.assist.suggestion: the heuristic's answer, one click for all of it
      // every step in words but the closing "done" (a list of picks says what it holds)
      const steps = [];
      suggested.filter((a, i) => i === 0 || a.kind !== "done").map((a) => phrase(a, cards, true)).forEach((t) => {
        const last = steps[steps.length - 1];
        if (last && last.t === t) last.n += 1; else steps.push({ t, n: 1 }); // the same step again: "×n"
      });
      const text = B.fmt(S.ui.suggestion, { action: steps.map((x) => (x.n > 1 ? `${x.t} ×${B.num(x.n)}` : x.t)).join("; ") });
      parts.push(B.el("div", { class: "suggestion", role: "group" },
        B.el("p", { class: "suggested-what", text }),
        B.el("button", { type: "button", id: "accept-suggestion", class: "act primary accept-suggestion", disabled: busy, onclick: () => acceptSuggestion(suggested), text: S.ui.accept_suggestion })));
    }
    const panel = legal.filter((a) => { const s = subjectOf(a, cards); return s === null || s === undefined || !acts[s]; });
    const order = ["keep", "done", "pass", "hold_fire", "return_fire", "decline", "mulligan"];
    panel.sort((x, y) => (order.indexOf(x.kind) + 1 || 99) - (order.indexOf(y.kind) + 1 || 99));
    parts.push(...panel.map((a) => {
      let cls = `kind-${a.kind}`;
      // the highlighted choice is a safe one: keeping a hand, confirming, passing a window
      // (not playing an interrupt) - but not passing a shot, which throws the shot away
      const throwsAway = a.kind === "pass" && pending.decision === "fire";
      const safe = a.kind === "keep" || (a.kind === "pass" && !throwsAway) || (a.kind === "done" && pending.decision !== "main");
      if (safe && !suggested.length) cls += " primary"; // a suggestion is the one highlighted default
      if (a.kind === "end_turn") cls += " end-turn";
      if (["draw", "search", "wasteland_draw"].includes(a.kind)) cls += " secondary"; // under "More" on a phone
      if (suggested.length && a.id === suggested[0].id) cls += " suggested";
      return button(a, cards, cls, true);
    }));
    if (mine && pending.decision === "respond") parts.push(B.el("button", { type: "button", class: "act subtle", title: S.stops.pass_turn_help, onclick: () => { passUntilMyTurn = true; click(legal.find((a) => a.kind === "pass")); }, text: S.stops.pass_turn }));
    // a phone: the sheet is one line of the main actions until "More" opens the rest
    document.getElementById("action-bar").classList.toggle("collapsed", !sheetOpen);
    if (legal.length) parts.push(B.el("button", { type: "button", class: "act subtle sheet-toggle", "aria-expanded": sheetOpen ? "true" : "false", onclick: () => { sheetOpen = !sheetOpen; render(); }, text: sheetOpen ? S.ui.sheet_less : S.ui.sheet_more }));
    if (!legal.length && state.status === "active" && me() !== null) parts.push(B.el("span", { class: "muted", text: passUntilMyTurn ? S.stops.pass_turn_on : S.ui.no_actions }));
    box.replaceChildren(...parts);
    document.getElementById("keys").textContent = legal.length && window.matchMedia("(hover: hover)").matches ? `${S.ui.pass_key} · ${S.ui.end_key}` : "";
  }

  // The first game against a bot: the rule behind each new decision kind (not the decision
  // line again), shown while that first decision lasts; nothing to tap away.
  let guideShown = null;
  function renderGuide(kind) {
    const node = document.getElementById("guide");
    const d = kind && S.decisions[kind];
    if (d && d.why && isBotGame() && !guideSeen.has(kind)) {
      guideShown = kind; guideSeen.add(kind); store.set("guide", [...guideSeen]);
    }
    if (!d || kind !== guideShown || !d.why) { node.hidden = true; if (kind !== guideShown) guideShown = null; return; }
    node.hidden = false;
    node.replaceChildren(B.el("p", {}, B.el("b", { text: S.ui.guide_rule }), " ", d.why));
    node.onclick = () => { if (!sheetOpen) { sheetOpen = true; render(); } }; // a phone: the whole of it
  }

  function renderStops() {
    const box = document.getElementById("stops");
    if (me() === null) { box.hidden = true; return; }
    const rows = ["start", "main", "declare", "combat", "own"].map((k) => {
      const input = B.el("input", { type: "checkbox", checked: stops[k] ? true : null, onchange: (e) => { stops[k] = e.target.checked; store.set("stops", stops); } });
      return B.el("label", { class: "stop" }, input, ` ${S.stops[k]}`);
    });
    box.replaceChildren(B.el("summary", { text: S.stops.title }), B.el("p", { class: "muted", text: S.stops.help }), ...rows,
      B.el("p", { class: "muted pass-turn-help" }, B.el("b", { text: `${S.stops.pass_turn}: ` }), S.stops.pass_turn_help));
  }

  function renderResult() {
    const node = document.getElementById("result");
    const r = state.result;
    if (!r) { node.hidden = true; return; }
    node.hidden = false;
    showError(""); // an earlier click's "the game moved on" means nothing once it is over
    const reason = B.reasonText(r, state.view, playerName);
    let head;
    if (r.winner_seat === null || r.winner_seat === undefined) head = S.ui.draw_result;
    else if (me() !== null) head = r.winner_seat === me() ? S.ui.won : S.ui.lost;
    else head = B.fmt(S.ui.winner, { name: playerName(r.winner_seat) });
    node.className = `result ${me() !== null && r.winner_seat === me() ? "won" : me() !== null && r.winner_seat !== null ? "lost" : ""}`;
    let turns = state.view ? ` · ${B.fmt(S.ui.result_turns, { n: state.view.turn })}` : "";
    if (r.ranking && r.ranking.length) turns += ` · ${S.ui.ranking}: ${r.ranking.map((s, i) => `${i + 1}. ${playerName(s)}`).join(", ")}`;
    document.getElementById("result-head").textContent = head;
    document.getElementById("status-line").textContent = [S.phases.over, head, reason].filter(Boolean).join(" · ");
    document.getElementById("result-detail").textContent = `${reason}${turns}`;
    document.getElementById("replay-link").hidden = state.status !== "finished";
    const rematch = document.getElementById("rematch");
    if (rematch) rematch.hidden = false;
    setConn("", "finished");
  }

  let takenFor = false; // the next log line is a decision taken for its player (matches.services.take_forced)
  function appendLog(events) {
    const log = document.getElementById("log");
    let combatMoved = false;
    events.forEach((ev) => {
      if (ev.seq <= lastSeq) return;
      lastSeq = ev.seq;
      if (ev.kind === "reveal" && ev.secret) B.learn(ev.secret);
      if (ev.kind === "attack") combatEvents = [];
      if (["attack", "designate", "fire", "damage", "return_fire", "hold_fire", "bombard", "bombard_success", "no_bombardment", "no_defence", "stealth", "heavy_weapons", "ordnance", "burst_fire"].includes(ev.kind)) { combatEvents.push(ev); combatMoved = true; }
      // every event keeps its line (the log is complete, in seq order); one that the next
      // line says better is kept hidden
      // a decision taken for its player: its note stays hidden, the next line says it instead
      const note = ev.kind === "taken_for" && ev.marks;
      const quiet = B.redundant(ev) || note;
      const mark = takenFor && !quiet ? B.el("span", { class: "taken-for", text: ` (${S.ui.taken_for})` }) : null;
      if (mark) takenFor = false;
      if (note) takenFor = true;
      log.append(B.el("li", { class: `ev ev-${ev.kind}`, "data-seq": ev.seq, hidden: quiet ? "" : null }, B.describe(ev, playerName), mark));
    });
    log.scrollTop = log.scrollHeight;
    if (combatMoved && state.view && state.view.combat) render();
  }

  // Public facts and the player's own settings only: never the cards in hand (R 16).
  function shouldAutoPass() {
    const p = state.pending;
    if (!p || p.player !== me() || p.decision !== "respond" || busy) return false;
    const info = p.info || {};
    const myTurn = state.view && state.view.active === me();
    if (myTurn) {
      // the opponent answered my play with an interrupt (the chain is public): a stop
      const answered = ((state.view && state.view.chain) || []).some((e) => e.player !== me());
      return !answered && !stops.own;
    }
    return passUntilMyTurn || !stops[info.scope];
  }

  function maybeAutoPass() {
    if (state.view && state.view.active === me()) passUntilMyTurn = false;
    if (!shouldAutoPass()) return;
    const pass = (state.legal_actions || []).find((a) => a.kind === "pass");
    if (pass) send(pass, true); // at once: busy from here, so nobody clicks in between
  }

  // The suggested answer's actions (ids the server listed, still legal), and the rest of an
  // accepted one: sent one by one while the same decision stays this player's.
  let suggestionRest = null;
  function suggestedActions() {
    const legal = state.legal_actions || [];
    const ids = state.suggestion || [];
    const first = ids.length ? legal.find((a) => a.id === ids[0]) : null;
    return first ? [first, ...ids.slice(1).map(parseAction)] : [];
  }
  // an action id is canonical (engine/actions.py): "kind:key=value,key=value"
  function parseAction(id) {
    const [kind, rest] = id.split(":");
    const params = {};
    (rest || "").split(",").filter(Boolean).forEach((kv) => { const [k, v] = kv.split("="); params[k] = /^-?\d+$/.test(v) ? Number(v) : v; });
    return { id, kind, params };
  }
  function acceptSuggestion(actions) {
    clicks += 1;
    menuCard = null;
    suggestionRest = { decision: state.pending.decision, ids: actions.slice(1).map((a) => a.id) };
    send(actions[0]);
  }
  function continueSuggestion() {
    const rest = suggestionRest;
    const p = state.pending;
    if (!rest || busy) return;
    if (!rest.ids.length || !p || p.player !== me() || p.decision !== rest.decision) { suggestionRest = null; return; }
    const next = (state.legal_actions || []).find((a) => a.id === rest.ids[0]);
    if (!next) { suggestionRest = null; return; }
    rest.ids.shift();
    send(next, true);
  }

  // "You can still attack or pay for a card": only when a legal attack exists, or a legal
  // play or pay whose cost now (the server's number) your credits cover, with credits left
  function worthStaying() {
    const legal = state.legal_actions || [];
    const seat = state.view && me() !== null ? state.view.players[me()] : null;
    const credits = seat ? seat.credits || 0 : 0;
    return legal.some((x) => x.kind === "attack"
      || (["play", "pay"].includes(x.kind) && credits > 0 && (typeof x.cost !== "number" || x.cost <= credits)));
  }

  let clicks = 0;
  function click(a) {
    suggestionRest = null;
    if (!a) return;
    clicks += 1;
    if (a.kind === "end_turn" && !store.get("noEndConfirm", false) && !confirmEnd) {
      if (worthStaying()) { confirmEnd = a; menuCard = null; render(); return; }
    }
    send(a);
  }

  // ------------------------------------------------------------------ state and sync

  function adopt(next) {
    if (next.version < state.version) return; // an older answer overtaken by a newer one
    const moved = next.version !== state.version;
    state = next;
    clockBase = { at: Date.now(), state };
    if (moved) {
      busy = false; menuCard = null; confirmEnd = null;
      const key = next.pending && next.pending.player === me() ? `${next.pending.decision}:${next.view && next.view.turn}` : null;
      if (key !== picks.key) picks = { key, ids: [] };
    }
    render();
  }

  async function getJSON(u) {
    const r = await fetch(u, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!r.ok) throw new Error(`${r.status}`);
    return r.json();
  }

  // A state read after its events can be ahead of them (a move committed in between): the
  // log first asks for the lines it missed, then the state is shown. Else a game that ended
  // in between (it polls no more) kept its last lines out of the log.
  async function withLog(next) {
    for (let tries = 0; next.seq > lastSeq && tries < 3; tries++) {
      appendLog((await getJSON(`${url("eventsUrl")}?after=${lastSeq}`)).events || []);
    }
    return next;
  }

  async function resync(why) {
    note(sockets, `resync: ${why}`); // the trail says why the page asked (browser tests)
    try {
      const [next, events] = await Promise.all([getJSON(url("stateUrl")), getJSON(`${url("eventsUrl")}?after=${lastSeq}`)]);
      appendLog(events.events || []);
      adopt(await withLog(next));
    } catch (e) { /* the next poll or message tries again */ }
  }

  // The watchdog: a socket that has been quiet for QUIET ms is asked for the newest version
  // (a ping); a pong ahead of the page means a push never arrived: resync. No pong within
  // DEAD ms: the socket is dead without knowing it; close it, and it reconnects.
  const QUIET = 1200;
  const DEAD = 4000;
  let heardAt = Date.now();
  let pingedAt = null;
  function watchSocket() {
    if (!socketOpen || !["active", "invited", "open"].includes(state.status)) return;
    const now = Date.now();
    if (pingedAt !== null && now - pingedAt > DEAD) { note(sockets, "no pong: closing"); pingedAt = null; socket.close(); return; }
    if (pingedAt === null && now - heardAt > QUIET) {
      pingedAt = now;
      try { socket.send(JSON.stringify({ type: "ping" })); } catch (e) { /* onclose follows */ }
    }
  }

  function onPong(msg) {
    pingedAt = null;
    if (msg.version > state.version || msg.seq > lastSeq) resync("pong ahead");
  }

  function onMessage(msg) {
    heardAt = Date.now();
    if (msg.type === "pong") { onPong(msg); return; }
    if (msg.type === "answer") { onAnswer(msg); return; }
    if (msg.type !== "update") return;
    const events = msg.events || [];
    if (events.length && events[0].seq !== lastSeq + 1 && events[0].seq > lastSeq) { resync("gap"); return; }
    if (!events.length && msg.seq > lastSeq) { resync("hello"); return; } // (re)connect: catch the log up
    appendLog(events);
    if (msg.state) adopt(msg.state);
  }

  // The last socket events (which socket, what, when): read by the browser tests when a
  // reconnect does not come back, so a flaky failure says what the page saw.
  const trail = [];
  let sockets = 0;
  function note(n, what) { trail.push([n, what, Date.now() % 100000]); if (trail.length > 30) trail.shift(); }

  function connect() {
    if (!("WebSocket" in window)) { startPolling(); return; }
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const n = ++sockets;
    note(n, "connect");
    try { socket = new WebSocket(`${proto}://${location.host}${url("wsUrl")}`); } catch (e) { note(n, "failed"); startPolling(); return; }
    socket.onopen = () => { note(n, "open"); socketOpen = true; heardAt = Date.now(); pingedAt = null; reconnectDelay = 1000; stopPolling(); setConn(S.ui.live, "live"); };
    socket.onmessage = (m) => { try { onMessage(JSON.parse(m.data)); } catch (e) { resync("bad message"); } };
    socket.onerror = () => note(n, "error");
    socket.onclose = (e) => {
      note(n, `close ${e.code}`);
      socketOpen = false;
      for (const done of [...awaiting.values()]) done(null); // their moves go by POST now
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
        if ((events.events || []).length || events.version !== state.version || events.status !== state.status) {
          appendLog(events.events || []);
          adopt(await withLog(await getJSON(url("stateUrl"))));
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

  // A 503 means the server stored nothing (a busy or restarting database): the same request
  // is sent again after its Retry-After, a few times, before the player is told. Safe to
  // repeat: an action carries its client_action_id, and conceding twice is conceding once.
  async function post(u, body, attempts = 4) {
    for (let i = 1; ; i++) {
      const r = await fetch(u, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
        body: JSON.stringify(body || {}),
      });
      if (r.status !== 503 || i >= attempts) return r;
      const wait = Math.min(Number(r.headers.get("Retry-After")) || 1, 3);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  function newId() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
  }

  // A move goes over the open socket (no HTTP request, no session read on the server), and
  // by POST when there is no socket, when the socket does not answer within ANSWER_WAIT, or
  // when it answers that the server is busy (the POST retries those). Sending a move both
  // ways is safe: the server stores a client_action_id once.
  const ANSWER_WAIT = 3000;
  const awaiting = new Map(); // client_action_id -> resolve({status, body})

  function onAnswer(msg) {
    const resolve = awaiting.get(msg.client_action_id);
    if (resolve) resolve({ status: msg.status, body: msg.body || {} });
  }

  function askSocket(move) {
    if (!socketOpen) return Promise.resolve(null);
    return new Promise((resolve) => {
      const done = (answer) => { clearTimeout(timer); awaiting.delete(move.client_action_id); resolve(answer); };
      const timer = setTimeout(() => done(null), ANSWER_WAIT);
      awaiting.set(move.client_action_id, done);
      try { socket.send(JSON.stringify({ type: "act", ...move })); } catch (e) { done(null); }
    });
  }

  async function askServer(move) {
    const answer = await askSocket(move);
    if (answer && answer.status !== 503) return answer;
    const response = await post(url("actionsUrl"), move);
    return { status: response.status, body: await response.json().catch(() => ({})) };
  }

  async function send(action, auto) {
    if (busy) return;
    busy = true;
    if (action.kind === "choose") picks.ids.push(action.params.value);
    showError("");
    render();
    let answer;
    try {
      answer = await askServer({ client_action_id: newId(), expected_version: state.version, action: action.id });
    } catch (e) { busy = false; render(); showError(String(e)); return; }
    const body = answer.body;
    if (answer.status === 202) {
      if (!socketOpen) setTimeout(() => resync("no socket"), 150); // no socket: fetch the result ourselves
      // a worker's answer comes after its commit: the request may be settled already
      if (body.request && settled(body.request, state.version)) return;
      if (body.request) watchRequest(body.request.id, state.version, 2500);
      return;
    }
    busy = false;
    if (answer.status === 409) { showError(S.ui.stale); resync("409"); return; }
    showError((S.errors && S.errors[body.code]) || body.detail || `${answer.status}`);
    render();
  }

  // The drain may still reject an accepted request (the position moved on first): if the
  // version has not moved after a while, ask what became of it rather than wait forever.
  function watchRequest(id, sentAt, delay) {
    setTimeout(async () => {
      if (state.version > sentAt || !busy) return;
      let body = null;
      try { body = await getJSON(`${url("actionsUrl")}${id}/`); } catch (e) { /* retry below */ }
      const r = body && body.request;
      if (r && settled(r, sentAt)) return;
      watchRequest(id, sentAt, Math.min(delay * 2, 10000));
    }, delay);
  }

  // What became of a request: rejected (say why, show the position now), applied (the
  // position comes by the socket; fetched here when it has not come yet), or still pending.
  function settled(r, sentAt) {
    if (r.status === "rejected") {
      busy = false;
      showError(r.code === "STALE_VERSION" ? S.ui.stale : (S.errors[r.code] || r.message || r.code));
      resync("rejected");
      return true;
    }
    if (r.status === "applied") { // its push is on the way: fetched only if it does not come
      setTimeout(() => { if (state.version <= sentAt) resync("applied, no push"); }, 500);
      return true;
    }
    return false;
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
    if (a) { e.preventDefault(); click(a); }
  });

  document.getElementById("concede").addEventListener("click", async () => {
    if (!window.confirm(state.seat_count > 2 ? S.ui.leave_confirm : S.ui.concede_confirm)) return;
    const r = await post(url("concedeUrl"));
    const body = await r.json().catch(() => ({}));
    if (r.ok) adopt(body); else showError(S.errors[body.code] || body.detail);
    resync("conceded");
  });

  // On a phone the decision panel is a fixed strip: the page reserves its height below the
  // board, so the board is never under it.
  const bar = document.getElementById("action-bar");
  const reserve = () => {
    const fixed = getComputedStyle(bar).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${bar.offsetHeight + 8}px` : "";
  };
  if (window.ResizeObserver) new ResizeObserver(reserve).observe(bar);
  window.addEventListener("resize", reserve);
  renderStops();
  render();
  // On a wide screen the sidebar (the decision, then the log) ends at the window's bottom
  // edge wherever the page is scrolled, so the newest log lines are always in view.
  const sidebar = document.querySelector(".sidebar");
  const fitSidebar = () => {
    const sticky = getComputedStyle(sidebar).position === "sticky";
    const top = Math.max(sidebar.getBoundingClientRect().top, 6);
    sidebar.style.maxHeight = sticky ? `${window.innerHeight - top - 6}px` : "";
  };
  window.addEventListener("scroll", fitSidebar, { passive: true });
  window.addEventListener("resize", fitSidebar);
  fitSidebar();
  setInterval(tickClocks, 1000);
  lowBank();
  setInterval(watchSocket, 400);
  getJSON(`${url("eventsUrl")}?after=0`).then((d) => appendLog(d.events || [])).catch(() => {});
  if (!["finished", "aborted"].includes(state.status)) connect();
  // for tests and the curious: the state shown, the socket's health, a dropped connection
  window.KGKGame = {
    resync, state: () => state, lastSeq: () => lastSeq, live: () => socketOpen,
    receive: onMessage, dropSocket: () => socket && socket.close(), socketTrail: () => trail, clicks: () => clicks, autoPassing: shouldAutoPass, busy: () => busy,
  };
})();
