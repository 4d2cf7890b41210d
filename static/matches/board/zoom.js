// The card zoom: the catalogue's face of a card, on hover (with intent) or on a long press.

import { S, board, faces } from "./state.js";
import { el } from "../../js/dom.js";
import { wantFace } from "./faces.js";

function zoomBox() {
  if (!board.zoomNode) {
    board.zoomNode = el("div", { class: "zoom", id: "card-zoom", role: "dialog", "aria-label": S.ui.card_zoom || "", hidden: true });
    document.body.append(board.zoomNode);
    // the zoom only shows (no pointer events): any other touch or a scroll closes it
    document.addEventListener("touchstart", hideZoom, { passive: true });
    window.addEventListener("scroll", hideZoom, { passive: true });
  }
  return board.zoomNode;
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

export function hideZoom() { if (board.zoomNode) board.zoomNode.hidden = true; }

document.addEventListener("click", (e) => {
  if (board.pressed) return; // the click that ends a long press keeps its zoom open
  board.clickedAt = [e.clientX, e.clientY];
  hideZoom();
}, true);
document.addEventListener("mousemove", (e) => {
  if (board.clickedAt && Math.hypot(e.clientX - board.clickedAt[0], e.clientY - board.clickedAt[1]) > 4) board.clickedAt = null;
}, { passive: true });

export function zoomable(node, code) {
  if (!code) return node;
  node.addEventListener("mouseenter", () => {
    clearTimeout(board.hoverTimer);
    board.hoverTimer = setTimeout(() => { if (!board.clickedAt && node.isConnected) showZoom(code, node); }, 250);
  });
  node.addEventListener("mouseleave", () => { clearTimeout(board.hoverTimer); hideZoom(); });
  node.addEventListener("touchstart", () => {
    board.pressed = false;
    board.pressTimer = setTimeout(() => { board.pressed = true; showZoom(code, node); }, 450);
  }, { passive: true });
  const cancel = () => clearTimeout(board.pressTimer);
  node.addEventListener("touchend", cancel);
  node.addEventListener("touchmove", cancel, { passive: true });
  node.addEventListener("contextmenu", (e) => { if (board.pressed) e.preventDefault(); });
  node.addEventListener("click", (e) => {
    if (board.pressed) { board.pressed = false; e.stopImmediatePropagation(); e.preventDefault(); }
  }, true);
  return node;
}
