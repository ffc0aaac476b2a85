/* Charts: when vega-embed is loaded (assets/vega-bundle.js), each figure.chart's static SVG is
   replaced by an interactive view of the same Vega-Lite spec, with tooltips. Without
   JavaScript, or if anything fails, the SVG rendered at build time stays. */
(function () {
  "use strict";
  var INK = "#767676";   /* the spec's axis and label colour: replaced by the page's text colour */
  var dark = window.matchMedia ? window.matchMedia("(prefers-color-scheme: dark)") : null;
  /* the phone layout of each chart (class chart-spec-narrow), as in style.css */
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 40rem)") : null;
  var views = [];

  /* The spec with the page's text colour in place of the spec's grey. */
  function themedSpec(text, view) {
    return JSON.parse(text.split(INK).join(window.getComputedStyle(view).color));
  }

  function embed(figure) {
    var view = figure.querySelector(".chart-view");
    var data = (narrow && narrow.matches && figure.querySelector("script.chart-spec-narrow"))
      || figure.querySelector("script.chart-spec");
    if (!view || !data) return;
    if (!figure.chartFallback) figure.chartFallback = view.innerHTML;
    var options = {
      actions: false, renderer: "svg",
      tooltip: { theme: dark && dark.matches ? "dark" : "light" }
    };
    window.vegaEmbed(view, themedSpec(data.textContent, view), options).then(function (result) {
      views.push(result);
      /* vega's SVG is drawn inside the figure's role="img": hide its own roles from readers */
      Array.prototype.forEach.call(view.querySelectorAll("svg"), function (svg) {
        svg.setAttribute("aria-hidden", "true");
        svg.setAttribute("focusable", "false");
      });
      figure.classList.add("is-interactive");
      figure.setAttribute("data-drawn", "true");
    }).catch(function () {
      view.innerHTML = figure.chartFallback;
      figure.classList.remove("is-interactive");
      figure.setAttribute("data-drawn", "static");
    });
  }

  function embedAll() {
    while (views.length) views.pop().finalize();
    Array.prototype.forEach.call(document.querySelectorAll("figure.chart"), embed);
  }

  if (typeof window.vegaEmbed !== "function") return;
  embedAll();
  if (dark) {
    var rerender = function () { embedAll(); };
    [dark, narrow].forEach(function (query) {
      if (!query) return;
      if (query.addEventListener) query.addEventListener("change", rerender);
      else if (query.addListener) query.addListener(rerender);
    });
  }
})();
