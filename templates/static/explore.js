/* The explorer (explore.html, sitegen/render/record/explore.py): a selection of the record's
   results by round, benchmark, division, category, submitter, chip family and accelerator
   count, as a sortable table, a chart drawn once the table is shown, and a CSV download.
   It opens on one benchmark of the latest round; "all benchmarks" lists each benchmark as a
   group of its own, so that results of different benchmarks are never ranked together.

   The selection lives in the address's fragment (#round=v5.1&benchmark=...&sort=minutes), so
   a link or a reload shows the same rows. The fragment is anyone's to write: only the keys
   below are read, each value is kept only when it is one the page offers, and no value is
   looked up on a plain object (`sort=__proto__` or `valueOf` would find Object.prototype's). Each round's results are a plain script,
   assets/explore/<round>.js (a <script> element works from file://, where fetch() of a local
   file is refused), loaded only when the selection needs that round; the chart library
   (assets/vega-bundle.js, about 800 KB) after the table is shown, so a phone reads the table
   first; a round's CSV lines (assets/explore-csv/<round>.js) only for a download. */
(function () {
  "use strict";
  var box = document.querySelector("[data-explore]");
  if (!box || typeof window.siteFigure !== "function" || !window.siteRounds) return;
  var figure = window.siteFigure;
  var root = box.getAttribute("data-root");
  var lang = box.getAttribute("data-lang");
  var gap = box.getAttribute("data-gap");
  var htmlLang = document.documentElement.lang || "en";
  var rounds = box.getAttribute("data-rounds").split(/\s+/);      /* oldest first */
  var latest = rounds[rounds.length - 1];
  var names = JSON.parse(box.getAttribute("data-names"));
  var looks = JSON.parse(box.getAttribute("data-looks"));   /* family -> [colour or null, shape] */
  var form = box.querySelector("[data-explore-form]");
  var status = box.querySelector("[data-explore-status]");
  var body = box.querySelector("[data-explore-rows]");
  var more = box.querySelector("[data-explore-more]");
  var drawButton = box.querySelector("[data-explore-draw]");
  var csvButton = box.querySelector("[data-explore-csv]");
  var axis = box.querySelector("#x-axis");
  var chartFigure = box.querySelector("[data-explore-figure]");
  var chartView = box.querySelector("[data-explore-view]");
  var chartCaption = box.querySelector("[data-explore-caption]");
  var chartStatus = box.querySelector("[data-explore-chart-status]");
  var idealKey = box.querySelector("[data-explore-ideal]");
  var collator = window.Intl ? new Intl.Collator(htmlLang, { numeric: true }) : null;
  var FILTERS = ["round", "benchmark", "division", "category", "submitter", "chip", "min", "max"];
  var DEFAULT = { round: latest, benchmark: box.getAttribute("data-default-benchmark") || "all",
                  sort: "minutes", order: "asc", x: "count" };   /* fastest first */
  var LIMIT = 300;                       /* rows drawn before "Show all" (phones stay quick) */
  var shown = LIMIT, generation = 0, drawings = 0, bundle = "", chartView_ = null;   /* bundle: "", "loading", "ready", "failed" */
  var rowsCache = Object.create(null);
  window.EXPLORE_DATA = window.EXPLORE_DATA || {};

  /* whether `object` itself has `key` (never its prototype's: `constructor`, `__proto__`) */
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }

  /* a message; with a count of one, its singular form where the language has one */
  function msg(name, n) {
    return (n === 1 && box.getAttribute("data-msg-" + name + "-one")) || box.getAttribute("data-msg-" + name) || "";
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) { return own(values, key) ? values[key] : all; });
  }

  /* --- the selection, in the fragment ------------------------------------------------------- */
  function readState() {
    var params = new URLSearchParams(window.location.hash.replace(/^#/, ""));
    var state = {};
    FILTERS.concat(["sort", "order", "x"]).forEach(function (key) {
      state[key] = params.get(key) || DEFAULT[key] || "";
    });
    /* a value no filter offers (an old link) is dropped rather than matching nothing */
    ["benchmark", "division", "category", "submitter", "chip"].forEach(function (key) {
      var offered = Array.prototype.some.call(form.elements[key].options, function (o) { return o.value === state[key]; });
      if (!offered) state[key] = DEFAULT[key] || "";
    });
    if (state.round !== "all" && rounds.indexOf(state.round) < 0) state.round = latest;
    if (!own(SORTS, state.sort)) state.sort = DEFAULT.sort;
    if (state.order !== "desc") state.order = "asc";
    if (state.x !== "round") state.x = "count";
    ["min", "max"].forEach(function (key) { if (!/^\d+$/.test(state[key])) state[key] = ""; });
    return state;
  }
  function fragment(state) {
    var params = new URLSearchParams();
    FILTERS.forEach(function (key) { if (state[key]) params.set(key, state[key]); });
    if (state.sort !== DEFAULT.sort || state.order !== DEFAULT.order) {
      params.set("sort", state.sort);
      params.set("order", state.order);
    }
    if (state.x !== DEFAULT.x) params.set("x", state.x);
    return params.toString();
  }
  function writeState(state) {
    var hash = "#" + fragment(state);
    if (window.location.hash === hash) return;
    try { window.history.replaceState(null, "", hash); }
    catch (e) { window.location.replace(hash); }            /* then hashchange draws it again */
    keepInLanguageLinks(hash);
  }
  /* the language switch keeps the selection: the twin page reads the same fragment */
  function keepInLanguageLinks(hash) {
    Array.prototype.forEach.call(document.querySelectorAll(".lang-switch a"), function (a) {
      a.setAttribute("href", a.getAttribute("href").split("#")[0] + hash);
    });
  }
  function setControls(state) {
    FILTERS.forEach(function (key) { form.elements[key].value = state[key]; });
    axis.value = state.x;
  }
  function controlsState() {
    var state = readState();
    FILTERS.forEach(function (key) { state[key] = form.elements[key].value.trim(); });
    ["min", "max"].forEach(function (key) { if (!/^\d+$/.test(state[key])) state[key] = ""; });
    state.x = axis.value;
    return state;
  }

  /* --- the data: one script per round, loaded once ------------------------------------------ */
  function load(needed, done) {
    var left = needed.length;
    if (!left) { done(); return; }
    needed.forEach(function (round) {
      var finish = function () { if (--left === 0) done(); };
      if (own(window.EXPLORE_DATA, round)) finish();
      else window.siteRounds.load(root + "assets/explore/" + round + ".js", finish);   /* figures.js */
    });
  }
  function rowsOf(round) {
    if (rowsCache[round]) return rowsCache[round];
    var data = own(window.EXPLORE_DATA, round) ? window.EXPLORE_DATA[round] : null;
    if (!data) return null;
    rowsCache[round] = data.rows.map(function (values) {
      var r = { round: round };
      data.fields.forEach(function (field, i) { r[field] = values[i]; });
      return r;
    });
    return rowsCache[round];
  }
  function roundOf(id) { return window.siteRounds.roundOf(rounds, id); }

  /* --- selection and order --------------------------------------------------------------- */
  function matches(r, state) {
    var fields = ["benchmark", "division", "category", "submitter", "chip"];
    for (var i = 0; i < fields.length; i++) {
      var wanted = state[fields[i]];
      if (wanted && wanted !== "all" && r[fields[i]] !== wanted) return false;
    }
    if (state.min !== "" && r.accelerator_count < +state.min) return false;
    if (state.max !== "" && r.accelerator_count > +state.max) return false;
    return true;
  }
  function text(a, b) {
    return collator ? collator.compare(a, b) : (a < b ? -1 : a > b ? 1 : 0);
  }
  function name(kind, key) { return own(names, kind) && own(names[kind], key) ? names[kind][key] : key; }
  var SORTS = {
    system: function (r) { return r.system_name; },
    minutes: function (r) { return r.minutes; },
    count: function (r) { return r.accelerator_count; },
    work: function (r) { return r.accelerator_minutes; },
    chip: function (r) { return name("chip", r.chip); },
    submitter: function (r) { return name("submitter", r.submitter_name); },
    round: function (r) { return rounds.indexOf(r.round); },
    benchmark: function (r) { return name("benchmark", r.benchmark); },
    division: function (r) { return name("division", r.division); },
    category: function (r) { return name("category", r.category); }
  };
  /* the benchmarks in the filter's order (their names' order in the page's language) */
  var benchmarkAt = Object.create(null);
  Array.prototype.forEach.call(form.elements.benchmark.options, function (o, at) { benchmarkAt[o.value] = at; });
  /* the chosen column, either way; an empty value (no time) always last; ties by time, id.
     Several benchmarks: by benchmark first (the filter's order, reversed when that is the
     column chosen the other way), then within each as chosen: one ordering never spans two. */
  function order(rows, state) {
    var key = SORTS[state.sort], sign = state.order === "desc" ? -1 : 1;
    var grouped = state.benchmark === "all";
    var groupSign = state.sort === "benchmark" ? sign : 1;
    return rows.map(function (r) { return { r: r, k: key(r), g: grouped ? benchmarkAt[r.benchmark] || 0 : 0 }; }).sort(function (a, b) {
      if (a.g !== b.g) return groupSign * (a.g - b.g);
      var empty = (a.k === null || a.k === undefined) - (b.k === null || b.k === undefined);
      if (empty) return empty;
      var c = typeof a.k === "number" ? a.k - b.k : text(String(a.k), String(b.k));
      if (c) return sign * c;
      var t = (a.r.minutes === null) - (b.r.minutes === null) || (a.r.minutes || 0) - (b.r.minutes || 0);
      return t || (a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0);
    }).map(function (item) { return item.r; });
  }

  /* --- the table --------------------------------------------------------------------------- */
  function page(folder, key) { return root + lang + "/" + folder + "/" + key + ".html"; }
  function link(href, label, className) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    if (className) a.className = className;
    return a;
  }
  function cell(tag, content, className, value) {
    var el = document.createElement(tag);
    if (typeof content === "string") el.textContent = content;
    else if (content) el.appendChild(content);
    if (className) el.className = className;
    if (value !== undefined && value !== null) el.setAttribute("data-value", String(value));
    return el;
  }
  function mark(th, text, id) {
    if (gap) th.appendChild(document.createTextNode(gap));
    th.appendChild(link(page("results", id), text, "carry"));
  }
  function row(r) {
    var tr = document.createElement("tr");
    tr.setAttribute("data-id", r.id);
    var th = cell("th", link(page("results", r.id), r.system_name));
    th.scope = "row";
    if (r.carried_from) mark(th, fill(msg("carried"), { round: roundOf(r.carried_from) }), r.carried_from);
    if (r.copy_of) mark(th, msg("copy"), r.copy_of);
    tr.appendChild(th);
    tr.appendChild(cell("td", r.minutes === null ? name("status", r.status) : figure(r.minutes, htmlLang),
      "num answer", r.minutes));
    tr.appendChild(cell("td", r.accelerator_count.toLocaleString(htmlLang), "num", r.accelerator_count));
    tr.appendChild(cell("td", r.accelerator_minutes === null ? "—" : figure(r.accelerator_minutes, htmlLang),
      "num", r.accelerator_minutes));
    tr.appendChild(cell("td", link(page("accelerators", r.chip), name("chip", r.chip))));
    tr.appendChild(cell("td", link(page("submitters", r.submitter), name("submitter", r.submitter_name))));
    tr.appendChild(cell("td", link(root + lang + "/rounds/" + r.round + ".html", r.round)));
    tr.appendChild(cell("td", name("benchmark", r.benchmark)));
    tr.appendChild(cell("td", name("division", r.division)));
    tr.appendChild(cell("td", name("category", r.category)));
    return tr;
  }
  function headers(state) {
    Array.prototype.forEach.call(box.querySelectorAll("[data-sort]"), function (button) {
      var th = button.parentNode;
      var on = button.getAttribute("data-sort") === state.sort;
      th.setAttribute("aria-sort", on ? (state.order === "desc" ? "descending" : "ascending") : "none");
    });
  }

  /* --- drawing --------------------------------------------------------------------------- */
  var selection = [];
  function update(resetRows) {
    var state = readState();
    var needed = state.round === "all" ? rounds : [state.round];
    var mine = ++generation;
    if (resetRows) shown = LIMIT;
    headers(state);
    if (needed.some(function (r) { return !own(window.EXPLORE_DATA, r); })) status.textContent = msg("loading");
    load(needed, function () {
      if (mine !== generation) return;               /* a newer selection is on its way */
      var missing = needed.filter(function (r) { return !rowsOf(r); });
      var rows = [];
      needed.forEach(function (r) { (rowsOf(r) || []).forEach(function (x) { if (matches(x, state)) rows.push(x); }); });
      selection = order(rows, state);
      drawRows();
      csvButton.disabled = !selection.length;
      status.textContent = missing.length ? msg("failed") + " " + missing.join(", ")
        : selection.length ? fill(msg("count"), { n: selection.length.toLocaleString(htmlLang) }) : msg("none");
      box.setAttribute("data-ready", String(mine));
      chart(state);                  /* the chart library, if not yet here, after the table */
    });
  }
  /* a benchmark's heading row above its results, when the selection holds several */
  function groupRow(benchmark) {
    var tr = document.createElement("tr");
    tr.className = "explore-group";
    var th = cell("th", name("benchmark", benchmark));
    th.scope = "colgroup";
    th.colSpan = 10;
    tr.appendChild(th);
    return tr;
  }
  function drawRows() {
    var part = document.createDocumentFragment();
    var grouped = readState().benchmark === "all", current = null;
    selection.slice(0, shown).forEach(function (r) {
      if (grouped && r.benchmark !== current) part.appendChild(groupRow(current = r.benchmark));
      part.appendChild(row(r));
    });
    body.textContent = "";
    body.appendChild(part);
    more.hidden = selection.length <= shown;
    more.textContent = fill(msg("more"), { n: selection.length.toLocaleString(htmlLang) });
  }

  /* --- the chart (vega-embed, loaded after the first table) ---------------------------------- */
  function chart(state) {
    if (bundle === "ready") { drawChart(state); return; }
    if (bundle === "loading" || bundle === "failed") return;   /* drawn when it comes; retried by the button */
    bundle = "loading";
    drawButton.hidden = true;
    chartStatus.textContent = msg("chart-loading");
    /* after the table's first paint: the table never waits for the library */
    window.requestAnimationFrame(function () { window.setTimeout(loadBundle, 0); });
  }
  function loadBundle() {
    var script = document.createElement("script");
    script.src = root + "assets/vega-bundle.js";
    script.onload = script.onerror = function () {
      bundle = typeof window.vegaEmbed === "function" ? "ready" : "failed";
      if (bundle === "ready") { drawChart(readState()); return; }
      chartStatus.textContent = msg("failed");
      drawButton.hidden = false;                       /* try again */
    };
    document.body.appendChild(script);
  }
  function drawChart(state) {
    var byCount = state.x === "count";
    var drawn = selection.filter(function (r) {
      return r.minutes !== null && !r.copy_of && (!byCount || r.accelerator_count > 0);
    });
    var points = drawn.map(function (r) {
      return {
        minutes: r.minutes, count: r.accelerator_count, round: r.round,
        family: r.chip, chip: name("chip", r.chip), system: r.system_name, submitter: name("submitter", r.submitter_name),
        benchmark: name("benchmark", r.benchmark), time: figure(r.minutes, htmlLang),
        href: page("results", r.id)
      };
    });
    var benchmarks = Object.create(null);
    points.forEach(function (p) { benchmarks[p.benchmark] = true; });
    var oneBenchmark = Object.keys(benchmarks).length === 1;
    /* times of different benchmarks are never drawn on one axis */
    chartStatus.textContent = !points.length ? msg("chart-empty") : oneBenchmark ? "" : msg("chart-benchmarks");
    chartFigure.hidden = !points.length || !oneBenchmark;
    chartFigure.removeAttribute("data-drawn");
    if (chartView_) { chartView_.finalize(); chartView_ = null; }
    if (chartFigure.hidden) { drawings += 1; return; }      /* a drawing on its way is stale */
    /* time against accelerators, one benchmark: the scale chart's line of ideal scaling */
    var ideal = byCount && oneBenchmark ? idealLine(drawn) : null;
    idealKey.hidden = !ideal;             /* its key under the chart, as on the scale chart */
    chartCaption.textContent = fill(msg("chart-caption", points.length), { n: points.length.toLocaleString(htmlLang) }) +
      (ideal ? fill(msg("ideal", ideal.anchor.accelerator_count), {
        submitter: name("submitter", ideal.anchor.submitter_name), system: ideal.anchor.system_name,
        count: ideal.anchor.accelerator_count.toLocaleString(htmlLang), round: ideal.anchor.round,
        work: figure(ideal.anchor.accelerator_minutes, htmlLang)
      }) : "");
    var ink = window.getComputedStyle(box).color;
    var legend = familyScales(points, ink);
    var narrow = box.clientWidth < 560;
    /* log scales fitted to the points (a nice domain of 1 to 1,000 left 8 to 128 in a corner) */
    var fitted = { type: "log", nice: false, padding: 16 };
    var x = byCount
      ? { field: "count", type: "quantitative", scale: fitted, title: msg("axis-accelerators"),
          axis: { labelOverlap: "greedy" } }
      : { field: "round", type: "ordinal", sort: rounds, title: msg("axis-round"),
          axis: { labelAngle: 0, labelOverlap: "greedy" } };
    var y = { field: "minutes", type: "quantitative", scale: fitted, title: msg("axis-time"),
              axis: { labelOverlap: "greedy" } };
    var spec = {                    /* Vega-Lite, of the bundle's own version (mode below) */
      description: chartCaption.textContent,
      width: "container", height: narrow ? 280 : 360, background: null,
      layer: [{
        data: { values: points },
        mark: { type: "point", filled: true, size: 70, opacity: 0.85 },
        encoding: {
          x: x, y: y,
          color: { field: "chip", type: "nominal", title: msg("chip"), scale: legend.colour },
          shape: { field: "chip", type: "nominal", title: msg("chip"), scale: legend.shape },
          tooltip: [
            { field: "system", title: msg("system") }, { field: "time", title: msg("time") },
            { field: "count", title: msg("count-col") }, { field: "chip", title: msg("chip") },
            { field: "submitter", title: msg("submitter") }, { field: "benchmark", title: msg("benchmark") },
            { field: "round", title: msg("round") }
          ]
        }
      }].concat(ideal ? [{
        data: { values: ideal.ends },
        mark: { type: "line", strokeWidth: 1.5, strokeDash: [6, 4], color: ink },
        encoding: { x: x, y: y }
      }] : []),
      config: {
        font: window.getComputedStyle(document.body).fontFamily,
        axis: { labelColor: ink, titleColor: ink, gridOpacity: 0.4, labelFontSize: 12, titleFontSize: 13 },
        legend: { labelColor: ink, titleColor: ink, orient: narrow ? "bottom" : "right", labelFontSize: 12,
                  titleFontSize: 13, columns: narrow ? 2 : 1, labelLimit: narrow ? 140 : 220 },
        view: { stroke: null }
      }
    };
    var mine = ++drawings, into = document.createElement("div");   /* a stale drawing's own */
    into.style.width = "100%";                     /* the "container" width the chart takes */
    chartView.textContent = "";
    chartView.appendChild(into);
    window.vegaEmbed(into, spec, { actions: false, renderer: "svg", mode: "vega-lite" }).then(function (result) {
      if (mine !== drawings) { result.view.finalize(); return; }   /* a newer selection's chart */
      chartView_ = result.view;
      /* the table above holds the same results, with their links: the drawing is not read out */
      Array.prototype.forEach.call(chartView.querySelectorAll("svg"), function (svg) {
        svg.setAttribute("aria-hidden", "true");
        svg.setAttribute("focusable", "false");
      });
      result.view.addEventListener("click", function (event, item) {
        if (item && item.datum && item.datum.href) window.location.href = item.datum.href;
      });
      chartFigure.setAttribute("data-drawn", "true");
    }).catch(function () { chartStatus.textContent = msg("failed"); });
  }

  /* Each family drawn in its look on every chart of the site (the page's data-looks, from
     data/chip_looks.yaml): its name in the legend, by name; one without a colour in the ink. */
  function familyScales(points, ink) {
    var seen = Object.create(null), shown = [];
    points.forEach(function (p) { if (!seen[p.family]) { seen[p.family] = true; shown.push(p.family); } });
    shown.sort(function (a, b) { return text(name("chip", a), name("chip", b)); });
    var look = function (key) { return own(looks, key) ? looks[key] : [null, "circle"]; };
    var domain = shown.map(function (key) { return name("chip", key); });
    return {
      colour: { domain: domain, range: shown.map(function (key) { return look(key)[0] || ink; }) },
      shape: { domain: domain, range: shown.map(function (key) { return look(key)[1]; }) }
    };
  }

  /* The scale chart's line of ideal scaling (sitegen/render/charts/scale.py): time = work /
     accelerators through the drawn result with the fewest accelerator-minutes (ties by id, as
     derived.least_work) of the closed division, which alone the scale chart plots, drawn within
     the points' extent of both axes (scale_svg.ideal_segment); null when no closed result is
     drawn or every point has one accelerator count. */
  function idealLine(drawn) {
    var anchor = null;
    drawn.forEach(function (r) {
      if (r.division !== "closed") return;
      if (!anchor || r.accelerator_minutes < anchor.accelerator_minutes ||
          (r.accelerator_minutes === anchor.accelerator_minutes && r.id < anchor.id)) anchor = r;
    });
    if (!anchor) return null;
    var counts = drawn.map(function (r) { return r.accelerator_count; });
    var times = drawn.map(function (r) { return r.minutes; });
    var work = anchor.accelerator_minutes;
    var start = Math.max(Math.min.apply(null, counts), work / Math.max.apply(null, times));
    var end = Math.min(Math.max.apply(null, counts), work / Math.min.apply(null, times));
    if (!(start < end)) return null;
    return { anchor: anchor, ends: [start, end].map(function (n) { return { count: n, minutes: work / n }; }) };
  }

  /* --- the selection as CSV: the round files' columns and lines (downloads.py), in the
     table's order, as a file built in the page (a Blob: works from file:// too) ------------- */
  function download() {
    var rows = selection.slice(), needed = [], state = readState();
    rows.forEach(function (r) { if (needed.indexOf(r.round) < 0) needed.push(r.round); });
    if (!needed.length) return;
    csvButton.disabled = true;
    window.EXPLORE_CSV = window.EXPLORE_CSV || {};
    var left = needed.length;
    needed.forEach(function (round) {
      var finish = function () { if (--left === 0) save(rows, needed, state); };
      if (own(window.EXPLORE_CSV, round)) finish();
      else window.siteRounds.load(root + "assets/explore-csv/" + round + ".js", finish);
    });
  }
  function save(rows, needed, state) {
    csvButton.disabled = false;
    var data = window.EXPLORE_CSV;
    var missing = needed.filter(function (round) { return !own(data, round); });
    if (missing.length) { status.textContent = msg("failed") + " " + missing.join(", "); return; }
    var lines = [data[needed[0]].header].concat(rows.map(function (r) {
      return own(data[r.round].rows, r.id) ? data[r.round].rows[r.id] : "";
    }));
    var a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "text/csv;charset=utf-8" }));
    a.download = "mlperf-training-selection-" + state.round +
      (state.benchmark !== "all" ? "-" + state.benchmark : "") + ".csv";
    a.hidden = true;
    box.appendChild(a);
    a.click();
    box.removeChild(a);
    window.setTimeout(function () { URL.revokeObjectURL(a.href); }, 60000);
  }

  /* --- events ------------------------------------------------------------------------------ */
  function changed() {
    writeState(controlsState());
    update(true);
  }
  form.addEventListener("change", changed);
  form.addEventListener("input", function (event) {
    if (event.target.tagName === "INPUT") changed();
  });
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  box.querySelector("[data-explore-clear]").addEventListener("click", function () {
    var state = readState();
    FILTERS.forEach(function (key) { state[key] = DEFAULT[key] || ""; });
    setControls(state);
    writeState(state);
    update(true);
  });
  Array.prototype.forEach.call(box.querySelectorAll("[data-sort]"), function (button) {
    button.addEventListener("click", function () {
      var state = readState(), key = button.getAttribute("data-sort");
      state.order = state.sort === key && state.order === "asc" ? "desc" : "asc";
      state.sort = key;
      writeState(state);
      update(false);
    });
  });
  more.addEventListener("click", function () {
    shown = selection.length;
    drawRows();
  });
  axis.addEventListener("change", function () {
    writeState(controlsState());
    if (bundle === "ready") drawChart(readState());
  });
  drawButton.addEventListener("click", function () {
    bundle = "";
    chart(readState());
  });
  csvButton.addEventListener("click", download);
  window.addEventListener("hashchange", function () {
    setControls(readState());
    keepInLanguageLinks(window.location.hash);
    update(true);
  });

  var first = readState();
  setControls(first);
  if (window.location.hash) keepInLanguageLinks(window.location.hash);
  box.hidden = false;
  update(true);
})();
