/* The deck builder (templates/decks/builder.html): plain JS, no framework, no build step.
 *
 * Everything goes through the API: GET /api/cards/?q= (the search language),
 * GET /api/races/ and /api/types/ (names, opposing races, R 7.1),
 * POST /api/decks/validate/ after every change (R 9, every problem at once),
 * POST /api/decks/ or PUT /api/decks/<id>/ to save, POST /api/decks/import/,
 * GET /api/decks/<id>/export/ and GET /api/collection/.
 */
(function () {
  "use strict";

  const root = document.getElementById("builder");
  if (!root) return;

  const LANG = document.documentElement.lang === "en" ? "en" : "hu";
  const DECK_SIZE = 45; // R 9.1
  const MAX_COUNT = 45; // the API's bound for one entry
  const SEARCH_DELAY_MS = 250;
  const VALIDATE_DELAY_MS = 100;
  const CODES_PER_LOOKUP = 40; // `code:X or code:Y …` stays far below the 1000-character limit

  // R 4.1: types in rulebook order; the section headers of the text export (decks/textformat.py).
  const TYPE_ORDER = ["ship", "armament", "crew", "base", "event", "interrupt"];
  const TYPE_HEADERS = {
    ship: { hu: "Űrhajók", en: "Ships" },
    armament: { hu: "Fegyverzetek", en: "Armaments" },
    crew: { hu: "Legénység", en: "Crew" },
    base: { hu: "Bázisok", en: "Bases" },
    event: { hu: "Események", en: "Events" },
    interrupt: { hu: "Megszakítások", en: "Interrupts" },
    other: { hu: "Egyéb", en: "Other" },
  };
  // How each ruleset restricts races (engine/deck.py RULESETS: simplified keeps the original rule).
  const RACE_RULE = { original: "original", max4: "max4", free: "free", simplified: "original" };
  const MAX_RACES = 4;

  // ------------------------------------------------------------------ strings

  const STRINGS = {
    hu: {
      legal: "Szabályos",
      problems: (p) => `${p.n} hiba`,
      checking: "Ellenőrzés…",
      check_failed: "Az ellenőrzés nem sikerült",
      DECK_SIZE: (p) => `A kolóniában ${p.count} lap van; pontosan ${p.required} kell (R 9.1).`,
      COPY_LIMIT: (p) => `„${p.name}”: ${p.count} példány; egy lapból legfeljebb ${p.max} lehet (R 9.2).`,
      OPPOSING_RACES: (p) => `Ellentétes fajok: ${p.a} és ${p.b} lapjai nem lehetnek egy kolóniában (R 9.3).`,
      TOO_MANY_RACES: (p) => `${p.n} faj (${p.races}); ebben a változatban legfeljebb ${p.max} lehet (R 9.5.2).`,
      SIMPLIFIED_COMBAT_CARD: (p) => `„${p.name}” sebességre vagy visszalövésre hivatkozik: egyszerűsített harcrendszerrel nem tehető a kolóniába (R 17.2.3).`,
      UNKNOWN_CARD: (p) => `Ismeretlen lap: ${p.card}.`,
      unknown_problem: (p) => `Szabálysértés: ${p.code}.`,
      results: (p) => (p.shown < p.total ? `${p.shown} / ${p.total} lap` : `${p.total} lap`),
      no_results: "Nincs ilyen lap.",
      type_search: "Írj be egy keresést (pl. r:zarg t:ship), vagy válassz fajt.",
      add_one: (p) => `Egy „${p.name}” hozzáadása`,
      remove_one: (p) => `Egy „${p.name}” elvétele`,
      in_deck: (p) => `${p.n} a kolóniában`,
      missing: (p) => `hiányzik ${p.n}`,
      missing_total: (p) => (p.n ? `${p.n} lap hiányzik a gyűjteményedből.` : "Minden lap megvan a gyűjteményedben."),
      collection_failed: "A gyűjtemény nem tölthető be.",
      opposes: (p) => `${p.race}: ellentétes faja (${p.other}) már a kolóniában van.`,
      too_many: (p) => `Már ${p.max} faj van a kolóniában.`,
      in_colony: (p) => `${p.n} ${p.race} lap a kolóniában`,
      filter_race: (p) => `Keresés: ${p.race}`,
      saving: "Mentés…",
      saved: (p) => `Elmentve: ${p.version}. változat.`,
      saved_same: (p) => `Elmentve; nem változott (${p.version}. változat).`,
      unsaved: "Nem mentett változások.",
      save_failed: "A mentés nem sikerült.",
      network: "Hálózati hiba; próbáld újra.",
      edit_deck: "Pakli szerkesztése",
      importing: "Beolvasás…",
      imported: (p) => `Beolvasva: ${p.count} lap (${p.kinds} féle).`,
      import_failed: "A lista nem olvasható be; javítsd a hibás sorokat.",
      import_partial: (p) => `Csak az olvasható ${p.count} lap beolvasása`,
      did_you_mean: "Erre gondoltál?",
      cost: "Ár",
      open_card: "Lap megnyitása",
      share_failed: "A megosztási kód nem kérhető le.",
      empty_export: "",
    },
    en: {
      legal: "Legal",
      problems: (p) => `${p.n} ${p.n === 1 ? "problem" : "problems"}`,
      checking: "Checking…",
      check_failed: "Could not check",
      DECK_SIZE: (p) => `The colony has ${p.count} cards; it must have exactly ${p.required} (R 9.1).`,
      COPY_LIMIT: (p) => `"${p.name}": ${p.count} copies; at most ${p.max} of a card (R 9.2).`,
      OPPOSING_RACES: (p) => `Opposing races: ${p.a} and ${p.b} cards cannot share a colony (R 9.3).`,
      TOO_MANY_RACES: (p) => `${p.n} races (${p.races}); this variant allows at most ${p.max} (R 9.5.2).`,
      SIMPLIFIED_COMBAT_CARD: (p) => `"${p.name}" refers to speed or returning fire: not allowed with the simplified combat system (R 17.2.3).`,
      UNKNOWN_CARD: (p) => `Unknown card: ${p.card}.`,
      unknown_problem: (p) => `Rule problem: ${p.code}.`,
      results: (p) => (p.shown < p.total ? `${p.shown} of ${p.total} cards` : `${p.total} ${p.total === 1 ? "card" : "cards"}`),
      no_results: "No cards match.",
      type_search: "Type a search (e.g. r:zarg t:ship) or pick a race.",
      add_one: (p) => `Add one ${p.name}`,
      remove_one: (p) => `Remove one ${p.name}`,
      in_deck: (p) => `${p.n} in the colony`,
      missing: (p) => `missing ${p.n}`,
      missing_total: (p) => (p.n ? `${p.n} ${p.n === 1 ? "card is" : "cards are"} missing from your collection.` : "You own every card of this colony."),
      collection_failed: "Could not load your collection.",
      opposes: (p) => `${p.race}: its opposing race (${p.other}) is already in the colony.`,
      too_many: (p) => `The colony already has ${p.max} races.`,
      in_colony: (p) => `${p.n} ${p.race} cards in the colony`,
      filter_race: (p) => `Search ${p.race}`,
      saving: "Saving…",
      saved: (p) => `Saved as version ${p.version}.`,
      saved_same: (p) => `Saved; nothing changed (version ${p.version}).`,
      unsaved: "Unsaved changes.",
      save_failed: "Could not save.",
      network: "Network error; try again.",
      edit_deck: "Edit deck",
      importing: "Importing…",
      imported: (p) => `Imported ${p.count} cards (${p.kinds} different).`,
      import_failed: "The list could not be read; fix the lines below.",
      import_partial: (p) => `Import only the ${p.count} readable cards`,
      did_you_mean: "Did you mean:",
      cost: "Cost",
      open_card: "Open the card",
      share_failed: "Could not get the share code.",
      empty_export: "",
    },
  };

  function t(key, params) {
    const entry = STRINGS[LANG][key] ?? STRINGS.en[key];
    if (entry === undefined) return key;
    return typeof entry === "function" ? entry(params || {}) : entry;
  }

  // ------------------------------------------------------------------ state

  const $ = (id) => document.getElementById(id);
  const el = {
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

  const initial = JSON.parse(document.getElementById("builder-deck").textContent);
  const state = {
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
  };
  if (initial) {
    for (const card of initial.cards) {
      const { count, ...data } = card;
      state.cards.set(card.code, data);
      state.counts.set(card.code, count);
    }
  }

  // ------------------------------------------------------------------ helpers

  function csrfToken() {
    const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (match) return decodeURIComponent(match[1]);
    const input = root.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  async function api(url, { method = "GET", body } = {}) {
    const headers = { Accept: "application/json", "Accept-Language": LANG };
    const options = { method, headers, credentials: "same-origin" };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      headers["X-CSRFToken"] = csrfToken();
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      return { ok: false, status: 0, data: { detail: t("network") } };
    }
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = null;
    }
    return { ok: response.ok, status: response.status, data };
  }

  function make(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child);
    }
    return node;
  }

  const fold = (text) =>
    (text || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

  const cardName = (card) => (LANG === "en" ? card.name_en || card.name : card.name);
  const otherName = (card) => (LANG === "en" ? card.name : card.name_en);
  const numericCost = (card) => (Number.isInteger(card.credit_cost) ? card.credit_cost : null);
  const costText = (card) => (numericCost(card) === null ? "X" : String(card.credit_cost));
  const cardUrl = (code) => root.dataset.cardUrl.replace("CODE", encodeURIComponent(code));
  const editUrl = (id) => root.dataset.editUrl.replace(/\/0\/edit\/$/, `/${id}/edit/`);

  function raceName(id) {
    const race = state.races.find((r) => r.id === id);
    return race ? race[LANG] : id;
  }

  function typeLine(card) {
    const type = state.types[card.type];
    const typeName = type ? type[LANG] : card.type;
    const sub = type && type.subtypes[card.subtype];
    const parts = [sub ? `${typeName} — ${sub[LANG]}` : typeName];
    if (card.race) parts.push(raceName(card.race));
    return parts.join(" · ");
  }

  const total = () => [...state.counts.values()].reduce((a, b) => a + b, 0);

  function deckRaces() {
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

  function groupedDeck() {
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

  // ------------------------------------------------------------------ changing the colony

  function changeCount(code, delta) {
    const card = state.cards.get(code);
    if (!card) return;
    const next = Math.max(0, Math.min(MAX_COUNT, (state.counts.get(code) || 0) + delta));
    if (next === (state.counts.get(code) || 0)) return;
    if (next === 0) state.counts.delete(code);
    else state.counts.set(code, next);
    colonyChanged();
  }

  function colonyChanged({ dirty = true } = {}) {
    if (dirty) markDirty();
    renderDeck();
    renderResultCounts();
    renderChips();
    scheduleValidate();
  }

  function markDirty() {
    state.dirty = true;
    el.saveStatus.textContent = t("unsaved");
    el.saveStatus.dataset.state = "dirty";
    renderExportState();
  }

  // ------------------------------------------------------------------ validation (R 9)

  let validateTimer = null;

  function scheduleValidate() {
    el.badge.dataset.legal = "checking";
    el.badge.textContent = t("checking");
    clearTimeout(validateTimer);
    validateTimer = setTimeout(validate, VALIDATE_DELAY_MS);
  }

  async function validate() {
    const seq = ++state.validateSeq;
    const cards = [...state.counts].map(([code, count]) => ({ code, count }));
    const { ok, data } = await api("/api/decks/validate/", { method: "POST", body: { cards, ruleset: el.ruleset.value } });
    if (seq !== state.validateSeq) return; // a newer change is being checked
    if (!ok || !data) {
      el.badge.dataset.legal = "error";
      el.badge.textContent = t("check_failed");
      el.problems.replaceChildren(make("li", { class: "problem", text: (data && data.detail) || t("network") }));
      return;
    }
    renderProblems(data.problems);
  }

  const CARD_CODE = /^[A-Z][A-Z0-9]*-\d{3,}$/;

  /** The problem's code. decks.services.problem_payload spreads the problem's data over
   * its code, so a SIMPLIFIED_COMBAT_CARD problem ({name, code: card code}) arrives with
   * the card's code in `code`: recognise it by that. */
  function problemCode(problem) {
    if (CARD_CODE.test(problem.code || "") && problem.name) return "SIMPLIFIED_COMBAT_CARD";
    return problem.code;
  }

  function problemText(problem) {
    const code = problemCode(problem);
    const params = { ...problem };
    if (code === "COPY_LIMIT" || code === "SIMPLIFIED_COMBAT_CARD") {
      // the engine names cards by their Hungarian name (R 9.2); show the UI language's
      const card = [...state.cards.values()].find((c) => c.name === problem.name);
      if (card) params.name = cardName(card);
    } else if (code === "OPPOSING_RACES") {
      params.a = raceName(problem.pair[0]);
      params.b = raceName(problem.pair[1]);
    } else if (code === "TOO_MANY_RACES") {
      params.n = problem.races.length;
      params.races = problem.races.map(raceName).join(", ");
    }
    if (!(code in STRINGS[LANG])) return t("unknown_problem", params);
    return t(code, params);
  }

  function renderProblems(problems) {
    state.problems = problems;
    el.problems.replaceChildren(
      ...problems.map((problem) =>
        make("li", { class: "problem", dataset: { code: problemCode(problem) } }, problemText(problem))
      )
    );
    el.badge.dataset.legal = problems.length ? "false" : "true";
    el.badge.dataset.problems = String(problems.length);
    el.badge.textContent = problems.length ? t("problems", { n: problems.length }) : t("legal");
  }

  // ------------------------------------------------------------------ search

  let searchTimer = null;

  el.search.addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => search(), SEARCH_DELAY_MS);
    renderChips();
  });

  el.search.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (state.results.length) {
        if (state.highlighted < 0) highlight(event.key === "ArrowDown" ? 0 : state.results.length - 1);
        el.results.focus();
      }
    } else if (event.key === "Enter") {
      // A new query: search now. The same query: add the highlighted (or first) result,
      // staying in the box, so that "name, Enter, Enter, Enter" adds three copies.
      event.preventDefault();
      clearTimeout(searchTimer);
      if (el.search.value.trim() !== state.lastQuery) search();
      else if (state.results.length) {
        if (state.highlighted < 0) highlight(0);
        changeCount(highlightedCode(), +1);
      }
    } else if (event.key === "Escape") {
      el.search.value = "";
      search();
    }
  });

  async function search() {
    const query = el.search.value.trim();
    const seq = ++state.searchSeq;
    state.lastQuery = query;
    if (!query) {
      showSearchError(null);
      setResults([], null, 0);
      el.summary.textContent = t("type_search");
      return;
    }
    const { ok, status, data } = await api(`/api/cards/?q=${encodeURIComponent(query)}`);
    if (seq !== state.searchSeq) return; // the user has typed on
    if (!ok) {
      const detail = (data && data.detail) || t("network");
      showSearchError(status === 400 ? detail.replace(/^q: /, "") : detail);
      setResults([], null, 0);
      el.summary.textContent = "";
      return;
    }
    showSearchError(null);
    setResults(data.results, data.next, data.count);
  }

  async function loadMore() {
    if (!state.nextUrl) return;
    const seq = state.searchSeq;
    const { ok, data } = await api(state.nextUrl);
    if (!ok || seq !== state.searchSeq) return;
    setResults(state.results.concat(data.results), data.next, data.count, { keep: true });
  }

  function showSearchError(message) {
    el.searchError.hidden = !message;
    el.searchError.textContent = message || "";
    el.search.setAttribute("aria-invalid", message ? "true" : "false");
  }

  function setResults(results, next, count, { keep = false } = {}) {
    for (const card of results) state.cards.set(card.code, card);
    state.results = results;
    state.nextUrl = next;
    state.total = count;
    if (!keep) state.highlighted = -1;
    renderResults();
  }

  function renderResults() {
    const rows = state.results.map((card, index) => {
      const count = state.counts.get(card.code) || 0;
      const name = cardName(card);
      return make(
        "li",
        {
          id: `result-${card.code}`,
          role: "option",
          class: `result race-${card.race || "none"}`,
          "aria-selected": index === state.highlighted ? "true" : "false",
          dataset: { code: card.code, index: String(index) },
        },
        make("span", { class: "cost", title: t("cost"), text: costText(card) }),
        make(
          "span",
          { class: "result-main" },
          make("span", { class: "result-name", text: name }),
          make("span", { class: "type-line", text: typeLine(card) })
        ),
        make("span", { class: "in-deck", title: t("in_deck", { n: count }), dataset: { count: String(count) }, text: count ? `×${count}` : "" }),
        make("button", { type: "button", class: "minus", tabindex: "-1", "aria-label": t("remove_one", { name }), disabled: !count, text: "−" }),
        make("button", { type: "button", class: "plus", tabindex: "-1", "aria-label": t("add_one", { name }), text: "+" })
      );
    });
    el.results.replaceChildren(...rows);
    el.results.dataset.query = state.lastQuery || ""; // which query these results answer
    el.more.hidden = !state.nextUrl;
    if (state.lastQuery) {
      el.summary.textContent = state.total ? t("results", { shown: state.results.length, total: state.total }) : t("no_results");
    }
    updateActiveDescendant();
    renderPreview();
  }

  function renderResultCounts() {
    for (const row of el.results.children) {
      const count = state.counts.get(row.dataset.code) || 0;
      const badge = row.querySelector(".in-deck");
      badge.dataset.count = String(count);
      badge.textContent = count ? `×${count}` : "";
      badge.title = t("in_deck", { n: count });
      row.querySelector(".minus").disabled = !count;
    }
  }

  function highlight(index) {
    if (!state.results.length) return;
    state.highlighted = Math.max(0, Math.min(state.results.length - 1, index));
    for (const row of el.results.children) {
      row.setAttribute("aria-selected", row.dataset.index === String(state.highlighted) ? "true" : "false");
    }
    updateActiveDescendant();
    const row = el.results.children[state.highlighted];
    if (row) row.scrollIntoView({ block: "nearest" });
    renderPreview();
  }

  function updateActiveDescendant() {
    const card = state.results[state.highlighted];
    if (card) el.results.setAttribute("aria-activedescendant", `result-${card.code}`);
    else el.results.removeAttribute("aria-activedescendant");
  }

  function highlightedCode() {
    const card = state.results[state.highlighted];
    return card ? card.code : null;
  }

  el.results.addEventListener("click", (event) => {
    const row = event.target.closest("li[data-code]");
    if (!row) return;
    highlight(Number(row.dataset.index));
    if (event.target.closest(".plus")) changeCount(row.dataset.code, +1);
    else if (event.target.closest(".minus")) changeCount(row.dataset.code, -1);
    if (event.target.closest("button")) el.results.focus();
  });

  el.results.addEventListener("dblclick", (event) => {
    const row = event.target.closest("li[data-code]");
    if (row && !event.target.closest("button")) changeCount(row.dataset.code, +1);
  });

  el.results.addEventListener("focus", () => {
    if (state.highlighted < 0 && state.results.length) highlight(0);
  });

  el.results.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const page = 8;
    const moves = {
      ArrowDown: state.highlighted + 1,
      ArrowUp: state.highlighted - 1,
      PageDown: state.highlighted + page,
      PageUp: state.highlighted - page,
      Home: 0,
      End: state.results.length - 1,
    };
    if (event.key in moves) {
      event.preventDefault();
      if (event.key === "ArrowUp" && state.highlighted <= 0) {
        el.search.focus();
        return;
      }
      highlight(moves[event.key]);
      return;
    }
    const code = highlightedCode();
    if (event.key === "Enter" || event.key === "+" || event.key === "=") {
      event.preventDefault();
      if (code) changeCount(code, +1);
    } else if (event.key === "-" || event.key === "Backspace" || event.key === "Delete") {
      event.preventDefault();
      if (code) changeCount(code, -1);
    } else if (event.key === "Escape") {
      event.preventDefault();
      el.search.focus();
    } else if (event.key.length === 1 && event.key !== "/") {
      el.search.focus(); // typing goes on in the search box
    }
  });

  el.more.addEventListener("click", loadMore);

  // `/` focuses the search box from anywhere but a text field; `+` / `-` act on the
  // highlighted result when nothing else has the keyboard (or a result's own button has).
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const editing = target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
    if (editing) return;
    const free = target === document.body || target === document.documentElement || el.results.contains(target);
    if (event.key === "/") {
      event.preventDefault();
      el.search.focus();
      el.search.select();
    } else if ((event.key === "+" || event.key === "-") && free && highlightedCode()) {
      event.preventDefault();
      changeCount(highlightedCode(), event.key === "+" ? +1 : -1);
    }
  });

  function renderPreview(card) {
    card = card || state.results[state.highlighted];
    if (!card) {
      el.preview.hidden = true;
      el.preview.replaceChildren();
      return;
    }
    const stats = [];
    if (card.type === "ship") stats.push(`${card.speed}-${card.firepower}-${card.armour}-${card.bombardment}`);
    else if (card.armour !== null && card.armour !== undefined) stats.push(String(card.armour));
    const text = LANG === "en" ? card.text_en || card.text_hu : card.text_hu;
    el.preview.hidden = false;
    el.preview.className = `card-preview race-${card.race || "none"}`;
    el.preview.replaceChildren(
      make(
        "header",
        {},
        make("span", { class: "cost", text: costText(card) }),
        make("strong", { text: cardName(card) }),
        otherName(card) ? make("small", { lang: LANG === "en" ? "hu" : "en", text: ` (${otherName(card)})` }) : null
      ),
      make("p", { class: "type-line", text: [typeLine(card), ...stats].join(" · ") }),
      text ? make("p", { class: "preview-text", text }) : null,
      make("a", { href: cardUrl(card.code), target: "_blank", rel: "noopener", text: `${t("open_card")} (${card.code})` })
    );
  }

  // ------------------------------------------------------------------ races (R 7.1)

  const RACE_TOKEN = /(^|\s)(?:r|race|faj):("[^"]*"|\S+)/gi;

  function queryRaces() {
    const found = [];
    for (const match of el.search.value.matchAll(RACE_TOKEN)) {
      const value = fold(match[2].replace(/"/g, "")).replace(/ /g, "_");
      const race = state.races.find((r) => r.id === value || fold(r.hu).replace(/ /g, "_") === value || fold(r.en).replace(/ /g, "_") === value);
      if (race) found.push(race.id);
    }
    return found;
  }

  function blockedRaces() {
    const inDeck = deckRaces();
    const blocked = new Map(); // race -> reason
    const rule = RACE_RULE[el.ruleset.value] || "original";
    if (rule === "original") {
      for (const race of inDeck.keys()) {
        const info = state.races.find((r) => r.id === race);
        if (info && info.opposing_race) {
          blocked.set(info.opposing_race, t("opposes", { race: raceName(info.opposing_race), other: raceName(race) }));
        }
      }
    } else if (rule === "max4" && inDeck.size >= MAX_RACES) {
      for (const race of state.races) {
        if (!inDeck.has(race.id)) blocked.set(race.id, t("too_many", { max: MAX_RACES }));
      }
    }
    return blocked;
  }

  function renderChips() {
    if (!state.races.length) return;
    const inDeck = deckRaces();
    const blocked = blockedRaces();
    const filtered = queryRaces();
    el.chips.replaceChildren(
      ...state.races.map((race) => {
        const count = inDeck.get(race.id) || 0;
        const classes = ["chip", `race-${race.id}`];
        if (count) classes.push("in-deck");
        if (blocked.has(race.id)) classes.push("blocked");
        const title = blocked.get(race.id) || (count ? t("in_colony", { n: count, race: race[LANG] }) : t("filter_race", { race: race[LANG] }));
        return make(
          "button",
          {
            type: "button",
            class: classes.join(" "),
            title,
            "aria-pressed": filtered.includes(race.id) ? "true" : "false",
            dataset: { race: race.id, inDeck: count ? "true" : "false", blocked: blocked.has(race.id) ? "true" : "false" },
          },
          make("span", { class: "chip-name", text: race[LANG] }),
          count ? make("span", { class: "chip-count", text: String(count) }) : null
        );
      })
    );
  }

  el.chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-race]");
    if (!chip) return;
    const race = chip.dataset.race;
    const already = queryRaces().includes(race);
    const rest = el.search.value.replace(RACE_TOKEN, " ").replace(/\s+/g, " ").trim();
    el.search.value = already ? rest : `${rest} r:${race}`.trim();
    clearTimeout(searchTimer);
    renderChips();
    search();
    el.search.focus();
  });

  // ------------------------------------------------------------------ the colony list

  function renderDeck() {
    const n = total();
    el.count.textContent = `${n}/${DECK_SIZE}`;
    el.count.dataset.state = n === DECK_SIZE ? "exact" : n > DECK_SIZE ? "over" : "under";
    el.deckEmpty.hidden = n > 0;
    const sections = [];
    for (const [type, cards] of groupedDeck()) {
      const sum = cards.reduce((a, card) => a + state.counts.get(card.code), 0);
      sections.push(
        make(
          "section",
          { class: "deck-group", dataset: { type } },
          make("h3", {}, TYPE_HEADERS[type][LANG], make("span", { class: "group-count", text: ` (${sum})` })),
          make("ul", {}, ...cards.map(deckRow))
        )
      );
    }
    el.deckList.replaceChildren(...sections);
    renderMissing();
    renderExportText();
  }

  function deckRow(card) {
    const count = state.counts.get(card.code);
    const name = cardName(card);
    return make(
      "li",
      { class: `deck-row race-${card.race || "none"}`, dataset: { code: card.code, count: String(count) } },
      make("span", { class: "count", text: String(count) }),
      make("button", { type: "button", class: "minus", "aria-label": t("remove_one", { name }), text: "−" }),
      make("button", { type: "button", class: "plus", "aria-label": t("add_one", { name }), disabled: count >= MAX_COUNT, text: "+" }),
      make("span", { class: "cost", text: costText(card) }),
      make("a", { class: "deck-name", href: cardUrl(card.code), target: "_blank", rel: "noopener", title: typeLine(card), text: name }),
      make("span", { class: "missing", hidden: true })
    );
  }

  el.deckList.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    const row = event.target.closest("li[data-code]");
    if (!button || !row) return;
    const code = row.dataset.code;
    changeCount(code, button.classList.contains("plus") ? +1 : -1);
    // keep the keyboard where it was: the same button of the same card, if it is still there
    const again = el.deckList.querySelector(`li[data-code="${CSS.escape(code)}"] .${button.classList.contains("plus") ? "plus" : "minus"}`);
    if (again) again.focus();
  });

  el.deckList.addEventListener("mouseover", (event) => {
    const row = event.target.closest("li[data-code]");
    if (row) renderPreview(state.cards.get(row.dataset.code));
  });

  // ------------------------------------------------------------------ collection

  el.collectionToggle.addEventListener("change", async () => {
    if (el.collectionToggle.checked && state.collection === null) {
      const { ok, data } = await api("/api/collection/");
      if (!ok) {
        el.collectionStatus.hidden = false;
        el.collectionStatus.textContent = (data && data.detail) || t("collection_failed");
        el.collectionToggle.checked = false;
        return;
      }
      state.collection = new Map(data.cards.map((entry) => [entry.code, entry.count]));
    }
    renderMissing();
  });

  function renderMissing() {
    const on = el.collectionToggle.checked && state.collection !== null;
    let missingTotal = 0;
    for (const row of el.deckList.querySelectorAll("li[data-code]")) {
      const marker = row.querySelector(".missing");
      const missing = on ? Math.max(0, state.counts.get(row.dataset.code) - (state.collection.get(row.dataset.code) || 0)) : 0;
      missingTotal += missing;
      marker.hidden = !missing;
      marker.dataset.missing = String(missing);
      marker.textContent = missing ? t("missing", { n: missing }) : "";
      row.classList.toggle("is-missing", missing > 0);
    }
    el.collectionStatus.hidden = !on;
    if (on) el.collectionStatus.textContent = t("missing_total", { n: missingTotal });
  }

  // ------------------------------------------------------------------ save

  function renderSaveErrors(data) {
    const messages = [];
    const errors = data && data.errors;
    if (errors && typeof errors === "object") {
      for (const [field, value] of Object.entries(errors)) {
        for (const message of [].concat(value)) {
          messages.push(field === "non_field_errors" ? String(message) : `${field}: ${typeof message === "string" ? message : JSON.stringify(message)}`);
        }
      }
    }
    if (!messages.length) messages.push((data && data.detail) || t("save_failed"));
    el.saveErrors.hidden = false;
    el.saveErrors.replaceChildren(...messages.map((m) => make("li", { text: m })));
  }

  el.save.addEventListener("click", async () => {
    const body = {
      name: el.name.value.trim(),
      description: el.description.value,
      ruleset: el.ruleset.value,
      is_public: el.isPublic.checked,
      cards: [...state.counts].map(([code, count]) => ({ code, count })),
    };
    el.save.disabled = true;
    el.saveStatus.textContent = t("saving");
    el.saveStatus.dataset.state = "saving";
    el.saveErrors.hidden = true;
    const url = state.deckId ? `/api/decks/${state.deckId}/` : "/api/decks/";
    const { ok, data } = await api(url, { method: state.deckId ? "PUT" : "POST", body });
    el.save.disabled = false;
    if (!ok) {
      el.saveStatus.textContent = t("save_failed");
      el.saveStatus.dataset.state = "error";
      renderSaveErrors(data);
      if (!el.name.value.trim()) el.name.focus();
      return;
    }
    const before = state.version;
    state.deckId = data.id;
    state.version = data.version;
    state.dirty = false;
    root.dataset.deckId = String(data.id);
    el.saveStatus.textContent = t(before === data.version ? "saved_same" : "saved", { version: data.version });
    el.saveStatus.dataset.state = "saved";
    el.saveStatus.dataset.version = String(data.version);
    el.title.textContent = t("edit_deck");
    const url2 = editUrl(data.id);
    if (window.location.pathname !== url2) window.history.replaceState(null, "", url2);
    if (Array.isArray(data.problems)) renderProblems(data.problems);
    renderExportState();
  });

  for (const input of [el.name, el.description, el.isPublic]) {
    input.addEventListener("input", markDirty);
  }
  el.ruleset.addEventListener("change", () => {
    markDirty();
    renderChips();
    scheduleValidate();
  });

  // ------------------------------------------------------------------ import

  function detectFormat(text) {
    const trimmed = text.trim();
    if (trimmed.startsWith("{")) return "json";
    if (/^1[A-Za-z0-9_-]{3,}$/.test(trimmed) && !/\s/.test(trimmed)) return "share";
    return "text";
  }

  /** Card data for codes the builder has not seen yet (`code:A or code:B …`, in chunks). */
  async function fetchCards(codes) {
    const missing = codes.filter((code) => !state.cards.has(code));
    for (let i = 0; i < missing.length; i += CODES_PER_LOOKUP) {
      const chunk = missing.slice(i, i + CODES_PER_LOOKUP);
      const query = chunk.map((code) => `code:${code}`).join(" or ");
      let url = `/api/cards/?q=${encodeURIComponent(query)}`;
      while (url) {
        const { ok, data } = await api(url);
        if (!ok) return false;
        for (const card of data.results) state.cards.set(card.code, card);
        url = data.next;
      }
    }
    return true;
  }

  async function loadEntries(entries) {
    const ok = await fetchCards(entries.map((e) => e.code));
    if (!ok) return false;
    state.counts = new Map(entries.filter((e) => state.cards.has(e.code)).map((e) => [e.code, e.count]));
    colonyChanged();
    return true;
  }

  function replaceLine(lineNo, suggestion) {
    const lines = el.importText.value.split(/\r\n|\r|\n/);
    const line = lines[lineNo - 1];
    if (line === undefined) return;
    const count = line.match(/^\s*(\d+)\s*[xX×]?\s/) || line.match(/\s[xX×]\s*(\d+)\s*$/);
    lines[lineNo - 1] = `${count ? count[1] : 1} ${suggestion}`;
    el.importText.value = lines.join("\n");
  }

  function renderImportErrors(data) {
    const items = [];
    if (data && Array.isArray(data.errors)) {
      for (const error of data.errors) {
        const suggestions = (error.suggestions || []).map((name) =>
          make("button", {
            type: "button",
            class: "suggestion",
            text: name,
            onclick: () => {
              replaceLine(error.line, name);
              importDeck();
            },
          })
        );
        items.push(
          make(
            "li",
            { dataset: { line: String(error.line) } },
            // the suggestions become buttons: drop the message's own "Did you mean: …?"
            make("span", { text: suggestions.length ? error.message.replace(/\s*Did you mean: .*\?$/, "") : error.message }),
            suggestions.length ? make("span", { class: "suggestions" }, ` ${t("did_you_mean")} `, ...suggestions) : null
          )
        );
      }
    } else if (data && data.errors && typeof data.errors === "object") {
      for (const [field, value] of Object.entries(data.errors)) {
        for (const message of [].concat(value)) items.push(make("li", { text: `${field}: ${message}` }));
      }
    }
    if (!items.length) items.push(make("li", { text: (data && data.detail) || t("import_failed") }));
    const readable = data && Array.isArray(data.cards) ? data.cards : [];
    if (readable.length) {
      const count = readable.reduce((a, e) => a + e.count, 0);
      items.push(
        make(
          "li",
          { class: "partial" },
          make("button", {
            type: "button",
            id: "import-partial",
            text: t("import_partial", { count }),
            onclick: async () => {
              if (await loadEntries(readable)) {
                el.importErrors.hidden = true;
                el.importStatus.textContent = t("imported", { count, kinds: readable.length });
              }
            },
          })
        )
      );
    }
    el.importErrors.replaceChildren(...items);
    el.importErrors.hidden = false;
  }

  async function importDeck() {
    const text = el.importText.value;
    const format = el.importFormat.value === "auto" ? detectFormat(text) : el.importFormat.value;
    el.importButton.disabled = true;
    el.importStatus.textContent = t("importing");
    el.importErrors.hidden = true;
    const { ok, data } = await api("/api/decks/import/", { method: "POST", body: { text, format } });
    el.importButton.disabled = false;
    if (!ok) {
      el.importStatus.textContent = t("import_failed");
      el.importStatus.dataset.state = "error";
      renderImportErrors(data);
      return;
    }
    if (!(await loadEntries(data.cards))) {
      el.importStatus.textContent = t("network");
      return;
    }
    const meta = data.meta || {};
    if (meta.name && !el.name.value.trim()) el.name.value = meta.name;
    if (meta.ruleset && [...el.ruleset.options].some((o) => o.value === meta.ruleset)) {
      el.ruleset.value = meta.ruleset;
      renderChips();
      scheduleValidate();
    }
    el.importStatus.dataset.state = "ok";
    el.importStatus.textContent = t("imported", { count: total(), kinds: state.counts.size });
  }

  el.importButton.addEventListener("click", importDeck);

  // ------------------------------------------------------------------ export

  function exportText() {
    const blocks = [];
    for (const [type, cards] of groupedDeck()) {
      const sum = cards.reduce((a, card) => a + state.counts.get(card.code), 0);
      const lines = [`# ${TYPE_HEADERS[type][LANG]} (${sum})`];
      for (const card of cards) lines.push(`${state.counts.get(card.code)} ${cardName(card)}`);
      blocks.push(lines.join("\n"));
    }
    return blocks.length ? `${blocks.join("\n\n")}\n` : "";
  }

  function renderExportText() {
    el.exportOutput.value = exportText();
  }

  function renderExportState() {
    const saved = state.deckId !== null;
    el.exportSaved.hidden = !saved;
    el.exportUnsaved.hidden = !(saved && state.dirty);
    if (saved) {
      const base = `/api/decks/${state.deckId}/export/`;
      // Text is the export's default format. `?format=text` would say the same, but DRF
      // reads `format` as its renderer override and answers 404 (see the builder's report).
      $("export-text-hu").href = `${base}?lang=hu`;
      $("export-text-en").href = `${base}?lang=en`;
      $("export-json").href = `${base}?format=json`;
    }
  }

  el.exportShare.addEventListener("click", async () => {
    if (state.deckId === null) return;
    const { ok, data } = await api(`/api/decks/${state.deckId}/export/?format=share`);
    el.shareRow.hidden = false;
    el.shareCode.value = ok ? data.code : (data && data.detail) || t("share_failed");
    el.shareCode.select();
  });

  // ------------------------------------------------------------------ start

  async function loadReferenceData() {
    const [races, types] = await Promise.all([api("/api/races/"), api("/api/types/")]);
    if (races.ok) state.races = races.data;
    if (types.ok) {
      for (const type of types.data) {
        state.types[type.id] = { hu: type.hu, en: type.en, subtypes: Object.fromEntries(type.subtypes.map((s) => [s.id, s])) };
      }
    }
    renderChips();
    renderDeck();
    renderResults();
    if (state.problems && el.badge.dataset.legal !== "checking") renderProblems(state.problems);
  }

  el.summary.textContent = t("type_search");
  colonyChanged({ dirty: false });
  if (state.deckId !== null) {
    el.saveStatus.dataset.version = String(state.version);
  }
  renderExportState();
  loadReferenceData();
})();
