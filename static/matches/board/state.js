// What the board reads once from the page (the server's phrase table, the language, where
// the catalogue's faces come from) and its one state object: the faces and names this
// viewer has seen, and the card zoom's pointer state. The other modules read and update it.

export const S = JSON.parse(document.getElementById("strings").textContent);
const root = document.querySelector("[data-lang]") || document.documentElement;
export const lang = root.dataset.lang || "hu";
export const facesUrl = root.dataset.facesUrl;

export const board = {
  known: {}, // card id -> {name, name_en, code}: every face this viewer has seen
  faces: {}, // code -> catalogue face {name, cost, printed, text, html}
  asked: new Set(), // codes whose faces were asked for
  faceTimer: null, // the next batch of faces to ask for
  onFaces: null, // called when new faces arrive (a re-render)
  unnamed: [], // [node, code]: names written before the face (in the page's language) came
  zoomNode: null, // the zoom box, made on first use
  pressTimer: null,
  pressed: false, // a long-press just showed the zoom: the click that follows is not an action
  // Hover intent: the zoom opens once the pointer rests on a card, and not over the card
  // that a click's re-render put under a pointer that has not moved since the click.
  hoverTimer: null,
  clickedAt: null,
};
// the two tables are filled in, never replaced: short names for them
export const { known, faces } = board;
