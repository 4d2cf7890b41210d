// The live game page: renders the server's state for this viewer, sends actions, and keeps
// up to date over the WebSocket. Every message carries seq: a gap, or a reconnect, means a
// resync over HTTP (GET the match, then the missing events for the log). When the socket
// cannot connect, the page polls instead, so it also works where only HTTP is served.
//
// ES modules (static/matches/game/), lowest first: state.js (the page's one state object,
// `game`), words.js (actions as words), clocks.js, log.js, net.js (HTTP, the socket,
// polling), moves.js (sending a move and what becomes of it), panel.js (the decision
// panel), view.js (the page drawn). This module wires them and starts the page.

import * as B from "./board.js";
import { draw, game, setDraw, showError, url } from "./game/state.js";
import { bindClockSound, lowBank, tickClocks } from "./game/clocks.js";
import { appendLog } from "./game/log.js";
import { click, firstOf, shouldAutoPass } from "./game/moves.js";
import { adopt, connect, getJSON, onMessage, post, resync, watchSocket } from "./game/net.js";
import { renderStops } from "./game/panel.js";
import { render } from "./game/view.js";

const S = B.S;

function bindKeys() {
  document.addEventListener("keydown", (e) => {
    if (e.target.closest("input, textarea, select") || e.ctrlKey || e.metaKey || e.altKey) return;
    let a = null;
    if (e.key === "p" || e.key === "P") a = firstOf(["pass", "done", "hold_fire", "decline", "keep"]);
    if (e.key === "e" || e.key === "E") a = firstOf(["end_turn"]);
    if (a) { e.preventDefault(); click(a); }
  });
}

function bindConcede() {
  document.getElementById("concede").addEventListener("click", async () => {
    if (!window.confirm(game.state.seat_count > 2 ? S.ui.leave_confirm : S.ui.concede_confirm)) return;
    const r = await post(url("concedeUrl"));
    const body = await r.json().catch(() => ({}));
    if (r.ok) adopt(body); else showError(body.detail);
    resync("conceded");
  });
}

// On a phone the decision panel is a fixed strip: the page reserves its height below the
// board, so the board is never under it.
function reserveActionBar() {
  const bar = document.getElementById("action-bar");
  const reserve = () => {
    const fixed = getComputedStyle(bar).position === "fixed";
    document.body.style.paddingBottom = fixed ? `${bar.offsetHeight + 8}px` : "";
  };
  if (window.ResizeObserver) new ResizeObserver(reserve).observe(bar);
  window.addEventListener("resize", reserve);
}

// On a wide screen the sidebar (the decision, then the log) ends at the window's bottom
// edge wherever the page is scrolled, so the newest log lines are always in view.
function fitSidebarToWindow() {
  const sidebar = document.querySelector(".sidebar");
  const fitSidebar = () => {
    const sticky = getComputedStyle(sidebar).position === "sticky";
    const top = Math.max(sidebar.getBoundingClientRect().top, 6);
    sidebar.style.maxHeight = sticky ? `${window.innerHeight - top - 6}px` : "";
  };
  window.addEventListener("scroll", fitSidebar, { passive: true });
  window.addEventListener("resize", fitSidebar);
  fitSidebar();
}

setDraw(render);
bindClockSound();
bindKeys();
bindConcede();
reserveActionBar();
renderStops();
draw();
fitSidebarToWindow();
setInterval(tickClocks, 1000);
lowBank();
setInterval(watchSocket, 400);
getJSON(`${url("eventsUrl")}?after=0`).then((d) => appendLog(d.events || [])).catch(() => {});
if (!["finished", "aborted"].includes(game.state.status)) connect();
// for tests and the curious: the state shown, the socket's health, a dropped connection
window.KGKGame = {
  resync, state: () => game.state, lastSeq: () => game.lastSeq, live: () => game.socketOpen,
  receive: onMessage, dropSocket: () => game.socket && game.socket.close(), socketTrail: () => game.trail, clicks: () => game.clicks, autoPassing: shouldAutoPass, busy: () => game.busy,
};
