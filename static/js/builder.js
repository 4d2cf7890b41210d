/* The deck builder (templates/decks/builder.html): plain JS, no framework, no build step;
 * ES modules (static/js/builder/), loaded by this one with type="module".
 *
 * Everything goes through the API: GET /api/cards/?q= (the search language),
 * GET /api/races/ and /api/types/ (names, opposing races, R 7.1),
 * POST /api/decks/validate/ after every change (R 9, every problem at once),
 * POST /api/decks/ or PUT /api/decks/<id>/ to save, POST /api/decks/import/,
 * GET /api/decks/<id>/export/ and GET /api/collection/.
 *
 * The modules, lowest first: state.js (the one state object, the page, the server's
 * sentences), api.js, cards.js (names and order), the views (results.js, races.js,
 * deck-list.js, validation.js), colony.js (a change and what follows it), and the input
 * (search.js, deck-io.js); elements are made by js/dom.js (the game table's too). This file
 * wires them and starts.
 */

import { $, el, root, state, t } from "./builder/state.js";
import { api } from "./builder/api.js";
import { colonyChanged, dropDraft, restoreDraft } from "./builder/colony.js";
import { bindDeckIo, copyText } from "./builder/deck-io.js";
import { renderDeck, renderExportState } from "./builder/deck-list.js";
import { renderChips } from "./builder/races.js";
import { renderResults } from "./builder/results.js";
import { bindSearch } from "./builder/search.js";
import { renderProblems } from "./builder/validation.js";
import { el as make } from "./dom.js";

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

function start() {
  window.addEventListener("beforeunload", (event) => {
    if (!state.dirty) return;
    event.preventDefault();
    event.returnValue = t("leave_warning"); // browsers show their own sentence
  });
  bindSearch();
  bindDeckIo();

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
}

if (root) start();
