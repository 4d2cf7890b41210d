// Soft hyphens in long card names, at syllable boundaries of the page's language.

import { lang } from "./state.js";

// Long compound names ("Fegyverkovácsműhely") would break mid-syllable or overflow a card:
// soft hyphens at Hungarian syllable boundaries (V-CV, VC-CV; digraphs kept whole) let the
// browser break them with a hyphen only where the card is too narrow. Display text only:
// labels and look-ups keep the plain name.
const VOWEL = /[aáeéiíoóöőuúüűy]/i;
// letters that stay together: Hungarian's consonant digraphs; in English also the common
// vowel pairs and consonant digraphs (a rough rule, good enough for a card's name)
const DIGRAPH = lang === "hu" ? /^(dzs|cs|dz|gy|ly|ny|sz|ty|zs)/i
  : /^(ai|au|ea|ee|ei|eu|ie|oa|oi|oo|ou|ue|ui|ch|ck|gh|ng|ph|sh|th|wh)/i;
function syllableUnits(word) {
  const units = [];
  for (let i = 0; i < word.length;) {
    const m = lang === "hu" && VOWEL.test(word[i]) ? null : word.slice(i).match(DIGRAPH);
    const len = m ? m[0].length : 1;
    units.push(word.slice(i, i + len));
    i += len;
  }
  return units;
}
// Where to break between the vowels at units `a` and `b`: V-V; V-CV; in longer runs of
// consonants Hungarian breaks before the last one (VC-CV, VCC-CV), English after the first
// (VC-CCV) but keeps a stop with its l or r (VC-CLV: "Siege-breaker").
const STOP_LIQUID = /^[bcdfgkpt][lr]$/i;
function breakAt(units, a, b) {
  const n = b - a - 1;
  if (n <= 1) return a + 1;
  if (lang === "hu") return b - 1;
  return STOP_LIQUID.test(units[b - 2] + units[b - 1]) ? b - 2 : a + 2;
}

function hyphenateWord(word) {
  if (word.length < 6) return word; // a pile's narrow column broke "Vaskarom" as "Vaskaro-m"
  const units = syllableUnits(word);
  const vowelAt = units.map((u) => VOWEL.test(u[0]));
  const breaks = new Set();
  let last = -1; // the previous vowel's unit
  vowelAt.forEach((isVowel, i) => {
    if (!isVowel) return;
    if (last >= 0) breaks.add(breakAt(units, last, i));
    last = i;
  });
  let out = "";
  let letters = 0;
  units.forEach((u, i) => {
    const rest = word.length - letters;
    if (breaks.has(i) && letters >= 2 && rest >= 2) out += "\u00ad"; // "ke-men-ce"
    out += u;
    letters += u.length;
  });
  return out;
}

export function displayName(name) {
  return String(name).split(/([\s-]+)/).map(hyphenateWord).join("");
}
