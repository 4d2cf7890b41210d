// What goes in and out of the colony: the list's own buttons, the collection check,
// saving, importing (with suggestions for unread lines) and exporting.

import { el, root, state, t } from "./state.js";
import { api } from "./api.js";
import { editUrl, total } from "./cards.js";
import { changeCount, dropDraft, loadEntries, markDirty } from "./colony.js";
import { renderMissing, renderExportState } from "./deck-list.js";
import { renderPreview } from "./results.js";
import { renderChips } from "./races.js";
import { renderProblems, scheduleValidate } from "./validation.js";
import { el as make } from "../dom.js";

export async function copyText(text, status) {
  try {
    await navigator.clipboard.writeText(text);
    status.textContent = t("copied");
  } catch (error) {
    status.textContent = t("copy_failed");
  }
}

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

function detectFormat(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return "json";
  if (/^1[A-Za-z0-9_-]{3,}$/.test(trimmed) && !/\s/.test(trimmed)) return "share";
  return "text";
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

export function bindDeckIo() {
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

  el.importButton.addEventListener("click", importDeck);

  el.exportShare.addEventListener("click", async () => {
    if (state.deckId === null) return;
    const { ok, data } = await api(`/api/decks/${state.deckId}/export/?format=share`);
    el.shareRow.hidden = false;
    el.shareCode.value = ok ? data.code : (data && data.detail) || t("share_failed");
    el.shareCode.select();
  });
}
