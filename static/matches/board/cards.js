// Cards as cards: cost, current and printed values, state, attachments, upgrades; a card
// named in a sentence; the zones and piles that hold them.

import { S, board, faces } from "./state.js";
import { el } from "../../js/dom.js";
import { cardInfo, nameOf, wantFace } from "./faces.js";
import { displayName } from "./hyphen.js";
import { fmt, num } from "./words.js";
import { hideZoom, zoomable } from "./zoom.js";

const IN_PLAY = new Set(["surface", "canteen", "hangar"]);

// A card name in a sentence: hoverable, never an id.
export function cardRef(card) {
  card = cardInfo(card);
  // a bare code (announce, resolve) names a card this viewer may see: its name comes with
  // its face, which may still be on its way; only a card with neither is face down
  if (!card.name && !card.code) return el("span", { class: "card-ref hidden-ref", text: S.events.hidden_card });
  const node = el("span", { class: "card-ref", tabindex: "0", text: card.name ? nameOf(card) : "…" });
  if (card.code && !faces[card.code]) { board.unnamed.push([node, card.code]); wantFace(card.code); }
  return zoomable(node, card.code);
}

function statCell(key, label, current, printed, extra) {
  const cls = ["stat", `stat-${key}`];
  if (typeof printed === "number" && current !== printed) cls.push(current > printed ? "up" : "down");
  const title = `${S.ui[key] || label}${typeof printed === "number" && current !== printed ? ` · ${fmt(S.ui.printed, { value: printed })}` : ""}`;
  return el("span", { class: cls.join(" "), title }, el("b", { text: label }), ` ${num(current)}${extra || ""}`);
}

// A card's text with its R 2.4 tokens as the catalogue's icons (the meaning as a tooltip).
function rulesText(face) {
  if (!face.text_parts) return face.text;
  return face.text_parts.map((p) => (p.token
    ? el("abbr", { class: `token token-${p.token}`, title: p.title, text: p.icon })
    : p.text));
}

function stateTags(card) {
  const tags = [];
  if (card.orientation) tags.push(el("span", { class: `tag o-${card.orientation}`, text: S.orientations[card.orientation] || "" }));
  if (card.paid === false) tags.push(el("span", { class: "tag unpaid", text: S.ui.unpaid }));
  if (card.face_down && card.name && IN_PLAY.has(card.zone)) tags.push(el("span", { class: "tag fd", text: S.ui.face_down_own }));
  if (card.upgrades) tags.push(el("span", { class: "tag upg", title: fmt(S.ui.upgrade_counters, { n: card.upgrades }), text: `⬆${num(card.upgrades)}` }));
  if (card.damage) tags.push(el("span", { class: "tag dmg", text: `${S.ui.damage} ${num(card.damage)}` }));
  if (card.hit) tags.push(el("span", { class: "tag hit", text: S.ui.hit }));
  return tags;
}

