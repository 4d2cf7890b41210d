// Sending a move (one at a time, against the version it saw) and what becomes of it; a
// click, an accepted suggestion, and the automatic passes of the player's stops.

import * as B from "../board.js";
import { decision, draw, game, me, showError, store, url } from "./state.js";
import { askServer, getJSON, newId, resync } from "./net.js";

const S = B.S;

// Public facts and the player's own settings only: never the cards in hand (R 16).
export function shouldAutoPass() {
  const p = game.state.pending;
  if (!p || p.player !== me() || p.decision !== "respond" || game.busy) return false;
  const info = p.info || {};
  const myTurn = game.state.view && game.state.view.active === me();
  if (myTurn) {
    // the opponent answered my play with an interrupt (the chain is public): a stop
    const answered = ((game.state.view && game.state.view.chain) || []).some((e) => e.player !== me());
    return !answered && !game.stops.own;
  }
  return game.passUntilMyTurn || !game.stops[info.scope];
}

export function maybeAutoPass() {
  if (game.state.view && game.state.view.active === me()) game.passUntilMyTurn = false;
  if (!shouldAutoPass()) return;
  const pass = (game.state.legal_actions || []).find((a) => a.kind === "pass");
  if (pass) send(pass, true); // at once: busy from here, so nobody clicks in between
}

// The suggested answer's actions (ids the server listed, still legal), and the rest of an
// accepted one: sent one by one while the same decision stays this player's.
export function suggestedActions() {
  const legal = game.state.legal_actions || [];
  const ids = game.state.suggestion || [];
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
export function acceptSuggestion(actions) {
  game.clicks += 1;
  game.menuCard = null;
  game.suggestionRest = { decision: game.state.pending.decision, ids: actions.slice(1).map((a) => a.id) };
  send(actions[0]);
}
export function continueSuggestion() {
  const rest = game.suggestionRest;
  const p = game.state.pending;
  if (!rest || game.busy) return;
  if (!rest.ids.length || !p || p.player !== me() || p.decision !== rest.decision) { game.suggestionRest = null; return; }
  const next = (game.state.legal_actions || []).find((a) => a.id === rest.ids[0]);
  if (!next) { game.suggestionRest = null; return; }
  rest.ids.shift();
  send(next, true);
}


// "You can still attack or pay for a card": only when a legal attack exists, or a legal
// play or pay whose cost now (the server's number) your credits cover, with credits left
function worthStaying() {
  const legal = game.state.legal_actions || [];
  const seat = game.state.view && me() !== null ? game.state.view.players[me()] : null;
  const credits = seat ? seat.credits || 0 : 0;
  return legal.some((x) => x.kind === "attack"
    || (["play", "pay"].includes(x.kind) && credits > 0 && (typeof x.cost !== "number" || x.cost <= credits)));
}

export function click(a) {
  game.suggestionRest = null;
  if (!a) return;
  game.clicks += 1;
  if (a.kind === "end_turn" && !store.get("noEndConfirm", false) && !game.confirmEnd) {
    if (worthStaying()) { game.confirmEnd = a; game.menuCard = null; draw(); return; }
  }
  send(a);
}

export async function send(action, auto) {
  if (game.busy) return;
  game.busy = true;
  if (action.kind === "choose") game.picks.ids.push(action.params.value);
  showError("");
  draw();
  let answer;
  try {
    answer = await askServer({ client_action_id: newId(), expected_version: game.state.version, action: action.id });
  } catch (e) { game.busy = false; draw(); showError(String(e)); return; }
  const body = answer.body;
  if (answer.status === 202) {
    if (!game.socketOpen) setTimeout(() => resync("no socket"), 150); // no socket: fetch the result ourselves
    // a worker's answer comes after its commit: the request may be settled already
    if (body.request && settled(body.request, game.state.version)) return;
    if (body.request) watchRequest(body.request.id, game.state.version, 2500);
    return;
  }
  game.busy = false;
  if (answer.status === 409) { showError(S.ui.stale); resync("409"); return; }
  showError(body.detail || `${answer.status}`); // the server's sentence (matches/messages.py)
  draw();
}


// The drain may still reject an accepted request (the position moved on first): if the
// version has not moved after a while, ask what became of it rather than wait forever.
function watchRequest(id, sentAt, delay) {
  setTimeout(async () => {
    if (game.state.version > sentAt || !game.busy) return;
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
    game.busy = false;
    showError(r.code === "STALE_VERSION" ? S.ui.stale : (r.message || r.code));
    resync("rejected");
    return true;
  }
  if (r.status === "applied") { // its push is on the way: fetched only if it does not come
    setTimeout(() => { if (game.state.version <= sentAt) resync("applied, no push"); }, 500);
    return true;
  }
  return false;
}

export function firstOf(kinds) {
  const legal = game.state.legal_actions || [];
  for (const k of kinds) { const a = legal.find((x) => x.kind === k); if (a) return a; }
  return null;
}
