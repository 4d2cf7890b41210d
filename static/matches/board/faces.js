// The catalogue's faces of the cards this viewer has seen (fetched in batches), and a card's
// name in the page's language.

import { S, board, faces, facesUrl, known, lang } from "./state.js";

export function learn(node) {
  if (Array.isArray(node)) { node.forEach(learn); return; }
  if (!node || typeof node !== "object") return;
  if (typeof node.id === "number" && node.name) {
    known[node.id] = { name: node.name, name_en: node.name_en, code: node.code };
    if (node.code) wantFace(node.code);
  }
  Object.values(node).forEach(learn);
}

// ------------------------------------------------------------------ catalogue faces

export function wantFace(code) {
  if (!code || faces[code] || board.asked.has(code) || !facesUrl) return;
  board.asked.add(code);
  if (!board.faceTimer) board.faceTimer = setTimeout(fetchFaces, 30);
}

async function fetchFaces() {
  board.faceTimer = null;
  const codes = [...board.asked].filter((c) => !faces[c]);
  for (let i = 0; i < codes.length; i += 50) {
    try {
      const r = await fetch(`${facesUrl}?codes=${encodeURIComponent(codes.slice(i, i + 50).join(","))}`, { credentials: "same-origin" });
      const data = await r.json();
      Object.assign(faces, data.faces || {});
    } catch (e) { codes.slice(i, i + 50).forEach((c) => board.asked.delete(c)); }
  }
  board.unnamed = board.unnamed.filter(([node, code]) => {
    if (!faces[code]) return true;
    node.textContent = faces[code].name;
    return false;
  });
  if (board.onFaces) board.onFaces();
}

export function cardInfo(card) {
  if (typeof card === "number") card = { id: card, ...(known[card] || {}) };
  if (card && typeof card.id === "number" && !card.name && known[card.id]) card = { ...card, ...known[card.id] };
  return card || {};
}

export function nameOf(card) {
  card = cardInfo(card);
  if (!card.name) return S.ui.face_down;
  if (card.code && faces[card.code]) return faces[card.code].name; // the page's language
  return lang === "en" && card.name_en ? card.name_en : card.name;
}
