/* The interactive chart library (assets/vega-bundle.js, about 800 KB) is loaded only when a
   reader asks for it: each chart gets a button; pressing it loads the bundle, then charts.js,
   which turns every chart of the page into an interactive view (a chart-static figure, drawn
   at build time only, gets none). Until then, and without
   JavaScript, the static SVG drawn at build time is the chart. Works from file://. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me) return;
  var label = me.getAttribute("data-label");
  var sources = [me.getAttribute("data-bundle"), me.getAttribute("data-charts")];
  var buttons = [];

  function load(index) {
    if (index >= sources.length) {
      buttons.forEach(function (b) { b.parentNode.removeChild(b); });
      return;
    }
    var script = document.createElement("script");
    script.src = sources[index];
    script.onload = function () { load(index + 1); };
    script.onerror = function () { buttons.forEach(function (b) { b.disabled = true; }); };
    document.body.appendChild(script);
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("figure.chart:not(.chart-static)"), function (figure) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "chart-open";
      button.textContent = label;
      button.style.minHeight = "2rem";
      button.addEventListener("click", function () {
        buttons.forEach(function (b) { b.disabled = true; });
        load(0);
      }, { once: true });
      var caption = figure.querySelector("figcaption");
      figure.insertBefore(button, caption);
      buttons.push(button);
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
