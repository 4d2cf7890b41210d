// Changing the colony: every change redraws what depends on it, asks for a validation and
// keeps a draft of the unsaved work.

import { MAX_COUNT, el, state, t } from "./state.js";
import { fetchCards } from "./api.js";
import { renderDeck, renderExportState } from "./deck-list.js";
import { renderChips } from "./races.js";
import { renderResultCounts } from "./results.js";
import { scheduleValidate } from "./validation.js";

export function changeCount(code, delta) {
  const card = state.cards.get(code);
  if (!card) return;
  const next = Math.max(0, Math.min(MAX_COUNT, (state.counts.get(code) || 0) + delta));
  if (next === (state.counts.get(code) || 0)) return;
  if (next === 0) state.counts.delete(code);
  else state.counts.set(code, next);
  colonyChanged();
}

export function colonyChanged({ dirty = true } = {}) {
  if (dirty) markDirty();
  renderDeck();
  renderResultCounts();
  renderChips();
  scheduleValidate();
}

export function markDirty() {
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

export function dropDraft(key = draftKey()) {
  try {
    localStorage.removeItem(key);
  } catch (error) {
    /* nothing stored */
  }
}

export async function restoreDraft() {
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

export async function loadEntries(entries) {
  const ok = await fetchCards(entries.map((e) => e.code));
  if (!ok) return false;
  state.counts = new Map(entries.filter((e) => state.cards.has(e.code)).map((e) => [e.code, e.count]));
  colonyChanged();
  return true;
}
