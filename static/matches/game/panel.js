// The decision panel: what is asked of whom, the actions that are not a card's, a card's
// menu, the end-turn question, the suggestion, the first game's guide, and the stops.

import * as B from "../board.js";
import { decision, draw, game, isBotGame, me, playerName, store } from "./state.js";
import { phrase, subjectOf } from "./words.js";
import { acceptSuggestion, click, send, suggestedActions } from "./moves.js";

const S = B.S;

export function onCard(card, acts, cards) {
  if (!acts.length) return;
  const direct = acts.length === 1 && decision() !== "main";
  if (direct) { game.menuCard = null; click(acts[0]); return; }
  game.menuCard = game.menuCard === card.id ? null : card.id;
  draw();
  const menu = document.getElementById("card-menu");
  if (menu) menu.scrollIntoView({ block: "nearest" });
}

export function button(a, cards, cls, withSubject) {
  return B.el("button", { type: "button", class: `act ${cls || ""}`, disabled: game.busy, onclick: () => click(a), text: phrase(a, cards, withSubject) });
}

export function renderPanel(cards, acts) {
  const box = document.getElementById("actions");
  const title = document.getElementById("decision");
  const help = document.getElementById("decision-help");
  const pending = game.state.pending;
  const legal = game.state.legal_actions || [];
  const info = pending ? S.decisions[pending.decision] : null;
  const mine = pending && pending.player === me();
  if (!game.state.view) {
    title.textContent = game.state.status === "aborted" ? S.ui.aborted : S.ui.not_started;
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
    const v = game.state.view;
    if (pending.decision === "main" && v && v.turn === 1 && v.starting_player === me()) help.append(B.el("span", { class: "note", text: ` ${S.ui.no_first_attack}` }));
  }
  renderGuide(mine ? pending.decision : null);
  const parts = [];
  if (game.confirmEnd) {
    const keep = B.el("input", { type: "checkbox", id: "dont-ask" });
    parts.push(B.el("div", { class: "confirm", role: "alertdialog", "aria-labelledby": "confirm-text" },
      B.el("p", { id: "confirm-text", text: S.stops.end_confirm }),
      B.el("button", { type: "button", class: "act", onclick: () => {
        if (keep.checked) store.set("noEndConfirm", true);
        const a = game.confirmEnd; game.confirmEnd = null; send(a);
      }, text: S.stops.end_confirm_yes }),
      B.el("button", { type: "button", class: "act primary", onclick: () => { game.confirmEnd = null; draw(); }, text: S.stops.end_confirm_no }),
      B.el("label", { class: "dont-ask" }, keep, ` ${S.stops.dont_ask}`)));
  } else if (game.menuCard !== null && acts[game.menuCard]) {
    parts.push(B.el("div", { class: "card-menu", id: "card-menu", role: "group", "aria-label": B.fmt(S.ui.card_menu, { card: B.nameOf(cards[game.menuCard] || game.menuCard) }) },
      B.el("p", {}, B.sentence(S.ui.card_menu, { card: B.cardRef(cards[game.menuCard] || game.menuCard) })),
      acts[game.menuCard].map((a) => button(a, cards, "in-menu")),
      B.el("button", { type: "button", class: "act subtle", onclick: () => { game.menuCard = null; draw(); }, text: S.ui.cancel })));
  }
  if (game.confirmEnd) { box.replaceChildren(...parts); return; }
  // cards offered but not on the table (the top of the colony, a look at a centre): shown
  // here as cards, clicked like the others
  const offered = Object.keys(acts).map(Number).filter((id) => !cards[id]);
  if (offered.length) {
    parts.push(B.el("div", { class: "choices zone-cards", role: "group", "aria-label": S.ui.choices },
      offered.map((id) => B.cardNode(B.cardInfo(id), { mark: () => (game.busy ? null : "pick"), onCard: (card) => onCard(card, acts[id], cards) }))));
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
      B.el("button", { type: "button", id: "accept-suggestion", class: "act primary accept-suggestion", disabled: game.busy, onclick: () => acceptSuggestion(suggested), text: S.ui.accept_suggestion })));
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
  if (mine && pending.decision === "respond") parts.push(B.el("button", { type: "button", class: "act subtle", title: S.stops.pass_turn_help, onclick: () => { game.passUntilMyTurn = true; click(legal.find((a) => a.kind === "pass")); }, text: S.stops.pass_turn }));
  // a phone: the sheet is one line of the main actions until "More" opens the rest
  document.getElementById("action-bar").classList.toggle("collapsed", !game.sheetOpen);
  if (legal.length) parts.push(B.el("button", { type: "button", class: "act subtle sheet-toggle", "aria-expanded": game.sheetOpen ? "true" : "false", onclick: () => { game.sheetOpen = !game.sheetOpen; draw(); }, text: game.sheetOpen ? S.ui.sheet_less : S.ui.sheet_more }));
  if (!legal.length && game.state.status === "active" && me() !== null) parts.push(B.el("span", { class: "muted", text: game.passUntilMyTurn ? S.stops.pass_turn_on : S.ui.no_actions }));
  box.replaceChildren(...parts);
  document.getElementById("keys").textContent = legal.length && window.matchMedia("(hover: hover)").matches ? `${S.ui.pass_key} · ${S.ui.end_key}` : "";
}

// The first game against a bot: the rule behind each new decision kind (not the decision
// line again), shown while that first decision lasts; nothing to tap away.
function renderGuide(kind) {
  const node = document.getElementById("guide");
  const d = kind && S.decisions[kind];
  if (d && d.why && isBotGame() && !game.guideSeen.has(kind)) {
    game.guideShown = kind; game.guideSeen.add(kind); store.set("guide", [...game.guideSeen]);
  }
  if (!d || kind !== game.guideShown || !d.why) { node.hidden = true; if (kind !== game.guideShown) game.guideShown = null; return; }
  node.hidden = false;
  node.replaceChildren(B.el("p", {}, B.el("b", { text: S.ui.guide_rule }), " ", d.why));
  node.onclick = () => { if (!game.sheetOpen) { game.sheetOpen = true; draw(); } }; // a phone: the whole of it
}

export function renderStops() {
  const box = document.getElementById("stops");
  if (me() === null) { box.hidden = true; return; }
  const rows = ["start", "main", "declare", "combat", "own"].map((k) => {
    const input = B.el("input", { type: "checkbox", checked: game.stops[k] ? true : null, onchange: (e) => { game.stops[k] = e.target.checked; store.set("stops", game.stops); } });
    return B.el("label", { class: "stop" }, input, ` ${S.stops[k]}`);
  });
  box.replaceChildren(B.el("summary", { text: S.stops.title }), B.el("p", { class: "muted", text: S.stops.help }), ...rows,
    B.el("p", { class: "muted pass-turn-help" }, B.el("b", { text: `${S.stops.pass_turn}: ` }), S.stops.pass_turn_help));
}
