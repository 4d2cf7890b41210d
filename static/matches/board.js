// The KGK table, drawn from one viewer's projection (engine.view): zones as on the table
// (R 3.10), public counts (R 3.13), cards as cards (cost, current and printed values, state,
// attachments, upgrades), the combat as it happens, and the log's sentences with hoverable
// card names. Every word comes from the server's phrase table (matches/presentation.py);
// nothing here prints an engine token or an internal id. Shared by game.js and replay.js.
(function () {
  "use strict";
  const S = JSON.parse(document.getElementById("strings").textContent);
  const root = document.querySelector("[data-lang]") || document.documentElement;
  const lang = root.dataset.lang || "hu";
  const facesUrl = root.dataset.facesUrl;
  const IN_PLAY = new Set(["surface", "canteen", "hangar"]);
  const known = {}; // card id -> {name, name_en, code}: every face this viewer has seen
  const faces = {}; // code -> catalogue face {name, cost, printed, text, html}
  const asked = new Set();
  let onFaces = null; // called when new faces arrive (a re-render)
  let unnamed = []; // [node, code]: names written before the face (in the page's language) came
  const numberFormat = new Intl.NumberFormat(lang === "en" ? "en-GB" : "hu-HU");
  const num = (n) => (typeof n === "number" ? numberFormat.format(n) : n);

  // A count's words come in two forms, {one, other} (matches/presentation.ngettext_forms)
  function counted(template, params) {
    if (!template || typeof template !== "object") return template;
    return params && params.n === 1 ? template.one : template.other;
  }

  function fmt(template, params) {
    template = counted(template, params);
    return String(template).replace(/%\((\w+)\)s/g, (_, k) => (params[k] === undefined || params[k] === null ? "–" : num(params[k])));
  }

  // A sentence with card references: the template's %(key)s filled with text or nodes.
  function sentence(template, params) {
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

  function learn(node) {
    if (Array.isArray(node)) { node.forEach(learn); return; }
    if (!node || typeof node !== "object") return;
    if (typeof node.id === "number" && node.name) {
      known[node.id] = { name: node.name, name_en: node.name_en, code: node.code };
      if (node.code) wantFace(node.code);
    }
    Object.values(node).forEach(learn);
  }

  // ------------------------------------------------------------------ catalogue faces

  let faceTimer = null;
  function wantFace(code) {
    if (!code || faces[code] || asked.has(code) || !facesUrl) return;
    asked.add(code);
    if (!faceTimer) faceTimer = setTimeout(fetchFaces, 30);
  }

  async function fetchFaces() {
    faceTimer = null;
    const codes = [...asked].filter((c) => !faces[c]);
    for (let i = 0; i < codes.length; i += 50) {
      try {
        const r = await fetch(`${facesUrl}?codes=${encodeURIComponent(codes.slice(i, i + 50).join(","))}`, { credentials: "same-origin" });
        const data = await r.json();
        Object.assign(faces, data.faces || {});
      } catch (e) { codes.slice(i, i + 50).forEach((c) => asked.delete(c)); }
    }
    unnamed = unnamed.filter(([node, code]) => {
      if (!faces[code]) return true;
      node.textContent = faces[code].name;
      return false;
    });
    if (onFaces) onFaces();
  }

  function cardInfo(card) {
    if (typeof card === "number") card = { id: card, ...(known[card] || {}) };
    if (card && typeof card.id === "number" && !card.name && known[card.id]) card = { ...card, ...known[card.id] };
    return card || {};
  }

  function nameOf(card) {
    card = cardInfo(card);
    if (!card.name) return S.ui.face_down;
    if (card.code && faces[card.code]) return faces[card.code].name; // the page's language
    return lang === "en" && card.name_en ? card.name_en : card.name;
  }

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
  function displayName(name) {
    return String(name).split(/([\s-]+)/).map(hyphenateWord).join("");
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
    children.flat(Infinity).forEach((c) => { if (c !== null && c !== undefined && c !== false) node.append(c); });
    return node;
  }

  function clockText(seconds) {
    if (seconds === null || seconds === undefined) return "–";
    const s = Math.max(0, Math.round(seconds));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  }

  // ------------------------------------------------------------------ zoom (hover / long-press)

  let zoomNode = null;
  function zoomBox() {
    if (!zoomNode) {
      zoomNode = el("div", { class: "zoom", id: "card-zoom", role: "dialog", "aria-label": S.ui.card_zoom || "", hidden: true });
      document.body.append(zoomNode);
      // the zoom only shows (no pointer events): any other touch or a scroll closes it
      document.addEventListener("touchstart", hideZoom, { passive: true });
      window.addEventListener("scroll", hideZoom, { passive: true });
    }
    return zoomNode;
  }

  function showZoom(code, anchor) {
    const face = faces[code];
    if (!face) { wantFace(code); return; }
    const box = zoomBox();
    box.innerHTML = face.html; // the card page's own face, rendered by the server
    box.querySelectorAll("a").forEach((a) => a.setAttribute("tabindex", "-1"));
    box.hidden = false;
    const r = anchor.getBoundingClientRect();
    const w = Math.min(260, window.innerWidth - 16);
    box.style.width = `${w}px`;
    let left = r.right + 8;
    if (left + w > window.innerWidth - 8) left = Math.max(8, r.left - w - 8);
    if (window.innerWidth < 700) left = (window.innerWidth - w) / 2;
    const top = Math.max(8, Math.min(r.top, window.innerHeight - w * 1.45 - 8));
    box.style.left = `${left}px`;
    box.style.top = `${top}px`;
  }

  function hideZoom() { if (zoomNode) zoomNode.hidden = true; }

  let pressTimer = null;
  let pressed = false; // a long-press just showed the zoom: the click that follows is not an action
  // Hover intent: the zoom opens once the pointer rests on a card, and not over the card
  // that a click's re-render put under a pointer that has not moved since the click.
  let hoverTimer = null;
  let clickedAt = null;
  document.addEventListener("click", (e) => {
    if (pressed) return; // the click that ends a long press keeps its zoom open
    clickedAt = [e.clientX, e.clientY];
    hideZoom();
  }, true);
  document.addEventListener("mousemove", (e) => {
    if (clickedAt && Math.hypot(e.clientX - clickedAt[0], e.clientY - clickedAt[1]) > 4) clickedAt = null;
  }, { passive: true });

  function zoomable(node, code) {
    if (!code) return node;
    node.addEventListener("mouseenter", () => {
      clearTimeout(hoverTimer);
      hoverTimer = setTimeout(() => { if (!clickedAt && node.isConnected) showZoom(code, node); }, 250);
    });
    node.addEventListener("mouseleave", () => { clearTimeout(hoverTimer); hideZoom(); });
    node.addEventListener("touchstart", () => {
      pressed = false;
      pressTimer = setTimeout(() => { pressed = true; showZoom(code, node); }, 450);
    }, { passive: true });
    const cancel = () => clearTimeout(pressTimer);
    node.addEventListener("touchend", cancel);
    node.addEventListener("touchmove", cancel, { passive: true });
    node.addEventListener("contextmenu", (e) => { if (pressed) e.preventDefault(); });
    node.addEventListener("click", (e) => {
      if (pressed) { pressed = false; e.stopImmediatePropagation(); e.preventDefault(); }
    }, true);
    return node;
  }

  // A card name in a sentence: hoverable, never an id.
  function cardRef(card) {
    card = cardInfo(card);
    // a bare code (announce, resolve) names a card this viewer may see: its name comes with
    // its face, which may still be on its way; only a card with neither is face down
    if (!card.name && !card.code) return el("span", { class: "card-ref hidden-ref", text: S.events.hidden_card });
    const node = el("span", { class: "card-ref", tabindex: "0", text: card.name ? nameOf(card) : "…" });
    if (card.code && !faces[card.code]) { unnamed.push([node, card.code]); wantFace(card.code); }
    return zoomable(node, card.code);
  }

  // ------------------------------------------------------------------ cards as cards

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

  function cardNode(card, opts) {
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

  function zone(key, cards, opts, extra) {
    const title = el("h3", { class: "zone-title" }, S.zones[key], extra || "");
    const body = cards.length ? cards.map((c) => cardNode(c, opts)) : [el("span", { class: "muted empty", text: S.ui.empty })];
    return el("div", { class: `zone zone-${key}`, "data-zone": key }, title, el("div", { class: "zone-cards" }, body));
  }

  function pile(key, count, cards, opts) {
    // another player's wasteland is only a count (engine.view: null, no ids): backs stand in
    const shown = cards ? cards.slice(-3).reverse()
      : Array.from({ length: Math.min(count, 3) }, () => ({ face_down: true, zone: key }));
    return el("div", { class: `zone pile zone-${key}`, "data-zone": key },
      el("h3", { class: "zone-title" }, S.zones[key], " ", el("span", { class: "count", text: num(count) })),
      el("div", { class: "zone-cards" }, shown.map((c) => cardNode(c, { ...opts, text: false }))));
  }

  // One player's half (R 3.10): colony and surface near the player, canteen and trash above,
  // wasteland and hangar on top. The opponent's half is the same seen across the table.
  function side(view, seat, opts) {
    const p = view.players[seat];
    const head = el("div", { class: "side-head" },
      el("strong", { class: "player-name", text: opts.playerName(seat) }),
      el("span", { class: "credits", title: S.zones.credits }, `${S.zones.credits}: `, el("b", { text: num(p.credits) })),
      el("span", { class: "counts" }, `${S.zones.centre}: `, el("b", { "data-count": "centre", text: num(p.counts.centre) })),
      opts.clock ? opts.clock(seat) : "");
    const grid = el("div", { class: "side-grid" },
      pile("wasteland", p.counts.wasteland, p.wasteland, opts),
      zone("hangar", p.hangar, opts, ` (${num(p.hangar_size)}/12)`),
      pile("trash", p.counts.trash, p.trash, opts),
      zone("canteen", p.canteen, opts),
      el("div", { class: "zone pile zone-colony", "data-zone": "colony" },
        el("h3", { class: "zone-title" }, S.zones.colony, " ", el("span", { class: "count", text: num(p.counts.colony) }))),
      zone("surface", p.surface, opts));
    return [head, grid];
  }

  // ------------------------------------------------------------------ combat as it happens

  function combatRoles(combat) {
    const roles = {};
    if (!combat) return roles;
    (combat.attackers || []).forEach((id) => { roles[id] = "attacker"; });
    (combat.defenders || []).forEach((id) => { roles[id] = "defender"; });
    (combat.bombers || []).forEach((id) => { roles[id] = "bomber"; });
    if (combat.target && combat.target.card && combat.target.card.id) roles[combat.target.card.id] = "target";
    return roles;
  }

  function shipsById(view) {
    const out = {};
    view.players.forEach((p) => p.hangar.forEach((s) => { out[s.id] = s; }));
    return out;
  }

  function combatView(view, opts) {
    const c = view.combat;
    const ships = shipsById(view);
    const list = (ids) => (ids || []).map((id) => ships[id]).filter(Boolean);
    const target = c.target && c.target.card ? cardRef(c.target.card) : (S.zones[c.target && c.target.zone] || S.zones[c.target && c.target.kind] || "");
    const col = (title, cards, cls) => el("div", { class: `combat-col ${cls}` }, el("h4", { text: title }),
      el("div", { class: "zone-cards" }, cards.length ? cards.map((s) => cardNode(s, { ...opts, text: false })) : el("span", { class: "muted", text: "–" })));
    const participants = [...list(c.attackers).map((s) => [s, c.attacker]), ...list(c.defenders).map((s) => [s, c.defender])]
      .filter(([s]) => s.orientation === "active")
      .sort((a, b) => (b[0].stats.speed - a[0].stats.speed) || (a[1] === c.attacker ? -1 : 1));
    const order = participants.length ? el("p", { class: "speed-order" }, `${S.ui.speed_order}: `,
      participants.map(([s], i) => [i ? " › " : "", cardRef(s), ` (${num(s.stats.speed)})`])) : null;
    const shots = (opts.shots || []).length ? el("ol", { class: "shots", "aria-label": S.ui.shots },
      opts.shots.map((line) => el("li", {}, line))) : null;
    return el("div", { class: "combat", id: "combat" },
      el("h3", {}, `${S.ui.combat}: ${opts.playerName(c.attacker)} → ${opts.playerName(c.defender)}`),
      el("p", {}, `${S.ui.step}: `, el("b", { text: S.steps[c.step] || "" }), ` · ${S.ui.target}: `, target),
      el("div", { class: "combat-cols" }, col(S.ui.attackers, list(c.attackers), "att"), el("span", { class: "vs", text: "⚔" }), col(S.ui.defenders, list(c.defenders), "def")),
      c.bombers && c.bombers.length ? el("p", {}, `${S.ui.bombers}: `, list(c.bombers).map((s, i) => [i ? ", " : "", cardRef(s)])) : null,
      order, shots);
  }

  function centreOfTable(view, opts) {
    const parts = [];
    if (view.chain && view.chain.length) {
      parts.push(el("div", { class: "chain" }, el("h3", { text: S.zones.chain, title: S.ui.chain_help }),
        el("p", { class: "chain-help muted", text: S.ui.chain_help }), // R 12: what the chain is
        el("ol", {}, view.chain.map((e) => el("li", {}, cardRef({ name: e.name, code: e.code, name_en: (faces[e.code] || {}).name }), ` — ${opts.playerName(e.player)}`)))));
    }
    if (view.combat) parts.push(combatView(view, opts));
    return parts;
  }

  function statusLine(view, opts) {
    if (!view.turn) return S.phases[view.phase] || ""; // the set-up: no turn, nobody's turn yet
    const bits = [fmt(S.ui.turn, { n: view.turn })];
    if (view.active !== null && view.active !== undefined) {
      // "you": the person looking (a replay shows a seat's view to anyone: opts.you)
      const you = "you" in opts ? opts.you : opts.me;
      bits.push(view.active === you && you !== null ? S.ui.your_turn_now : fmt(S.ui.active, { name: opts.playerName(view.active) }));
    }
    if (view.combat) bits.push(`${S.ui.combat}: ${S.steps[view.combat.step] || ""}`);
    else bits.push(S.phases[view.phase] || "");
    return bits.filter(Boolean).join(" · ");
  }

  // ------------------------------------------------------------------ a table of 3-6 (R 17.1)

  const isOut = (view, seat) => view.table.out.includes(seat);

  // The colony shown in full on top: the one clicked, else the other side of a combat you
  // are in (or the attacker's), else whoever decides or plays now, else your next neighbour.
  function focusSeat(view, me, opts) {
    const ok = (s) => typeof s === "number" && s !== me && view.players[s];
    if (ok(opts.focus)) return opts.focus;
    const c = view.combat;
    if (c) {
      if (c.attacker === me && ok(c.defender)) return c.defender;
      if (ok(c.attacker)) return c.attacker;
    }
    if (view.pending && ok(view.pending.player)) return view.pending.player;
    if (ok(view.active)) return view.active;
    const mine = view.table.neighbours[me] || [];
    if (ok(mine[0])) return mine[0];
    return view.players.map((p) => p.seat).find((s) => s !== me);
  }

  function renderStrips(view, me, other, opts) {
    let box = document.getElementById("table-strips");
    if (!view.table) { if (box) box.remove(); return; }
    if (!box) {
      box = el("div", { class: "table-strips", id: "table-strips" });
      const wrap = document.getElementById("table-wrap") || document.getElementById("side-top").parentNode;
      wrap.insertBefore(box, wrap.firstChild);
    }
    box.setAttribute("aria-label", fmt(S.ui.table_of, { n: view.table.seats }));
    const n = view.players.length;
    const order = Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
    const attackable = opts.me === null || opts.me === undefined ? [] : (view.table.neighbours[me] || []);
    const ranking = view.table.ranking;
    box.replaceChildren(...order.map((seat) => strip(view, seat, { attackable, ranking, other, opts })));
  }

  function strip(view, seat, { attackable, ranking, other, opts }) {
    const p = view.players[seat];
    const out = isOut(view, seat);
    const deciding = view.pending && view.pending.player === seat;
    const classes = ["strip", out ? "out" : "", view.active === seat && !out && !ranking ? "active" : "", deciding ? "deciding" : "", seat === other ? "focus" : "", attackable.includes(seat) ? "neighbour" : ""];
    const badges = [];
    if (ranking) badges.push(el("span", { class: "badge rank", text: S.ui.place[String(ranking.indexOf(seat) + 1)] || "" }));
    if (out) {
      const record = view.table.eliminated.find((r) => r.seat === seat);
      badges.push(el("span", { class: "badge out", text: record ? fmt(S.ui.out_by, { name: opts.playerName(record.by) }) : S.ui.out }));
    } else if (!ranking) { // the game is over: nobody's turn
      if (view.active === seat) badges.push(el("span", { class: "badge turn", text: S.ui.their_turn }));
      if (deciding && view.active !== seat) badges.push(el("span", { class: "badge turn", text: S.ui.deciding }));
      if (attackable.includes(seat)) badges.push(el("span", { class: "badge neighbour", text: S.ui.can_attack }));
    }
    const ships = (p.hangar || []).length;
    return el("button", { type: "button", class: classes.filter(Boolean).join(" "), "data-seat": seat, "aria-pressed": seat === other ? "true" : "false",
      onclick: () => opts.onFocus && opts.onFocus(seat) },
      el("strong", { class: "player-name", text: opts.playerName(seat) }),
      el("span", { class: "strip-counts" },
        `${S.zones.credits} `, el("b", { text: num(p.credits) }), " · ",
        `${S.zones.colony} `, el("b", { "data-count": "colony", text: num(p.counts.colony) }), " · ",
        `${S.zones.centre} `, el("b", { text: num(p.counts.centre) }), " · ",
        `${S.zones.hangar} `, el("b", { text: num(ships) })),
      opts.clock && !out ? opts.clock(seat) : "",
      el("span", { class: "badges" }, badges));
  }

  function render(view, opts) {
    learn(view);
    opts = { ...opts, combatRole: combatRoles(view.combat) };
    if (opts.rerender) onFaces = opts.rerender;
    const me = opts.me === null || opts.me === undefined ? 0 : opts.me;
    // Two players: the opponent on top, as ever. A table (R 17.1): every other colony in a
    // compact strip, clockwise from you, and the one in focus (clicked, else the one that
    // matters now) in full on top.
    const other = view.table ? focusSeat(view, me, opts) : 1 - me;
    renderStrips(view, me, other, opts);
    const top = document.getElementById("side-top");
    const bottom = document.getElementById("side-bottom");
    top.replaceChildren(...side(view, other, opts));
    bottom.replaceChildren(...side(view, me, opts));
    top.dataset.seat = other;
    bottom.dataset.seat = me;
    document.getElementById("table-centre").replaceChildren(...centreOfTable(view, opts));
    const hand = document.getElementById("hand");
    const mine = view.players[me].centre;
    const theirs = view.players[other].counts.centre;
    const seesMine = opts.me !== null && opts.me !== undefined;
    if (seesMine) {
      hand.replaceChildren(el("h3", { class: "zone-title" }, `${S.zones.centre} (${num(mine.length)})`),
        el("div", { class: "zone-cards" }, mine.map((c) => cardNode(c, opts))));
    } else {
      hand.replaceChildren(el("h3", { class: "zone-title" }, fmt(S.ui.cards_in_centre, { n: view.players[me].counts.centre })));
    }
    const oppHand = document.getElementById("opp-hand");
    if (oppHand) {
      oppHand.replaceChildren(el("span", { class: "zone-title" }, `${opts.playerName(other)} · ${fmt(S.ui.cards_in_centre, { n: theirs })}`),
        el("span", { class: "backs", "aria-hidden": "true" }, Array.from({ length: Math.min(theirs, 12) }, () => el("span", { class: "mini-back" }))));
    }
    document.getElementById("status-line").textContent = statusLine(view, opts);
  }

  // ------------------------------------------------------------------ the log's sentences

  function zoneWord(z) { return S.zones[z] || ""; }

  // How a game ended, in words: an empty colony says whose (R 15.1) or both (R 15.3).
  function reasonText(result, view, playerName) {
    if (result.reason === "colony" && view && view.players) {
      const empty = view.players.filter((p) => p.counts && p.counts.colony === 0);
      if (empty.length > 1) return S.reasons["colony.both"];
      if (empty.length === 1) return fmt(S.reasons["colony.one"], { name: playerName(empty[0].seat) });
    }
    return S.reasons[result.reason] || "";
  }

  // A line the next one says better: a card played moves to the chain, then "X plays Y".
  function redundant(ev) {
    return ev.kind === "move" && ev.to === "chain" && ev.why === "play";
  }

  // a bot's name in this language, numbered when two of its kind sit at one table
  function botName(p) {
    const label = S.bots[p.bot] || "";
    return p.bot_number ? fmt(S.ui.bot_numbered, { bot: label, n: p.bot_number }) : label;
  }

  function describe(ev, playerName) {
    const E = S.events;
    const card = (v) => cardRef(v);
    const p = {};
    if (typeof ev.player === "number") p.player = playerName(ev.player);
    if (typeof ev.by === "number") p.by = playerName(ev.by);
    if ("winner" in ev) p.winner = ev.winner === null || ev.winner === undefined ? "–" : playerName(ev.winner);
    if (ev.card !== undefined && ev.card !== null && typeof ev.card !== "string") p.card = card(ev.card);
    if (typeof ev.card === "string") p.card = card({ code: ev.card, name: (faces[ev.card] || {}).name });
    if (ev.code) p.code = cardRef({ code: ev.code, name: (faces[ev.code] || {}).name || ev.name });
    ["ship", "shooter"].forEach((k) => { if (typeof ev[k] === "number") p[k] = card(ev[k]); });
    if (typeof ev.target === "number") p.target = card(ev.target);
    else if (typeof ev.target === "string") p.target = zoneWord(ev.target);
    if (ev.role) p.role = S.roles[ev.role] || "";
    if (ev.stat) p.stat = S.ui[ev.stat] || "";
    if (ev.keyword) p.keyword = S.keywords[ev.keyword] || "";
    if (typeof ev.to === "string") p.to = ev.kind === "rotate" ? (S.orientations[ev.to] || "") : zoneWord(ev.to);
    if (typeof ev.from === "string") p.from = zoneWord(ev.from);
    if (typeof ev.zone === "string") p.zone = zoneWord(ev.zone) || zoneWord(ev.zone.split("_")[0]);
    if (ev.kind === "game_over") p.reason = S.reasons[ev.reason] || "";
    if (typeof ev.defender === "number") p.defender = playerName(ev.defender);
    if (ev.kind === "credits") { p.change = ev.change > 0 ? `+${num(ev.change)}` : num(ev.change); p.n = Math.abs(ev.change); }
    if (ev.kind === "upgrades") p.n = ev.upgrades;
    if (ev.kind === "taken_for") p.decision = (S.decisions[ev.decision] || {}).title || "";
    ["turn", "credits", "cost", "amount", "total", "upgrades", "at"].forEach((k) => { if (typeof ev[k] === "number" && !(k in p)) p[k] = ev[k]; });
    if (ev.kind === "modify" || ev.kind === "cost_modifier") p.amount = ev.amount > 0 ? `+${num(ev.amount)}` : num(ev.amount);
    let template = E[ev.kind];
    if (ev.kind === "attack" && typeof ev.defender === "number") template = E.attack_on; // a table: whom
    if (ev.kind === "game_over" && (ev.winner === null || ev.winner === undefined)) template = E.game_over_none;
    if (ev.kind === "move") {
      const secret = ev.secret && ev.secret.name ? ev.secret : null;
      if (secret) { known[secret.id] = { name: secret.name, code: secret.code }; wantFace(secret.code); }
      const owner = ev.card && typeof ev.card.owner === "number" ? playerName(ev.card.owner) : p.player;
      if (ev.from === "colony" && ev.to === "centre") return sentence(E.draw, { player: owner });
      if (ev.to === "colony" && ev.from === "centre") return sentence(E.mulligan_back, { player: owner });
      if (secret) p.card = cardRef(secret);
      template = E[`move_to.${ev.to}`] || E.move;
    }
    if (ev.kind === "reveal" && ev.secret && ev.secret.cards) ev.secret.cards.forEach(learn);
    return sentence(template || E.hidden_card, p);
  }

  window.KGKBoard = { S, lang, num, clockText, render, describe, botName, redundant, reasonText, nameOf, cardRef, cardNode, cardInfo, learn, el, fmt, sentence, hideZoom, faces, known };
})();
