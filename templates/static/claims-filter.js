/* Fact-check filters: the form (hidden without JavaScript, when the page is the complete
   list) hides the claims that do not match every chosen source, vendor and verdict. Claims
   carry their values as data-f-<field> (vendor: a space-separated list); works from file://. */
(function () {
  "use strict";
  function start() {
    var form = document.querySelector("form[data-claim-filter]");
    if (!form) return;
    var selects = form.querySelectorAll("select[data-filter-field]");
    var claims = document.querySelectorAll("article.claim[data-f-verdict]");
    var count = form.querySelector("[data-filter-count]");
    function matches(claim, field, want) {
      var have = claim.getAttribute("data-f-" + field) || "";
      return have.split(" ").indexOf(want) >= 0;
    }
    function apply() {
      var shown = 0, i, j;
      for (i = 0; i < claims.length; i++) {
        var ok = true;
        for (j = 0; j < selects.length; j++) {
          var want = selects[j].value;
          if (want && !matches(claims[i], selects[j].getAttribute("data-filter-field"), want)) ok = false;
        }
        claims[i].hidden = !ok;
        if (ok) shown++;
      }
      count.textContent = form.getAttribute("data-msg-count")
        .replace("{shown}", String(shown)).replace("{total}", String(claims.length));
    }
    for (var i = 0; i < selects.length; i++) selects[i].addEventListener("change", apply);
    form.hidden = false;
    apply();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
