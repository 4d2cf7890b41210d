/* Card hover previews: pointing at a link to a card (in a deck list, an import, a
 * collection, a version diff) shows that card's face beside the pointer. The face is the
 * card page's own (templates/cards_data/_card_face.html), fetched once per card. */
(function () {
  "use strict";
  const CARD_LINK = /^\/(hu|en)\/cards\/[^/]+\/$/;
  const faces = new Map(); // url -> Promise<Element|null>
  let box = null;
  let current = null;

  function face(url) {
    if (!faces.has(url)) {
      faces.set(
        url,
        fetch(url, { credentials: "same-origin" })
          .then((r) => (r.ok ? r.text() : ""))
          .then((html) => new DOMParser().parseFromString(html, "text/html").querySelector(".card-face"))
          .catch(() => null)
      );
    }
    return faces.get(url);
  }

  function place(event) {
    const margin = 16;
    const { innerWidth: w, innerHeight: h } = window;
    const rect = box.getBoundingClientRect();
    let x = event.clientX + margin;
    let y = event.clientY + margin;
    if (x + rect.width > w) x = Math.max(0, event.clientX - rect.width - margin);
    if (y + rect.height > h) y = Math.max(0, h - rect.height - margin);
    box.style.left = `${x}px`;
    box.style.top = `${y}px`;
  }

  async function show(link, event) {
    current = link;
    const found = await face(link.pathname);
    if (current !== link || !found) return;
    if (!box) {
      box = document.createElement("div");
      box.className = "card-preview-pop";
      box.setAttribute("aria-hidden", "true");
      document.body.append(box);
    }
    box.replaceChildren(document.importNode(found, true));
    box.hidden = false;
    place(event);
  }

  function hide() {
    current = null;
    if (box) box.hidden = true;
  }

  const cardLink = (target) => {
    const link = target.closest && target.closest("a[href]");
    if (!link || link.closest(".card-face, .topbar, .card-preview-pop")) return null;
    return CARD_LINK.test(link.pathname) && link.origin === window.location.origin ? link : null;
  };

  if (!window.matchMedia("(hover: hover)").matches) return; // phones: the link opens the card
  document.addEventListener("mouseover", (event) => {
    const link = cardLink(event.target);
    if (link && link !== current) show(link, event);
    else if (!link && current) hide();
  });
  document.addEventListener("mousemove", (event) => {
    if (box && !box.hidden && current) place(event);
  });
})();
