// The live page's one state object (`game`): the server's state for this viewer as last
// adopted, the socket's and the log's progress, and what the player has open or chosen.
// Every other module of the page reads and updates it; nothing else lives in a closure.

import * as B from "../board.js";

const S = B.S;
export const root = document.getElementById("game");
export const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
export const url = (k) => root.dataset[k];
export const store = {
  get(k, d) { try { const v = localStorage.getItem(`kgk.${k}`); return v === null ? d : JSON.parse(v); } catch (e) { return d; } },
  set(k, v) { try { localStorage.setItem(`kgk.${k}`, JSON.stringify(v)); } catch (e) { /* private mode */ } },
};
// Stops (docs/rulings.md): which response windows wait for you. Automatic passes follow
// only these settings and public facts (whose turn, the window's kind, an empty chain).
const STOP_DEFAULTS = { start: false, main: false, declare: true, combat: false, own: false };

export const game = {
  state: JSON.parse(document.getElementById("initial-state").textContent),
  lastSeq: 0, // the last event shown in the log
  socket: null,
  socketOpen: false,
  pollTimer: null,
  reconnectDelay: 1000,
  heardAt: Date.now(), // the socket's last message (the watchdog, net.js)
  pingedAt: null, // a ping not answered yet
  // The last socket events (which socket, what, when): read by the browser tests when a
  // reconnect does not come back, so a flaky failure says what the page saw.
  trail: [],
  sockets: 0,
  awaiting: new Map(), // client_action_id -> resolve({status, body}): moves sent by socket
  busy: false, // an action is on its way: one at a time, against the version it saw
  clockBase: null, // when the clocks were last read: {at, state}
  lowWarned: false, // the low-bank sound has played for this fall
  stops: { ...STOP_DEFAULTS, ...store.get("stops", {}) },
  passUntilMyTurn: false,
  menuCard: null, // the card whose actions are offered in the panel
  sheetOpen: false, // a phone's decision sheet: one line of the main actions, or all of it
  confirmEnd: null, // the end-turn action waiting for "are you sure"
  picks: { key: null, ids: [] }, // the cards picked in the current multi-pick
  combatEvents: [], // this combat's events, for the combat view
  focus: null, // a table (R 17.1): the colony the player clicked to see in full
  guideSeen: new Set(store.get("guide", [])),
  guideShown: null, // the decision kind whose rule the guide shows now
  takenFor: false, // the next log line is a decision taken for its player (matches.services.take_forced)
  suggestionRest: null, // the rest of an accepted suggestion: {decision, ids}
  clicks: 0,
};
game.clockBase = { at: Date.now(), state: game.state };

// The page's one drawing function (view.js render), set by game.js: a module below the
// view asks for a redraw without importing the view, which imports it.
let drawer = () => {};
export function setDraw(fn) { drawer = fn; }
export function draw() { drawer(); }

export const me = () => (game.state.you === null || game.state.you === undefined ? null : game.state.you);
export const decision = () => (game.state.pending && game.state.pending.decision) || null;
export const isBotGame = () => (game.state.players || []).some((p) => p.bot);
export const playerName = (seat) => {
  const p = (game.state.players || []).find((x) => x.seat === seat);
  let name = (p && (p.bot ? B.botName(p) : p.name)) || "–";
  if (p && p.stand_in) name = B.fmt(S.ui.stand_in, { name });
  return seat === me() ? `${name} (${S.ui.you})` : name;
};

export function setConn(text, cls) {
  const c = document.getElementById("conn");
  if (["finished", "aborted"].includes(game.state.status)) { text = S.ui.finished; cls = "finished"; }
  c.textContent = text;
  c.className = `conn ${cls}`;
}

export function showError(text) {
  const node = document.getElementById("action-error");
  node.textContent = text || "";
  node.hidden = !text;
}
