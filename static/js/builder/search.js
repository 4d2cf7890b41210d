// Finding cards: the search box (the query language, debounced), the results' keyboard
// and mouse, and the race chips as filters.

import { SEARCH_DELAY_MS, el, state, t } from "./state.js";
import { api } from "./api.js";
import { changeCount } from "./colony.js";
import { RACE_TOKEN, queryRaces, renderChips } from "./races.js";
import { highlight, highlightedCode, setResults, showSearchError } from "./results.js";

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

export function bindSearch() {
  el.search.addEventListener("input", () => {
    clearTimeout(state.searchTimer);
    state.searchTimer = setTimeout(() => search(), SEARCH_DELAY_MS);
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
      clearTimeout(state.searchTimer);
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

  el.chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-race]");
    if (!chip) return;
    const race = chip.dataset.race;
    const already = queryRaces().includes(race);
    const rest = el.search.value.replace(RACE_TOKEN, " ").replace(/\s+/g, " ").trim();
    el.search.value = already ? rest : `${rest} r:${race}`.trim();
    clearTimeout(state.searchTimer);
    renderChips();
    search();
    el.search.focus();
  });
}
