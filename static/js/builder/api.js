// The builder's only way to the server: JSON over fetch, with the CSRF token and the
// page's language.

import { CODES_PER_LOOKUP, LANG, root, state, t } from "./state.js";

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (match) return decodeURIComponent(match[1]);
  const input = root.querySelector("input[name=csrfmiddlewaretoken]");
  return input ? input.value : "";
}

export async function api(url, { method = "GET", body } = {}) {
  const headers = { Accept: "application/json", "Accept-Language": LANG };
  const options = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (error) {
    return { ok: false, status: 0, data: { detail: t("network") } };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  return { ok: response.ok, status: response.status, data };
}

/** Card data for codes the builder has not seen yet (`code:A or code:B …`, in chunks). */
export async function fetchCards(codes) {
  const missing = codes.filter((code) => !state.cards.has(code));
  for (let i = 0; i < missing.length; i += CODES_PER_LOOKUP) {
    const chunk = missing.slice(i, i + CODES_PER_LOOKUP);
    const query = chunk.map((code) => `code:${code}`).join(" or ");
    let url = `/api/cards/?q=${encodeURIComponent(query)}`;
    while (url) {
      const { ok, data } = await api(url);
      if (!ok) return false;
      for (const card of data.results) state.cards.set(card.code, card);
      url = data.next;
    }
  }
  return true;
}
