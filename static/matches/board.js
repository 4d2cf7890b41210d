// The KGK table, drawn from one viewer's projection (engine.view): zones as on the table
// (R 3.10), public counts (R 3.13), cards as cards (cost, current and printed values, state,
// attachments, upgrades), the combat as it happens, and the log's sentences with hoverable
// card names. Every word comes from the server's phrase table (matches/presentation.py);
// nothing here prints an engine token or an internal id. Shared by game.js and replay.js.
//
// ES modules (static/matches/board/), lowest first: state.js (the page's phrase table and
// language, the board's one state object), words.js, faces.js, hyphen.js, zoom.js,
// cards.js, then table.js (the table) and log.js (the log's sentences); elements are made
// by static/js/dom.js (the builder's too). This module is the board's one face to the
// pages; window.KGKBoard is the same, for tests and the curious.

import { S, faces, known, lang } from "./board/state.js";
import { cardNode, cardRef } from "./board/cards.js";
import { el } from "../js/dom.js";
import { cardInfo, learn, nameOf } from "./board/faces.js";
import { describe, reasonText, redundant } from "./board/log.js";
import { render } from "./board/table.js";
import { botName, clockText, fmt, num, sentence } from "./board/words.js";
import { hideZoom } from "./board/zoom.js";

export { S, lang, num, clockText, render, describe, botName, redundant, reasonText, nameOf, cardRef, cardNode, cardInfo, learn, el, fmt, sentence, hideZoom, faces, known };

window.KGKBoard = { S, lang, num, clockText, render, describe, botName, redundant, reasonText, nameOf, cardRef, cardNode, cardInfo, learn, el, fmt, sentence, hideZoom, faces, known };
