// Actions as words: what a legal action does, to which card, in the page's language; and
// which cards an action can be done with (a card is clicked, a panel button is not).

import * as B from "../board.js";
import { decision, game, playerName } from "./state.js";

const S = B.S;

export const allCards = () => {
  const out = {};
  const walk = (c) => { out[c.id] = c; (c.attachments || []).forEach(walk); };
  if (game.state.view) game.state.view.players.forEach((p) => ["centre", "surface", "canteen", "hangar", "trash", "wasteland"].forEach((z) => (p[z] || []).forEach(walk)));
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
  if (a.kind === "done" && !game.picks.ids.length && ["attackers", "defenders", "bombers", "board", "search"].includes(decision())) return "done.none";
  if (a.kind === "activate" && typeof p.ability === "number" && p.ability > 0) return "activate.n";
  return a.kind;
}


// The card an action is done with or to (null: a panel button).
export function subjectOf(a, cards) {
  const p = a.params || {};
  if (a.kind === "fire") return p.target;
  if (["stealth", "heavy_weapons", "ordnance"].includes(a.kind)) return p.ship;
  if (a.kind === "cash") return p.a;
  if (a.kind === "choose") return !["mode", "opponent"].includes(decision()) && (cards[p.value] || B.known[p.value]) ? p.value : null;
  return typeof p.card === "number" ? p.card : null;
}

export function phrase(a, cards, withSubject) {
  const p = a.params || {};
  const whom = a.kind === "choose" && decision() === "opponent" ? p.value : p.player;
  let text = B.fmt(S.actions[actionKey(a)] || S.actions.choose, {
    player: typeof whom === "number" ? playerName(whom) : "",
    at: p.at, n: (typeof p.ability === "number" ? p.ability : p.value || 0) + 1,
    ship: typeof p.ship === "number" ? cardWords(p.ship, cards) : "", other: typeof p.b === "number" ? cardWords(p.b, cards) : "",
  });
  if (a.kind === "attack" && typeof p.player === "number") text = B.fmt(S.actions["attack.player"], { attack: text, player: playerName(p.player) });
  if (a.kind === "done" && game.picks.ids.length) text = B.fmt(S.ui.confirm_n, { n: game.picks.ids.length });
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
  return (game.state.legal_actions || []).filter((a) => a.kind === "fire" && a.params.target === target).map((a) => a.params.ship);
}

export function byCard(cards) {
  const map = {};
  (game.state.legal_actions || []).forEach((a) => {
    const id = subjectOf(a, cards);
    if (id !== null && id !== undefined) (map[id] = map[id] || []).push(a);
    // a crew card tapped (its menu open): each ship it may board takes it when tapped
    if (a.kind === "board" && game.menuCard !== null && a.params.card === game.menuCard) (map[a.params.ship] = map[a.params.ship] || []).push(a);
    if (a.kind === "cash" && a.params.b !== a.params.a) (map[a.params.b] = map[a.params.b] || []).push(a);
  });
  return map;
}

export function pickedIds() {
  const c = game.state.view && game.state.view.combat;
  const d = decision();
  if (c && d === "attackers") return c.attackers || [];
  if (c && d === "defenders") return c.defenders || [];
  if (c && d === "bombers") return c.bombers || [];
  return game.picks.ids;
}
