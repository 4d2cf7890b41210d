// The log's sentences: an event in words, with hoverable card names.

import { S, faces, known } from "./state.js";
import { learn, wantFace } from "./faces.js";
import { cardRef } from "./cards.js";
import { fmt, num, sentence } from "./words.js";

function zoneWord(z) { return S.zones[z] || ""; }

// How a game ended, in words: an empty colony says whose (R 15.1) or both (R 15.3); `me`
// (the reader's seat, if a player's) reads their own as "Your colony".
export function reasonText(result, view, playerName, me) {
  if (result.reason === "colony" && view && view.players) {
    const empty = view.players.filter((p) => p.counts && p.counts.colony === 0);
    if (empty.length > 1) return S.reasons["colony.both"];
    if (empty.length === 1 && empty[0].seat === me) return S.reasons["colony.mine"];
    if (empty.length === 1) return fmt(S.reasons["colony.one"], { name: playerName(empty[0].seat) });
  }
  return S.reasons[result.reason] || "";
}

// A line the next one says better: a card played moves to the chain, then "X plays Y".
export function redundant(ev) {
  return ev.kind === "move" && ev.to === "chain" && ev.why === "play";
}

export function describe(ev, playerName) {
  const E = S.events;
  const card = (v) => cardRef(v);
  const p = {};
  if (typeof ev.player === "number") p.player = playerName(ev.player);
  if (typeof ev.by === "number") p.by = playerName(ev.by);
  if ("winner" in ev) p.winner = ev.winner === null || ev.winner === undefined ? "–" : playerName(ev.winner);
  if (ev.card !== undefined && ev.card !== null && typeof ev.card !== "string") p.card = card(ev.card);
  if (typeof ev.card === "string") p.card = card({ code: ev.card, name: (faces[ev.card] || {}).name });
  if (ev.code) p.code = cardRef({ code: ev.code, name: (faces[ev.code] || {}).name || ev.name });
  ["ship", "shooter"].forEach((k) => { if (typeof ev[k] === "number") p[k] = card(ev[k]); });
  if (typeof ev.target === "number") p.target = card(ev.target);
  else if (typeof ev.target === "string") p.target = zoneWord(ev.target);
  if (ev.role) p.role = S.roles[ev.role] || "";
  if (ev.stat) p.stat = S.ui[ev.stat] || "";
  if (ev.keyword) p.keyword = S.keywords[ev.keyword] || "";
  if (typeof ev.to === "string") p.to = ev.kind === "rotate" ? (S.orientations[ev.to] || "") : zoneWord(ev.to);
  if (typeof ev.from === "string") p.from = zoneWord(ev.from);
  if (typeof ev.zone === "string") p.zone = zoneWord(ev.zone) || zoneWord(ev.zone.split("_")[0]);
  if (ev.kind === "game_over") p.reason = S.reasons[ev.reason] || "";
  if (typeof ev.defender === "number") p.defender = playerName(ev.defender);
  if (ev.kind === "credits") { p.change = ev.change > 0 ? `+${num(ev.change)}` : num(ev.change); p.n = Math.abs(ev.change); }
  if (ev.kind === "upgrades") p.n = ev.upgrades;
  if (ev.kind === "taken_for") p.decision = (S.decisions[ev.decision] || {}).title || "";
  ["turn", "credits", "cost", "amount", "total", "upgrades", "at"].forEach((k) => { if (typeof ev[k] === "number" && !(k in p)) p[k] = ev[k]; });
  if (ev.kind === "modify" || ev.kind === "cost_modifier") p.amount = ev.amount > 0 ? `+${num(ev.amount)}` : num(ev.amount);
  let template = E[ev.kind];
  if (ev.kind === "attack" && typeof ev.defender === "number") template = E.attack_on; // a table: whom
  if (ev.kind === "game_over" && (ev.winner === null || ev.winner === undefined)) template = E.game_over_none;
  if (ev.kind === "move") {
    const secret = ev.secret && ev.secret.name ? ev.secret : null;
    if (secret) { known[secret.id] = { name: secret.name, code: secret.code }; wantFace(secret.code); }
    const owner = ev.card && typeof ev.card.owner === "number" ? playerName(ev.card.owner) : p.player;
    if (ev.from === "colony" && ev.to === "centre") return sentence(E.draw, { player: owner });
    if (ev.to === "colony" && ev.from === "centre") return sentence(E.mulligan_back, { player: owner });
    if (secret) p.card = cardRef(secret);
    template = E[`move_to.${ev.to}`] || E.move;
  }
  if (ev.kind === "reveal" && ev.secret && ev.secret.cards) ev.secret.cards.forEach(learn);
  return sentence(template || E.hidden_card, p);
}
