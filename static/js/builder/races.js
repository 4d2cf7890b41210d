// The race chips (R 7.1): which races the colony holds, which the ruleset now forbids,
// and which the search filters by (its r: tokens).

import { CONFIG, LANG, el, state, t } from "./state.js";
import { deckRaces, fold, raceName } from "./cards.js";
import { el as make } from "../dom.js";

export const RACE_TOKEN = /(^|\s)(?:r|race|faj):("[^"]*"|\S+)/gi;

export function queryRaces() {
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

export function renderChips() {
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
