// A card and the colony in words and order: names in the page's language, costs, type
// lines, the deck grouped by type (the server's type order).

import { LANG, TYPE_ORDER, root, state } from "./state.js";

export const fold = (text) =>
  (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

export const cardName = (card) => (LANG === "en" ? card.name_en || card.name : card.name);
export const otherName = (card) => (LANG === "en" ? card.name : card.name_en);
export const numericCost = (card) => (Number.isInteger(card.credit_cost) ? card.credit_cost : null);
export const costText = (card) => (numericCost(card) === null ? "X" : String(card.credit_cost));
export const cardUrl = (code) => root.dataset.cardUrl.replace("CODE", encodeURIComponent(code));
export const editUrl = (id) => root.dataset.editUrl.replace(/\/0\/edit\/$/, `/${id}/edit/`);

export function raceName(id) {
  const race = state.races.find((r) => r.id === id);
  return race ? race[LANG] : id;
}

export function typeLine(card) {
  const type = state.types[card.type];
  const typeName = type ? type[LANG] : card.type;
  const sub = type && type.subtypes[card.subtype];
  const parts = [sub ? `${typeName} — ${sub[LANG]}` : typeName];
  if (card.race) parts.push(raceName(card.race));
  return parts.join(" · ");
}

export const total = () => [...state.counts.values()].reduce((a, b) => a + b, 0);

export function deckRaces() {
  const races = new Map();
  for (const [code, count] of state.counts) {
    const race = state.cards.get(code)?.race;
    if (race) races.set(race, (races.get(race) || 0) + count);
  }
  return races;
}

function sortKey(card) {
  const cost = numericCost(card);
  return [TYPE_ORDER.indexOf(card.type) < 0 ? TYPE_ORDER.length : TYPE_ORDER.indexOf(card.type), cost === null ? 1 : 0, cost || 0, fold(card.name), card.code];
}

function compareCards(a, b) {
  const ka = sortKey(a);
  const kb = sortKey(b);
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] < kb[i]) return -1;
    if (ka[i] > kb[i]) return 1;
  }
  return 0;
}

export function groupedDeck() {
  const groups = new Map();
  const cards = [...state.counts.keys()].map((code) => state.cards.get(code) || { code, name: code, type: "other" });
  cards.sort(compareCards);
  for (const card of cards) {
    const type = TYPE_ORDER.includes(card.type) ? card.type : "other";
    if (!groups.has(type)) groups.set(type, []);
    groups.get(type).push(card);
  }
  return groups;
}
