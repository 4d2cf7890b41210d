// The clocks (a bank and a decision's time left, counted down between updates) and the
// warning when your own bank runs low.

import * as B from "../board.js";
import { game, me, store } from "./state.js";

const S = B.S;

export function clock(seat) {
  const node = B.el("span", { class: "clock", "data-clock": seat });
  node.textContent = clockString(seat);
  return node;
}

function clockString(seat) {
  const c = game.state.clocks || {};
  let bank = c.bank ? c.bank[seat] : null;
  const deciding = c.deciding_seat === seat && game.state.status === "active";
  if (game.state.status !== "active" || c.timed === false) return ""; // untimed: no clock runs
  if (deciding && bank !== null) bank -= decisionSeconds(c);
  let text = `${S.ui.bank} ${B.clockText(bank)}`;
  if (deciding && c.decision_deadline) {
    const left = (new Date(c.decision_deadline).getTime() - Date.now()) / 1000;
    // the decision's time only when it is shorter than the bank (in a game over days the
    // two are one: the move's limit)
    if (bank === null || left < bank - 1) text += ` · ${S.ui.decision_left} ${B.clockText(left)}`;
  }
  return text;
}

// Seconds the current decision has run: since the server says it started (a page opened
// hours into a decision of a game over days counts from there), or since the state arrived
// when that is earlier (a client clock behind the server's never adds time).
function decisionSeconds(c) {
  const arrived = game.clockBase.at;
  const started = c.decision_started ? new Date(c.decision_started).getTime() : arrived;
  return (Date.now() - Math.min(arrived, started)) / 1000;
}

export function tickClocks() {
  document.querySelectorAll("[data-clock]").forEach((n) => { n.textContent = clockString(Number(n.dataset.clock)); });
  lowBank();
}

// Under a minute in your own bank: a warning band, your clock marked, and (when you
// turned it on; off by default, remembered in localStorage) a short sound once per fall.
const LOW_BANK = 60;
function myBankLeft() {
  const c = game.state.clocks || {};
  const seat = me();
  if (seat === null || game.state.status !== "active" || c.timed === false || !c.bank || c.bank[seat] === null) return null;
  let bank = c.bank[seat];
  if (c.deciding_seat === seat) bank -= decisionSeconds(c);
  return bank;
}
export function lowBank() {
  const band = document.getElementById("clock-warning");
  if (!band) return;
  const left = myBankLeft();
  const low = left !== null && left < LOW_BANK;
  band.hidden = !low;
  document.querySelectorAll(`[data-clock="${me()}"]`).forEach((n) => n.classList.toggle("low", low));
  if (low && !game.lowWarned && store.get("clockSound", false)) beep();
  game.lowWarned = low;
}
function beep() {
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    const ctx = new Ctx();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 880;
    gain.gain.value = 0.15;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.35);
  } catch (e) { /* no audio here */ }
}

export function bindClockSound() {
  const soundToggle = document.getElementById("clock-sound");
  if (soundToggle) {
    const showSound = () => {
      const on = store.get("clockSound", false);
      soundToggle.setAttribute("aria-pressed", on ? "true" : "false");
      soundToggle.textContent = on ? soundToggle.dataset.on : soundToggle.dataset.off;
    };
    soundToggle.addEventListener("click", () => { store.set("clockSound", !store.get("clockSound", false)); showSound(); });
    showSound();
  }
}
