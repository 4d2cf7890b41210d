// The builder's one state object and what it reads once from the page: the server's
// sentences and rule facts (decks/views_builder.py builder_config), the deck it opened with,
// and the page's elements. Every other module reads and updates `state` here.

export const root = document.getElementById("builder");

export const LANG = document.documentElement.lang === "en" ? "en" : "hu";
// Everything the builder says and every rule fact it uses comes from the server
// (decks/views_builder.py builder_config): no translations or rules live here.
export const CONFIG = JSON.parse(document.getElementById("builder-config").textContent);
export const DECK_SIZE = CONFIG.deck_size; // R 9.1
export const MAX_COUNT = 45; // the API's bound for one entry
export const SEARCH_DELAY_MS = 250;
export const VALIDATE_DELAY_MS = 100;
export const CODES_PER_LOOKUP = 40; // `code:X or code:Y …` stays far below the 1000-character limit
export const TYPE_ORDER = CONFIG.type_order;
export const TYPE_HEADERS = CONFIG.type_headers;

/** The server's sentence for `key`, its %(name)s parameters filled in; a counted
 * message ({one, other}) is chosen by `count`. */
export function t(key, params, count) {
  let entry = CONFIG.strings[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") entry = count === 1 ? entry.one : entry.other;
  const values = params || {};
  return entry.replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// ------------------------------------------------------------------ the page

export const $ = (id) => document.getElementById(id);
export const el = {
  name: $("deck-name"),
  ruleset: $("deck-ruleset"),
  isPublic: $("deck-public"),
  description: $("deck-description"),
  save: $("deck-save"),
  saveStatus: $("save-status"),
  saveErrors: $("save-errors"),
  title: $("builder-title"),
  search: $("builder-search"),
  searchError: $("search-error"),
  chips: $("race-chips"),
  summary: $("result-summary"),
  results: $("search-results"),
  more: $("search-more"),
  preview: $("card-preview"),
  count: $("deck-count"),
  badge: $("legal-badge"),
  problems: $("problems"),
  collectionToggle: $("collection-toggle"),
  collectionStatus: $("collection-status"),
  deckList: $("deck-list"),
  deckEmpty: $("deck-empty"),
  importText: $("import-text"),
  importFormat: $("import-format"),
  importButton: $("import-button"),
  importStatus: $("import-status"),
  importErrors: $("import-errors"),
  exportSaved: $("export-saved"),
  exportUnsaved: $("export-unsaved"),
  exportOutput: $("export-output"),
  exportShare: $("export-share"),
  shareRow: $("share-row"),
  shareCode: $("share-code"),
};

// ------------------------------------------------------------------ state

const initial = JSON.parse(document.getElementById("builder-deck").textContent);
export const state = {
  deckId: initial ? initial.id : null,
  version: initial ? initial.version : 0,
  cards: new Map(), // code -> card as GET /api/cards/ gives it
  counts: new Map(), // code -> copies in the colony
  results: [],
  highlighted: -1,
  nextUrl: null,
  total: 0,
  lastQuery: null,
  searchSeq: 0,
  validateSeq: 0,
  races: [], // GET /api/races/
  types: {}, // type id -> {hu, en, subtypes: {id -> {hu, en}}}
  collection: null, // Map code -> owned count, once loaded
  dirty: false,
  problems: null, // the last validation's problems
  searchTimer: null, // the search waits for a pause in typing
  validateTimer: null, // the check waits for a pause in changes
};
if (initial) {
  for (const card of initial.cards) {
    const { count, ...data } = card;
    state.cards.set(card.code, data);
    state.counts.set(card.code, count);
  }
}
