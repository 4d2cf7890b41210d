// The colony as a list grouped by type, what the collection lacks of it, and its export.

import { DECK_SIZE, MAX_COUNT, TYPE_HEADERS, $, el, state, t } from "./state.js";
import { cardName, cardUrl, costText, groupedDeck, total, typeLine } from "./cards.js";
import { el as make } from "../dom.js";

export function renderDeck() {
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

export function renderMissing() {
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

export function renderExportState() {
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
