// The table from one viewer's projection (engine.view): both halves (R 3.10), the chain
// and the combat as it happens, the status line, and at a table of 3-6 (R 17.1) a strip
// per other colony.

import { S, board, faces } from "./state.js";
import { el } from "../../js/dom.js";
import { learn } from "./faces.js";
import { cardNode, cardRef, pile, zone } from "./cards.js";
import { fmt, num } from "./words.js";

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

export function render(view, opts) {
  learn(view);
  opts = { ...opts, combatRole: combatRoles(view.combat) };
  if (opts.rerender) board.onFaces = opts.rerender;
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
