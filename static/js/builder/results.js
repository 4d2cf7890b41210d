// The search results as a listbox (one highlighted row, the keyboard's cursor) and the
// preview of the highlighted card.

import { LANG, el, state, t } from "./state.js";
import { cardName, cardUrl, costText, otherName, typeLine } from "./cards.js";
import { el as make } from "../dom.js";

function resultsText() {
  if (!state.total) return t("no_results");
  const shown = state.results.length;
  if (shown < state.total) return t("results", { shown, total: state.total });
  return t("results_all", { total: state.total }, state.total);
}

export function showSearchError(message) {
  el.searchError.hidden = !message;
  el.searchError.textContent = message || "";
  el.search.setAttribute("aria-invalid", message ? "true" : "false");
}

export function setResults(results, next, count, { keep = false } = {}) {
  for (const card of results) state.cards.set(card.code, card);
  state.results = results;
  state.nextUrl = next;
  state.total = count;
  if (!keep) state.highlighted = -1;
  renderResults();
}

export function renderResults() {
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

export function renderResultCounts() {
  for (const row of el.results.children) {
    const count = state.counts.get(row.dataset.code) || 0;
    const badge = row.querySelector(".in-deck");
    badge.dataset.count = String(count);
    badge.textContent = count ? `×${count}` : "";
    badge.title = t("in_deck", { n: count });
    row.querySelector(".minus").disabled = !count;
  }
}

export function highlight(index) {
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

export function highlightedCode() {
  const card = state.results[state.highlighted];
  return card ? card.code : null;
}

export function renderPreview(card) {
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
