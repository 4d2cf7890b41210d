// Card list: on a phone the filters start closed, a drawer above the cards. Loaded right
// after the drawer (not deferred), so the page never shows it open first.
if (window.matchMedia("(max-width: 760px)").matches) {
  document.getElementById("filters-drawer").open = false;
}