export function cardNode(card, opts) {
  opts = opts || {};
  card = cardInfo(card);
  const face = card.code ? faces[card.code] : null;
  const mark = opts.mark ? opts.mark(card) : null; // "act" | "pick" | "picked" | "target" | null
  const classes = ["card", `type-${card.type || "hidden"}`];
  if (!card.name) classes.push("back");
  if (card.face_down && card.name && IN_PLAY.has(card.zone)) classes.push("face-down-own");
  if (card.orientation) classes.push(`o-${card.orientation}`);
  if (card.paid === false) classes.push("unpaid");
  if (mark) classes.push(`mark-${mark}`);
  const role = opts.combatRole && opts.combatRole[card.id];
  if (role) classes.push("in-combat", `combat-${role}`);
  const parts = [];
  if (!card.name) {
    parts.push(el("span", { class: "card-name muted", text: displayName(S.ui.face_down) }));
    parts.push(el("span", { class: "card-tags" }, stateTags(card)));
  } else {
    const cost = face ? face.cost : "";
    parts.push(el("span", { class: "card-top" },
      el("span", { class: "cost", title: S.ui.cost, text: cost === "" || cost === null ? "·" : String(cost) }),
      el("span", { class: "card-name", text: displayName(nameOf(card)) })));
    const sub = [S.types[card.type], S.subtypes[card.subtype]].filter(Boolean).join(" · ");
    if (sub) parts.push(el("span", { class: "card-type", text: sub }));
    if (card.stats) {
      const s = card.stats;
      const p = face ? face.printed : {};
      parts.push(el("span", { class: "card-stats" },
        statCell("speed", S.ui.spd, s.speed, p.speed),
        statCell("firepower", S.ui.fp, s.firepower, p.firepower),
        statCell("armour", S.ui.arm, s.armour, s.full_armour, s.armour !== s.full_armour ? `/${num(s.full_armour)}` : ""),
        statCell("bombardment", S.ui.bmb, s.bombardment, p.bombardment)));
    } else if (typeof card.armour === "number") {
      parts.push(el("span", { class: "card-stats" }, statCell("armour", S.ui.arm, card.armour, face ? face.printed.armour : undefined)));
    } else if (face && typeof face.printed.speed === "number") {
      // not in play (the centre, a prompt): the printed values, as on the card itself
      const p = face.printed;
      parts.push(el("span", { class: "card-stats" },
        statCell("speed", S.ui.spd, p.speed), statCell("firepower", S.ui.fp, p.firepower),
        statCell("armour", S.ui.arm, p.armour), statCell("bombardment", S.ui.bmb, p.bombardment)));
    } else if (face && typeof face.printed.armour === "number") {
      parts.push(el("span", { class: "card-stats" }, statCell("armour", S.ui.arm, face.printed.armour)));
    }
    if (face && face.text && opts.text !== false) parts.push(el("span", { class: "card-text" }, rulesText(face)));
    const tags = stateTags(card);
    if (tags.length) parts.push(el("span", { class: "card-tags" }, tags));
  }
  if (card.attachments && card.attachments.length) {
    parts.push(el("div", { class: "attachments" }, card.attachments.map((a) => cardNode(a, { ...opts, text: false }))));
  }
  const label = [nameOf(card), ...stateTags(card).map((t) => t.textContent)].join(", ");
  let node;
  if (mark && opts.onCard) {
    node = el("button", { class: classes.join(" "), type: "button", "aria-label": label, "aria-pressed": mark === "picked" ? "true" : null, "data-card": card.id }, parts);
    node.addEventListener("click", (e) => { e.stopPropagation(); hideZoom(); opts.onCard(card, node); });
  } else {
    node = el("div", { class: classes.join(" "), "aria-label": label, role: "group" }, parts);
  }
  if (!card.name) node.title = label; // a back shows no words (play.css): they are its tooltip
  return zoomable(node, card.code);
}

export function zone(key, cards, opts, extra) {
  const title = el("h3", { class: "zone-title" }, S.zones[key], extra || "");
  const body = cards.length ? cards.map((c) => cardNode(c, opts)) : [el("span", { class: "muted empty", text: S.ui.empty })];
  return el("div", { class: `zone zone-${key}`, "data-zone": key }, title, el("div", { class: "zone-cards" }, body));
}

export function pile(key, count, cards, opts) {
  // another player's wasteland is only a count (engine.view: null, no ids): backs stand in
  const shown = cards ? cards.slice(-3).reverse()
    : Array.from({ length: Math.min(count, 3) }, () => ({ face_down: true, zone: key }));
  return el("div", { class: `zone pile zone-${key}`, "data-zone": key },
    el("h3", { class: "zone-title" }, S.zones[key], " ", el("span", { class: "count", text: num(count) })),
    el("div", { class: "zone-cards" }, shown.map((c) => cardNode(c, { ...opts, text: false }))));
}
