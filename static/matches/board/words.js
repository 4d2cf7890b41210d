// Numbers and sentences in the page's language: every word comes from the server's phrase
// table (matches/presentation.py client_strings).

import { S, lang } from "./state.js";

const numberFormat = new Intl.NumberFormat(lang === "en" ? "en-GB" : "hu-HU");
export const num = (n) => (typeof n === "number" ? numberFormat.format(n) : n);

// A count's words come in two forms, {one, other} (matches/presentation.ngettext_forms)
function counted(template, params) {
  if (!template || typeof template !== "object") return template;
  return params && params.n === 1 ? template.one : template.other;
}

export function fmt(template, params) {
  template = counted(template, params);
  return String(template).replace(/%\((\w+)\)s/g, (_, k) => (params[k] === undefined || params[k] === null ? "–" : num(params[k])));
}

// A sentence with card references: the template's %(key)s filled with text or nodes.
export function sentence(template, params) {
  template = String(counted(template, params));
  const out = [];
  let last = 0;
  String(template).replace(/%\((\w+)\)s/g, (m, k, at) => {
    out.push(template.slice(last, at));
    const v = params[k];
    out.push(v === undefined || v === null ? "–" : v instanceof Node ? v : String(num(v)));
    last = at + m.length;
    return m;
  });
  out.push(template.slice(last));
  return out;
}

export function clockText(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.max(0, Math.round(seconds));
  // a game over days (issue 37): "1 d 3 h", "3 h 12 min", never "1440:00"
  if (s >= 86400) {
    const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
    return h ? fmt(S.ui.clock_days, { d, h }) : fmt(S.ui.clock_days_only, { d });
  }
  if (s >= 3600) return fmt(S.ui.clock_hours, { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// a bot's name in this language, numbered when two of its kind sit at one table
export function botName(p) {
  const label = S.bots[p.bot] || "";
  return p.bot_number ? fmt(S.ui.bot_numbered, { bot: label, n: p.bot_number }) : label;
}
