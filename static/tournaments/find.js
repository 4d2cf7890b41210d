/* "Find my table": filters the rows of a table marked data-find-target by the text typed
   into input[data-find] (names, case and accents ignored). */
(function () {
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }
  document.querySelectorAll("input[data-find]").forEach(function (input) {
    var table = document.getElementById(input.dataset.find);
    if (!table) return;
    input.addEventListener("input", function () {
      var wanted = fold(input.value.trim());
      table.querySelectorAll("tbody tr").forEach(function (row) {
        var name = fold(row.cells[0].textContent);
        row.hidden = wanted !== "" && name.indexOf(wanted) === -1;
      });
    });
  });
})();
