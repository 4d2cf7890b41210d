// Round clock (R 18.4: one hour a game): counts down to each <time class="timer" data-deadline>.
(function () {
  function tick() {
    document.querySelectorAll("time.timer[data-deadline]").forEach(function (el) {
      var left = Math.round((Date.parse(el.dataset.deadline) - Date.now()) / 1000);
      var sign = left < 0 ? "-" : "";
      left = Math.abs(left);
      var m = Math.floor(left / 60), s = left % 60;
      el.textContent = sign + m + ":" + (s < 10 ? "0" : "") + s;
      el.classList.toggle("overtime", sign === "-");
    });
  }
  tick();
  setInterval(tick, 1000);
})();
