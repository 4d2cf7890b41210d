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
  // Everything the builder says and every rule fact it uses comes from the server
  // (decks/views_builder.py builder_config): no translations or rules live here.
  const CONFIG = JSON.parse(document.getElementById("builder-config").textContent);
  const DECK_SIZE = CONFIG.deck_size; // R 9.1
  const MAX_COUNT = 45; // the API's bound for one entry
  const SEARCH_DELAY_MS = 250;
  const VALIDATE_DELAY_MS = 100;
  const CODES_PER_LOOKUP = 40; // `code:X or code:Y …` stays far below the 1000-character limit
  const TYPE_ORDER = CONFIG.type_order;
  const TYPE_HEADERS = CONFIG.type_headers;

  /** The server's sentence for `key`, its %(name)s parameters filled in; a counted
   * message ({one, other}) is chosen by `count`. */
  function t(key, params, count) {
    let entry = CONFIG.strings[key];
    if (entry === undefined) return key;
    if (typeof entry === "object") entry = count === 1 ? entry.one : entry.other;
    const values = params || {};
    return entry.replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in values ? String(values[name]) : whole));
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

  function resultsText() {
    if (!state.total) return t("no_results");
    const shown = state.results.length;
    if (shown < state.total) return t("results", { shown, total: state.total });
    return t("results_all", { total: state.total }, state.total);
  }

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
    saveDraft();
  }

  // ------------------------------------------------------------------ unsaved work

  // A draft of unsaved work lives in local storage, one per deck (or "new"), so following
  // a link or closing the tab loses nothing; leaving with unsaved changes asks first.
  const draftKey = () => `kgk-builder-draft:${state.deckId === null ? "new" : state.deckId}`;

  function saveDraft() {
    const draft = {
      name: el.name.value,
      description: el.description.value,
      ruleset: el.ruleset.value,
      is_public: el.isPublic.checked,
      cards: [...state.counts].map(([code, count]) => ({ code, count })),
    };
    try {
      localStorage.setItem(draftKey(), JSON.stringify(draft));
    } catch (error) {
      /* storage full or disabled: the leave warning still protects the work */
    }
  }

  function dropDraft(key = draftKey()) {
    try {
      localStorage.removeItem(key);
    } catch (error) {
      /* nothing stored */
    }
  }

  async function restoreDraft() {
    let draft = null;
    try {
      draft = JSON.parse(localStorage.getItem(draftKey()) || "null");
    } catch (error) {
      draft = null;
    }
    if (!draft || !Array.isArray(draft.cards)) return;
    el.name.value = draft.name || "";
    el.description.value = draft.description || "";
    if ([...el.ruleset.options].some((o) => o.value === draft.ruleset)) el.ruleset.value = draft.ruleset;
    el.isPublic.checked = Boolean(draft.is_public);
    if (await loadEntries(draft.cards)) {
      el.draftNote.hidden = false;
      el.saveStatus.textContent = t("draft_restored");
    }
  }

  window.addEventListener("beforeunload", (event) => {
    if (!state.dirty) return;
    event.preventDefault();
    event.returnValue = t("leave_warning"); // browsers show their own sentence
  });

  async function copyText(text, status) {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t("copied");
    } catch (error) {
      status.textContent = t("copy_failed");
    }
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

  function renderProblems(problems) {
    state.problems = problems;
    el.problems.replaceChildren(
      ...problems.map((problem) =>
        make("li", { class: "problem", dataset: { code: problem.code } }, problem.message)
      )
    );
    el.badge.dataset.legal = problems.length ? "false" : "true";
    el.badge.dataset.problems = String(problems.length);
    el.badge.textContent = problems.length ? t("problems", { n: problems.length }, problems.length) : t("legal");
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
      el.summary.textContent = resultsText();
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
    const rule = CONFIG.race_rules[el.ruleset.value] || "original";
    if (rule === "original") {
      for (const race of inDeck.keys()) {
        const info = state.races.find((r) => r.id === race);
        if (info && info.opposing_race) {
          blocked.set(info.opposing_race, t("opposes", { race: raceName(info.opposing_race), other: raceName(race) }));
        }
      }
    } else if (rule === "max4" && inDeck.size >= CONFIG.max_races) {
      for (const race of state.races) {
        if (!inDeck.has(race.id)) blocked.set(race.id, t("too_many", { max: CONFIG.max_races }));
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
          make("h3", {}, TYPE_HEADERS[type], make("span", { class: "group-count", text: ` (${sum})` })),
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
    if (on) el.collectionStatus.textContent = missingTotal ? t("missing_total", { n: missingTotal }, missingTotal) : t("missing_none");
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
    dropDraft();
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
            // the suggestions become buttons: the problem without its "Did you mean: …?"
            make("span", { text: suggestions.length && error.problem ? error.problem : error.message }),
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
      const lines = [`# ${TYPE_HEADERS[type]} (${sum})`];
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

  el.draftNote = make("p", { class: "draft-note", hidden: true, role: "status" });
  const discard = make("button", { type: "button", class: "linkish", text: t("discard_draft") });
  discard.addEventListener("click", () => {
    dropDraft();
    state.dirty = false;
    window.location.reload();
  });
  el.draftNote.append(discard);
  el.saveStatus.after(el.draftNote);
  for (const [button, source] of [
    ["export-copy", () => el.exportOutput.value],
    ["share-copy", () => el.shareCode.value],
  ]) {
    const node = $(button);
    if (node) node.addEventListener("click", () => copyText(source(), $(`${button}-status`)));
  }

  el.summary.textContent = t("type_search");
  colonyChanged({ dirty: false });
  restoreDraft();
  if (state.deckId !== null) {
    el.saveStatus.dataset.version = String(state.version);
  }
  renderExportState();
  loadReferenceData();
})();
