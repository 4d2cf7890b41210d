/* The search help's examples are links: a click runs the example as a search. */
(function () {
  "use strict";
  const list = document.querySelector("[data-card-list-url]");
  if (!list) return;
  for (const code of document.querySelectorAll("code.query")) {
    const link = document.createElement("a");
    link.href = `${list.dataset.cardListUrl}?q=${encodeURIComponent(code.textContent)}`;
    link.className = "query-example";
    code.replaceWith(link);
    link.append(code);
  }
})();
