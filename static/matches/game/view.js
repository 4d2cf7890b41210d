// The page drawn from the game's state: the board (board.js), the panel, the result.

import * as B from "../board.js";
import { game, me, playerName, setConn, showError } from "./state.js";
import { allCards, byCard, pickedIds } from "./words.js";
import { clock } from "./clocks.js";
import { continueSuggestion, maybeAutoPass } from "./moves.js";
import { onCard, renderPanel } from "./panel.js";

const S = B.S;

export function render() {
  const cards = allCards();
  const acts = byCard(cards);
  const mine = game.state.pending && game.state.pending.player === me();
  const picked = new Set(pickedIds());
  const shooters = new Set((game.state.legal_actions || []).filter((a) => a.kind === "fire").map((a) => a.params.ship));
  if (game.state.view) {
    B.render(game.state.view, {
      me: me(),
      playerName,
      clock,
      focus: game.focus,
      onFocus: (seat) => { game.focus = game.focus === seat ? null : seat; render(); },
      rerender: render,
      shots: game.combatEvents.map((ev) => B.describe(ev, playerName)),
      mark: (card) => {
        if (!mine || game.busy) return picked.has(card.id) ? "picked" : null;
        if (game.menuCard === card.id) return "selected";
        if (acts[card.id]) return acts[card.id].every((a) => a.kind === "choose") ? "pick" : "act";
        if (picked.has(card.id)) return "picked";
        if (shooters.has(card.id)) return "acting";
        return null;
      },
      onCard: (card, node) => onCard(card, acts[card.id] || [], cards),
    });
  }
  renderPanel(cards, acts);
  renderResult();
  const leave = document.getElementById("concede");
  const seated = (game.state.players || []).find((x) => x.seat === me());
  leave.hidden = !(game.state.status === "active" && me() !== null && !(seated && seated.stand_in));
  if (game.state.seat_count > 2) leave.textContent = S.ui.leave_table; // a bot plays on for you
  document.getElementById("stops").hidden = game.state.status !== "active" || me() === null;
  maybeAutoPass();
  continueSuggestion();
}

function renderResult() {
  const node = document.getElementById("result");
  const r = game.state.result;
  if (!r) { node.hidden = true; return; }
  node.hidden = false;
  showError(""); // an earlier click's "the game moved on" means nothing once it is over
  const reason = B.reasonText(r, game.state.view, playerName, me());
  let head;
  if (r.winner_seat === null || r.winner_seat === undefined) head = S.ui.draw_result;
  else if (me() !== null) head = r.winner_seat === me() ? S.ui.won : S.ui.lost;
  else head = B.fmt(S.ui.winner, { name: playerName(r.winner_seat) });
  node.className = `result ${me() !== null && r.winner_seat === me() ? "won" : me() !== null && r.winner_seat !== null ? "lost" : ""}`;
  let turns = game.state.view ? ` · ${B.fmt(S.ui.result_turns, { n: game.state.view.turn })}` : "";
  if (r.ranking && r.ranking.length) turns += ` · ${S.ui.ranking}: ${r.ranking.map((s, i) => `${i + 1}. ${playerName(s)}`).join(", ")}`;
  document.getElementById("result-head").textContent = head;
  document.getElementById("status-line").textContent = [S.phases.over, head, reason].filter(Boolean).join(" · ");
  document.getElementById("result-detail").textContent = `${reason}${turns}`;
  document.getElementById("replay-link").hidden = game.state.status !== "finished";
  const rematch = document.getElementById("rematch");
  if (rematch) rematch.hidden = false;
  setConn("", "finished");
}
