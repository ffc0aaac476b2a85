/* Leaderboard filters: the form (hidden without JavaScript, when the page is the complete
   static table) hides the rows that do not match every chosen value, and the tables left
   empty. Rows carry their values as data-f-<field>; works from file://. */
(function () {
  "use strict";
  function start() {
    var form = document.querySelector("form[data-filter]");
    if (!form) return;
    var selects = form.querySelectorAll("select[data-filter-field]");
    var rows = document.querySelectorAll("tr[data-f-submitter]");
    var groups = Array.prototype.filter.call(document.querySelectorAll("main section"),
      function (section) { return section.querySelector("tr[data-f-submitter]"); });
    var count = form.querySelector("[data-filter-count]");
    var total = document.querySelectorAll("tr[data-f-submitter]:not([data-energy])").length;
    function apply() {
      var shown = 0, i, j;
      for (i = 0; i < rows.length; i++) {
        var ok = true;
        for (j = 0; j < selects.length; j++) {
          var want = selects[j].value;
          if (want && rows[i].getAttribute("data-f-" + selects[j].getAttribute("data-filter-field")) !== want) ok = false;
        }
        rows[i].hidden = !ok;
        if (ok && !rows[i].hasAttribute("data-energy")) shown++;   // energy rows repeat results
      }
      for (i = 0; i < groups.length; i++) {
        groups[i].hidden = !groups[i].querySelector("tr[data-f-submitter]:not([hidden])");
      }
      count.textContent = form.getAttribute("data-msg-count")
        .replace("{shown}", String(shown)).replace("{total}", String(total));
    }
    for (var k = 0; k < selects.length; k++) selects[k].addEventListener("change", apply);
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    form.hidden = false;
    apply();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
