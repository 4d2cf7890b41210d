// The KGK table, drawn from one viewer's projection (engine.view): zones as on the table
// (R 3.10), public counts (R 3.13), credits, combat and chain; and the game log's sentences.
// Shared by the game page (game.js) and the replay page (replay.js). Plain JS, no build step.
(function () {
  "use strict";
  const S = JSON.parse(document.getElementById("strings").textContent);
  const lang = (document.querySelector("[data-lang]") || document.documentElement).dataset.lang || "hu";
  const known = {}; // card id -> {name, name_en, code}; codes -> names, from every view seen
  const byCode = {};

  function fmt(template, params) {
    return String(template).replace(/%\((\w+)\)s/g, (_, k) => (params[k] === undefined ? "?" : params[k]));
  }

  function learn(node) {
    if (Array.isArray(node)) { node.forEach(learn); return; }
    if (!node || typeof node !== "object") return;
    if (typeof node.id === "number" && node.name) {
      known[node.id] = { name: node.name, name_en: node.name_en, code: node.code };
      if (node.code) byCode[node.code] = { name: node.name, name_en: node.name_en };
    }
    Object.values(node).forEach(learn);
  }

  function nameOf(card) {
    if (!card) return S.ui.face_down;
    if (typeof card === "number") card = known[card] || { id: card };
    if (typeof card === "string") card = byCode[card] ? { ...byCode[card] } : { name: card };
    if (card.code && !card.name_en && byCode[card.code]) card = { ...card, ...byCode[card.code] };
    if (!card.name) return S.ui.face_down;
    return lang === "en" && card.name_en ? card.name_en : card.name;
  }

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (v === null || v === undefined || v === false) return;
      if (k === "class") node.className = v;
      else if (k === "text") node.textContent = v;
      else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? "" : v);
    });
    children.flat().forEach((c) => { if (c !== null && c !== undefined) node.append(c); });
    return node;
  }

  const initial = (word) => word.charAt(0).toUpperCase();

  function cardNode(card, opts) {
    const acts = (opts.actionsFor && opts.actionsFor(card.id)) || [];
    const classes = ["card", `type-${card.type || "hidden"}`];
    if (card.face_down && !card.name) classes.push("back");
    if (card.face_down && card.name) classes.push("face-down-own");
    if (card.orientation === "used") classes.push("used");
    if (card.paid === false) classes.push("unpaid");
    if (acts.length) classes.push("actionable");
    if (opts.combatRole && opts.combatRole[card.id]) classes.push(`in-combat combat-${opts.combatRole[card.id]}`);
    const bits = [];
    if (card.name) bits.push(el("span", { class: "card-name", text: nameOf(card) }));
    else bits.push(el("span", { class: "card-name muted", text: S.ui.face_down }));
    const tags = [];
    if (card.paid === false) tags.push(S.ui.unpaid);
    if (card.orientation) tags.push(card.orientation === "used" ? S.ui.used : S.ui.active_card);
    if (card.upgrades) tags.push(`${S.ui.upgrades} ${card.upgrades}`);
    if (card.damage) tags.push(`${S.ui.damage} ${card.damage}`);
    if (tags.length) bits.push(el("span", { class: "card-tags", text: tags.join(" · ") }));
    if (card.stats) {
      const s = card.stats;
      bits.push(el("span", { class: "card-stats", title: `${S.ui.speed} / ${S.ui.firepower} / ${S.ui.armour} / ${S.ui.bombardment}`,
        text: `${initial(S.ui.speed)}${s.speed} ${initial(S.ui.firepower)}${s.firepower} ${initial(S.ui.armour)}${s.armour}/${s.full_armour} ${initial(S.ui.bombardment)}${s.bombardment}` }));
    }
    if (card.attachments && card.attachments.length) {
      bits.push(el("div", { class: "attachments" }, card.attachments.map((a) => cardNode(a, opts))));
    }
    const attrs = { class: classes.join(" "), "data-id": card.id, "data-code": card.code || null };
    if (acts.length && opts.onCard) {
      return el("button", { ...attrs, type: "button", onclick: () => opts.onCard(card.id, acts),
        title: acts.map((a) => a.label).join("\n") }, bits);
    }
    return el("div", attrs, bits);
  }

  function zone(key, cards, opts, extra) {
    const title = el("h3", { class: "zone-title" }, S.zones[key], extra || "");
    const body = cards.length ? cards.map((c) => cardNode(c, opts)) : [el("span", { class: "muted empty", text: S.ui.empty })];
    return el("div", { class: `zone zone-${key}`, "data-zone": key }, title, el("div", { class: "zone-cards" }, body));
  }

  function pile(key, count, cards, opts) {
    const node = el("div", { class: `zone pile zone-${key}`, "data-zone": key },
      el("h3", { class: "zone-title" }, S.zones[key]),
      el("span", { class: "count", "data-count": key, text: String(count) }));
    const visible = (cards || []).filter((c) => c.name);
    if (visible.length) {
      node.append(el("details", {}, el("summary", { text: S.ui.more }),
        el("div", { class: "zone-cards" }, visible.map((c) => cardNode(c, opts)))));
    }
    return node;
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    const s = Math.max(0, Math.round(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // One player's half of the table, R 3.10: colony bottom-left with the credit tracker left
  // of it, surface to its right; trash above the colony, canteen to its right; wasteland on
  // top, hangar to its right. The opponent's half is the same seen from across the table.
  function side(view, seat, opts) {
    const p = view.players[seat];
    const head = el("div", { class: "side-head" },
      el("strong", { class: "player-name", text: opts.playerName(seat) }),
      el("span", { class: "credits", "data-credits": seat, title: S.zones.credits }, `${S.zones.credits}: `, el("b", { text: String(p.credits) })),
      el("span", { class: "counts" }, `${S.zones.centre}: `, el("b", { "data-count": "centre", text: String(p.counts.centre) })),
      opts.clock ? opts.clock(seat) : "");
    const grid = el("div", { class: "side-grid" },
      pile("wasteland", p.counts.wasteland, p.wasteland, opts),
      zone("hangar", p.hangar, opts, ` (${p.hangar_size}/12)`),
      pile("trash", p.counts.trash, p.trash, opts),
      zone("canteen", p.canteen, opts),
      el("div", { class: "zone pile zone-colony", "data-zone": "colony" },
        el("div", { class: "tracker", title: S.zones.credits, text: `¢${p.credits}` }),
        el("div", {}, el("h3", { class: "zone-title", text: S.zones.colony }),
          el("span", { class: "count", "data-count": "colony", text: String(p.counts.colony) }))),
      zone("surface", p.surface, opts));
    return [head, grid];
  }

  function centreOfTable(view, opts) {
    const parts = [];
    if (view.chain && view.chain.length) {
      parts.push(el("div", { class: "chain" }, el("h3", { text: S.zones.chain }),
        el("ol", {}, view.chain.map((e) => el("li", {}, `${nameOf(e.code)} — ${opts.playerName(e.player)}`)))));
    }
    const c = view.combat;
    if (c) {
      const names = (ids) => (ids || []).map((id) => nameOf(id)).join(", ") || "–";
      const target = c.target && c.target.card ? nameOf(c.target.card) : (c.target && (S.zones[c.target.zone] || c.target.zone || c.target.kind)) || "";
      parts.push(el("div", { class: "combat", id: "combat" },
        el("h3", {}, `${S.ui.combat}: ${opts.playerName(c.attacker)} → ${opts.playerName(c.defender)}`),
        el("p", {}, `${S.ui.step}: `, el("b", { text: S.steps[c.step] || c.step }), ` · ${S.ui.target}: ${target}`),
        el("p", {}, `${S.ui.attackers}: ${names(c.attackers)}`),
        el("p", {}, `${S.ui.defenders}: ${names(c.defenders)}`),
        c.bombers && c.bombers.length ? el("p", {}, `${S.ui.bombers}: ${names(c.bombers)}`) : ""));
    }
    return parts;
  }

  function statusLine(view, opts) {
    const bits = [fmt(S.ui.turn, { n: view.turn })];
    if (view.active !== null && view.active !== undefined) bits.push(fmt(S.ui.active, { name: opts.playerName(view.active) }));
    bits.push(S.phases[view.phase] || view.phase);
    if (view.combat) bits.push(`${S.ui.combat}: ${S.steps[view.combat.step] || view.combat.step}`);
    return bits.join(" · ");
  }

  function combatRoles(combat) {
    const roles = {};
    if (!combat) return roles;
    (combat.attackers || []).forEach((id) => { roles[id] = "attacker"; });
    (combat.defenders || []).forEach((id) => { roles[id] = "defender"; });
    (combat.bombers || []).forEach((id) => { roles[id] = "bomber"; });
    if (combat.target && combat.target.card && combat.target.card.id) roles[combat.target.card.id] = "target";
    return roles;
  }

  function render(view, opts) {
    learn(view);
    opts = { ...opts, combatRole: combatRoles(view.combat) };
    const me = opts.me === null || opts.me === undefined ? 0 : opts.me;
    const top = document.getElementById("side-top");
    const bottom = document.getElementById("side-bottom");
    top.replaceChildren(...side(view, 1 - me, opts));
    bottom.replaceChildren(...side(view, me, opts));
    top.dataset.seat = 1 - me;
    bottom.dataset.seat = me;
    document.getElementById("table-centre").replaceChildren(...centreOfTable(view, opts));
    const hand = document.getElementById("hand");
    const mine = view.players[me].centre;
    hand.replaceChildren(el("h3", { class: "zone-title" }, `${S.zones.centre} (${mine.length})`),
      el("div", { class: "zone-cards" }, mine.map((c) => cardNode(c, opts))));
    document.getElementById("status-line").textContent = statusLine(view, opts);
  }

  function describe(ev, playerName) {
    const template = S.events[ev.kind];
    const params = {};
    Object.entries(ev).forEach(([k, v]) => {
      if (v && typeof v === "object" && !Array.isArray(v) && ("id" in v || "face_down" in v)) params[k] = nameOf(v);
      else params[k] = v;
    });
    if ("player" in ev) params.player = playerName(ev.player);
    if ("by" in ev && typeof ev.by === "number") params.by = playerName(ev.by);
    if ("winner" in ev) params.winner = ev.winner === null ? "–" : playerName(ev.winner);
    if (ev.code) params.code = nameOf(ev.code);
    ["ship", "shooter"].forEach((k) => { if (typeof ev[k] === "number") params[k] = nameOf(ev[k]); });
    if (typeof ev.target === "number") params.target = nameOf(ev.target);
    else if (typeof ev.target === "string") params.target = S.zones[ev.target] || ev.target;
    ["from", "to"].forEach((k) => { if (typeof ev[k] === "string") params[k] = S.zones[ev[k]] || ev[k]; });
    if (ev.reason && S.ui.reason[ev.reason]) params.reason = S.ui.reason[ev.reason];
    if (ev.kind === "move" && ev.from === "colony" && ev.to === "centre") {
      return fmt(S.events.draw, { player: playerName(ev.card ? ev.card.owner : ev.player) });
    }
    return template ? fmt(template, params) : ev.kind;
  }

  window.KGKBoard = { S, lang, render, describe, nameOf, learn, clockText, el, fmt };
})();
