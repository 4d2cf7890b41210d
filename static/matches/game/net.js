// The page's line to the server: the state and events by HTTP, the WebSocket (with its
// watchdog and reconnects) and polling when there is no socket. Every message carries seq:
// a gap, or a reconnect, means a resync over HTTP.

import * as B from "../board.js";
import { csrf, draw, game, me, setConn, url } from "./state.js";
import { appendLog } from "./log.js";

const S = B.S;

export function adopt(next) {
  if (next.version < game.state.version) return; // an older answer overtaken by a newer one
  const moved = next.version !== game.state.version;
  game.state = next;
  game.clockBase = { at: Date.now(), state: game.state };
  if (moved) {
    game.busy = false; game.menuCard = null; game.confirmEnd = null;
    const key = next.pending && next.pending.player === me() ? `${next.pending.decision}:${next.view && next.view.turn}` : null;
    if (key !== game.picks.key) game.picks = { key, ids: [] };
  }
  draw();
}

export async function getJSON(u) {
  const r = await fetch(u, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!r.ok) throw new Error(`${r.status}`);
  return r.json();
}

// A state read after its events can be ahead of them (a move committed in between): the
// log first asks for the lines it missed, then the state is shown. Else a game that ended
// in between (it polls no more) kept its last lines out of the log.
async function withLog(next) {
  for (let tries = 0; next.seq > game.lastSeq && tries < 3; tries++) {
    appendLog((await getJSON(`${url("eventsUrl")}?after=${game.lastSeq}`)).events || []);
  }
  return next;
}

export async function resync(why) {
  note(game.sockets, `resync: ${why}`); // the trail says why the page asked (browser tests)
  try {
    const [next, events] = await Promise.all([getJSON(url("stateUrl")), getJSON(`${url("eventsUrl")}?after=${game.lastSeq}`)]);
    appendLog(events.events || []);
    adopt(await withLog(next));
  } catch (e) { /* the next poll or message tries again */ }
}

// The watchdog: a socket that has been quiet for QUIET ms is asked for the newest version
// (a ping); a pong ahead of the page means a push never arrived: resync. No pong within
// DEAD ms: the socket is dead without knowing it; close it, and it reconnects.
const QUIET = 1200;
const DEAD = 4000;
export function watchSocket() {
  if (!game.socketOpen || !["active", "invited", "open"].includes(game.state.status)) return;
  const now = Date.now();
  if (game.pingedAt !== null && now - game.pingedAt > DEAD) { note(game.sockets, "no pong: closing"); game.pingedAt = null; game.socket.close(); return; }
  if (game.pingedAt === null && now - game.heardAt > QUIET) {
    game.pingedAt = now;
    try { game.socket.send(JSON.stringify({ type: "ping" })); } catch (e) { /* onclose follows */ }
  }
}

function onPong(msg) {
  game.pingedAt = null;
  if (msg.version > game.state.version || msg.seq > game.lastSeq) resync("pong ahead");
}

export function onMessage(msg) {
  game.heardAt = Date.now();
  if (msg.type === "pong") { onPong(msg); return; }
  if (msg.type === "answer") { onAnswer(msg); return; }
  if (msg.type !== "update") return;
  const events = msg.events || [];
  if (events.length && events[0].seq !== game.lastSeq + 1 && events[0].seq > game.lastSeq) { resync("gap"); return; }
  if (!events.length && msg.seq > game.lastSeq) { resync("hello"); return; } // (re)connect: catch the log up
  appendLog(events);
  if (msg.state) adopt(msg.state);
}

function note(n, what) { game.trail.push([n, what, Date.now() % 100000]); if (game.trail.length > 30) game.trail.shift(); }

export function connect() {
  if (!("WebSocket" in window)) { startPolling(); return; }
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const n = ++game.sockets;
  note(n, "connect");
  try { game.socket = new WebSocket(`${proto}://${location.host}${url("wsUrl")}`); } catch (e) { note(n, "failed"); startPolling(); return; }
  game.socket.onopen = () => { note(n, "open"); game.socketOpen = true; game.heardAt = Date.now(); game.pingedAt = null; game.reconnectDelay = 1000; stopPolling(); setConn(S.ui.live, "live"); };
  game.socket.onmessage = (m) => { try { onMessage(JSON.parse(m.data)); } catch (e) { resync("bad message"); } };
  game.socket.onerror = () => note(n, "error");
  game.socket.onclose = (e) => {
    note(n, `close ${e.code}`);
    game.socketOpen = false;
    for (const done of [...game.awaiting.values()]) done(null); // their moves go by POST now
    startPolling();
    if (game.state.status === "active" || game.state.status === "invited" || game.state.status === "open") {
      // Jittered (0.5-1.5x): after a server restart the pages would otherwise all come back
      // in the same instant, and 100 sockets at once wait ~0.5 s each (bench/RESULTS.md).
      setTimeout(connect, game.reconnectDelay * (0.5 + Math.random()));
      game.reconnectDelay = Math.min(game.reconnectDelay * 2, 30000);
    }
  };
}

function startPolling() {
  setConn(S.ui.polling, "polling");
  if (game.pollTimer) return;
  const tick = async () => {
    game.pollTimer = null;
    if (game.socketOpen) return;
    try {
      const events = await getJSON(`${url("eventsUrl")}?after=${game.lastSeq}`);
      if ((events.events || []).length || events.version !== game.state.version || events.status !== game.state.status) {
        appendLog(events.events || []);
        adopt(await withLog(await getJSON(url("stateUrl"))));
      }
    } catch (e) { /* keep trying */ }
    if (!game.socketOpen && !["finished", "aborted"].includes(game.state.status)) game.pollTimer = setTimeout(tick, 1000);
  };
  game.pollTimer = setTimeout(tick, 500);
}

function stopPolling() { if (game.pollTimer) { clearTimeout(game.pollTimer); game.pollTimer = null; } }

// A 503 means the server stored nothing (a busy or restarting database): the same request
// is sent again after its Retry-After, a few times, before the player is told. Safe to
// repeat: an action carries its client_action_id, and conceding twice is conceding once.
export async function post(u, body, attempts = 4) {
  for (let i = 1; ; i++) {
    const r = await fetch(u, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: JSON.stringify(body || {}),
    });
    if (r.status !== 503 || i >= attempts) return r;
    const wait = Math.min(Number(r.headers.get("Retry-After")) || 1, 3);
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

export function newId() {
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

// A move goes over the open socket (no HTTP request, no session read on the server), and
// by POST when there is no socket, when the socket does not answer within ANSWER_WAIT, or
// when it answers that the server is busy (the POST retries those). Sending a move both
// ways is safe: the server stores a client_action_id once.
const ANSWER_WAIT = 3000;

function onAnswer(msg) {
  const resolve = game.awaiting.get(msg.client_action_id);
  if (resolve) resolve({ status: msg.status, body: msg.body || {} });
}

function askSocket(move) {
  if (!game.socketOpen) return Promise.resolve(null);
  return new Promise((resolve) => {
    const done = (answer) => { clearTimeout(timer); game.awaiting.delete(move.client_action_id); resolve(answer); };
    const timer = setTimeout(() => done(null), ANSWER_WAIT);
    game.awaiting.set(move.client_action_id, done);
    try { game.socket.send(JSON.stringify({ type: "act", ...move })); } catch (e) { done(null); }
  });
}

export async function askServer(move) {
  const answer = await askSocket(move);
  if (answer && answer.status !== 503) return answer;
  const response = await post(url("actionsUrl"), move);
  return { status: response.status, body: await response.json().catch(() => ({})) };
}
