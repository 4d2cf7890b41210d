// The log: every event in seq order, in words; the combat's events kept for its view.

import * as B from "../board.js";
import { draw, game, playerName } from "./state.js";

const S = B.S;

export function appendLog(events) {
  const log = document.getElementById("log");
  let combatMoved = false;
  events.forEach((ev) => {
    if (ev.seq <= game.lastSeq) return;
    game.lastSeq = ev.seq;
    if (ev.kind === "reveal" && ev.secret) B.learn(ev.secret);
    if (ev.kind === "attack") game.combatEvents = [];
    if (["attack", "designate", "fire", "damage", "return_fire", "hold_fire", "bombard", "bombard_success", "no_bombardment", "no_defence", "stealth", "heavy_weapons", "ordnance", "burst_fire"].includes(ev.kind)) { game.combatEvents.push(ev); combatMoved = true; }
    // every event keeps its line (the log is complete, in seq order); one that the next
    // line says better is kept hidden
    // a decision taken for its player: its note stays hidden, the next line says it instead
    const note = ev.kind === "taken_for" && ev.marks;
    const quiet = B.redundant(ev) || note;
    const mark = game.takenFor && !quiet ? B.el("span", { class: "taken-for", text: ` (${S.ui.taken_for})` }) : null;
    if (mark) game.takenFor = false;
    if (note) game.takenFor = true;
    log.append(B.el("li", { class: `ev ev-${ev.kind}`, "data-seq": ev.seq, hidden: quiet ? "" : null }, B.describe(ev, playerName), mark));
  });
  log.scrollTop = log.scrollHeight;
  if (combatMoved && game.state.view && game.state.view.combat) draw();
}
