// The lobby: "accept" sends the deck chosen in the new-game form (the one deck menu of the
// page). A static file, so the lobby needs no inline script (Content-Security-Policy).
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!form.matches || !form.matches("form.accept-form")) return;
  const chosen = document.getElementById("deck");
  form.elements.deck.value = chosen ? chosen.value : "";
});
