// The lobby's quick-play section (templates/quickplay/_lobby_queue.html): join and leave a
// queue without leaving the page, show the counts, your place and your wait, and open the
// game when you are matched. Live over /ws/quickplay/; when the socket is closed (or the
// server speaks no WebSocket) the status is polled instead. The socket's ping and the poll
// are the heartbeat that keeps a waiting entry in its queue. Every word comes from the
// server (the #qp-client JSON); this file holds none.

import { el } from "../dom.js";

const PING_MS = 5000; // a heartbeat well inside the server's QUICKPLAY_TTL (30 s)
const POLL_MS = 1500;

const root = document.getElementById("quickplay");
const client = JSON.parse(document.getElementById("qp-client").textContent);
const S = client.strings;
const $ = (id) => document.getElementById(id);
const state = { entry: client.entry, socket: null, live: false, timer: null, going: false, since: 0 };

function say(template, words) {
  return template.replace(/%\((\w+)\)s/g, (_m, key) => String(words[key]));
}

function queueLabel(q) {
  const ruleset = client.labels.rulesets[q.ruleset] || q.ruleset;
  const clock = client.labels.controls[q.time_control] || q.time_control;
  return `${ruleset}, ${clock}, ${q.rated ? S.rated : S.casual}`;
}

function csrf() {
  const input = root.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

function showError(text) {
  const box = $("qp-error");
  box.replaceChildren(text ? el("p", { text }) : "");
  box.hidden = !text;
}

function showCounts(counts) {
  const list = $("qp-counts");
  if (!counts.length) {
    list.replaceChildren(el("li", { class: "muted", text: S.nobody }));
    return;
  }
  list.replaceChildren(...counts.map((q) => el("li", { text: say(S.count, { queue: queueLabel(q), n: q.waiting }) })));
}

function goTo(matchId) {
  if (state.going) return;
  state.going = true;
  $("qp-queue").textContent = S.matched;
  window.location.assign(client.urls.game.replace(/\/0\/$/, `/${matchId}/`));
}

function showEntry(entry) {
  if (entry && (entry.status === "matched" || entry.status === "bot") && entry.match
      && state.entry && state.entry.id === entry.id) {
    goTo(entry.match);
    return;
  }
  const waiting = entry && entry.status === "waiting" ? entry : null;
  state.entry = waiting;
  $("qp-waiting").hidden = !waiting;
  $("qp-form").hidden = Boolean(waiting);
  if (!waiting) return;
  $("qp-queue").textContent = say(S.waiting_in, { queue: queueLabel(waiting) });
  $("qp-place").textContent = say(S.place, { place: waiting.place });
  state.since = performance.now() - waiting.waited * 1000; // the tick counts on from here
  showWaited();
  $("qp-bot-form").hidden = !waiting.bot_ready;
  let note = say(S.bot_soon, { seconds: client.wait_limit });
  if (waiting.bot_ready) note = S.bot_ready;
  else if (waiting.bot_after_wait) note = S.bot_chosen;
  $("qp-bot-note").textContent = note;
}

function showWaited() {
  const seconds = Math.max(0, Math.floor((performance.now() - state.since) / 1000));
  const rest = String(seconds % 60).padStart(2, "0");
  $("qp-waited").textContent = say(S.waited, { time: `${Math.floor(seconds / 60)}:${rest}` });
}

function showStatus(status) {
  if (status.counts) showCounts(status.counts);
  if ("entry" in status) showEntry(status.entry);
}

async function request(url, body) {
  const response = await fetch(url, {
    method: body ? "POST" : "GET",
    headers: { Accept: "application/json", "X-CSRFToken": csrf() },
    body,
    credentials: "same-origin",
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(data.detail || response.statusText);
  return data;
}

async function poll() {
  const entry = state.entry ? `?entry=${state.entry.id}` : "";
  try {
    showStatus(await request(client.urls.status + entry));
  } catch (error) {
    // the next poll tries again; a lost answer changes nothing on the server
  }
}

function schedule() {
  clearTimeout(state.timer);
  state.timer = setTimeout(async () => {
    if (state.live) state.socket.send(JSON.stringify({ type: "ping" }));
    else await poll();
    schedule();
  }, state.live ? PING_MS : POLL_MS);
}

function connect() {
  if (!("WebSocket" in window)) return;
  const scheme = window.location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${window.location.host}${client.urls.ws}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.live = true;
    socket.send(JSON.stringify({ type: "ping" })); // the status now (a reconnect may have missed news)
    if (state.entry) socket.send(JSON.stringify({ type: "watch" }));
    schedule();
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "matched") goTo(message.match);
    else if (message.type === "counts") showCounts(message.counts);
    else if (message.type === "status") showStatus(message);
  });
  socket.addEventListener("close", () => {
    const wasLive = state.live;
    state.live = false;
    schedule();
    if (wasLive) setTimeout(connect, 2000 + Math.random() * 2000);
  });
}

async function submit(event, url, after) {
  event.preventDefault();
  showError("");
  const button = event.submitter || event.target.querySelector("button");
  if (button) button.disabled = true;
  try {
    const status = await request(url, new FormData(event.target));
    after(status);
  } catch (error) {
    showError(error.message);
  } finally {
    if (button) button.disabled = false;
  }
}

$("qp-form").addEventListener("submit", (event) => submit(event, client.urls.join, (status) => {
  state.entry = status.entry; // the entry this page watches: matched at once, or waiting
  showStatus(status);
  if (state.live) state.socket.send(JSON.stringify({ type: "watch" }));
}));
$("qp-leave-form").addEventListener("submit", (event) => submit(event, client.urls.leave, showStatus));
$("qp-bot-form").addEventListener("submit", (event) => submit(event, client.urls.bot, (status) => {
  if (status.entry && status.entry.match) goTo(status.entry.match);
}));

if (state.entry) showEntry(state.entry);
setInterval(() => { if (state.entry) showWaited(); }, 1000);
connect();
schedule();
