// "Print" buttons (deck print sheet, round pairings): <button data-print> opens the print dialog.
document.addEventListener("click", function (event) {
  if (event.target.closest("[data-print]")) window.print();
});
