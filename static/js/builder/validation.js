// Validation (R 9): the server checks the colony after every change and lists every
// problem at once; an older answer overtaken by a newer change is dropped.

import { VALIDATE_DELAY_MS, el, state, t } from "./state.js";
import { api } from "./api.js";
import { el as make } from "../dom.js";


export function scheduleValidate() {
  el.badge.dataset.legal = "checking";
  el.badge.textContent = t("checking");
  clearTimeout(state.validateTimer);
  state.validateTimer = setTimeout(validate, VALIDATE_DELAY_MS);
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

export function renderProblems(problems) {
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
