/* The compare page: results picked by id in the URL fragment (#id,id,...), shown side by
   side. Each round's data is a plain script, assets/record/<round>.js (file:// allows
   <script>), loaded only when a picked id needs it. The first pick is the baseline: a time
   ratio is given only for the same benchmark, round and division; otherwise the reason. A
   ratio between categories (available, preview, research) is given with a note that says so.
   The choice is remembered (localStorage where the browser allows it; else the URL alone), so
   that "Add to compare" on a result page (compare.html?add=<id>) adds to it. */
(function () {
  "use strict";

  var figure = window.siteFigure;                      /* figures.js: the site's number rule */

  var box = document.querySelector("[data-compare]");
  if (!box) return;
  var root = box.getAttribute("data-root");
  var rounds = box.getAttribute("data-rounds").split(/\s+/);
  var lang = box.getAttribute("data-lang");
  var labels = JSON.parse(box.getAttribute("data-labels"));
  var words = JSON.parse(box.getAttribute("data-words"));
  var companies = JSON.parse(box.getAttribute("data-companies") || "{}");   /* spelling -> name */
  var out = box.querySelector("[data-compare-out]");
  var status = box.querySelector("[data-compare-status]");
  var form = box.querySelector("[data-compare-form]");
  var input = form.querySelector("input");
  var datalist = box.querySelector("datalist");
  window.RECORD_DATA = window.RECORD_DATA || {};
  function msg(name) { return box.getAttribute("data-msg-" + name) || ""; }
  /* the ids in the address (anyone's to write: a malformed escape is taken as written) */
  function picked() {
    var hash = window.location.hash.slice(1);
    try { hash = decodeURIComponent(hash); } catch (e) { /* URIError: kept as it is */ }
    return hash.split(",").map(function (s) { return s.trim(); }).filter(Boolean);
  }
  function roundOf(id) { return window.siteRounds.roundOf(rounds, id); }
  function load(round, done) {
    if (window.RECORD_DATA[round]) done();
    else window.siteRounds.load(root + "assets/record/" + round + ".js", done);
  }
  function record(id) {
    var data = window.RECORD_DATA[roundOf(id)];
    var row = data && data.rows[id];
    if (!row) return null;
    var r = { id: id, round: roundOf(id) };
    data.fields.forEach(function (f, i) { r[f] = row[i]; });
    r.benchmarkName = (data.names[r.benchmark] || {})[lang] || r.benchmark;
    return r;
  }
  var htmlLang = document.documentElement.lang;
  function number(v, digits) {
    return v.toLocaleString(htmlLang, { maximumFractionDigits: digits });
  }
  function reason(base, r) {
    if (base.value === null || r.value === null) return msg("missing");
    if (base.benchmark !== r.benchmark) return msg("benchmark");
    if (base.round !== r.round) return msg("round");
    if (base.division !== r.division) return msg("division");
    return "";
  }
  function ratioCell(base, r) {
    var td = document.createElement("td");
    var why = reason(base, r);
    if (why) { td.textContent = why; return td; }
    var x = base.value / r.value;
    td.textContent = figure(r.value / base.value, htmlLang) + "× · " +
      (x >= 1 ? msg("faster").replace("{x}", figure(x, htmlLang)) : msg("slower").replace("{x}", figure(1 / x, htmlLang)));
    if (base.category !== r.category) {          /* shown, but said to compare unlike offerings */
      td.setAttribute("data-note", "category");
      var note = document.createElement("small");
      note.className = "compare-note";
      note.textContent = msg("category");
      td.appendChild(document.createElement("br"));
      td.appendChild(note);
    }
    return td;
  }
  function cell(tag, text, href) {
    var el = document.createElement(tag);
    if (href) { var a = document.createElement("a"); a.href = href; a.textContent = text; el.appendChild(a); }
    else el.textContent = text;
    return el;
  }
  function setIds(ids) {
    remember(ids);
    window.location.hash = ids.join(",");
  }
  /* The last choice is remembered (where the browser allows it), so that "Add to compare" on
     result pages adds to it: a result page links here with ?add=<id>. */
  function remember(ids) {
    try { window.localStorage.setItem("compare-ids", ids.join(",")); } catch (e) { /* private */ }
  }
  function remembered() {
    try { return (window.localStorage.getItem("compare-ids") || "").split(",").filter(Boolean); }
    catch (e) { return []; }
  }
  var added = new URLSearchParams(window.location.search).get("add");
  if (added) {
    var ids = picked().length ? picked() : remembered();
    if (ids.indexOf(added) < 0) ids.push(added);
    remember(ids);
    window.location.replace(window.location.href.split(/[?#]/)[0] + "#" + ids.join(","));
    return;
  }
  function draw() {
    var ids = picked();
    var needed = [];
    ids.forEach(function (id) { var r = roundOf(id); if (r && needed.indexOf(r) < 0) needed.push(r); });
    var left = needed.length;
    if (!ids.length) { out.textContent = ""; status.textContent = msg("empty"); return; }
    status.textContent = msg("loading");
    needed.forEach(function (r) { load(r, function () { if (--left === 0) render(ids); }); });
    if (!needed.length) render(ids);
  }
  function render(ids) {
    var results = [], unknown = [];
    ids.forEach(function (id) { var r = record(id); if (r) results.push(r); else unknown.push(id); });
    status.textContent = unknown.length ? msg("unknown") + " " + unknown.join(", ") : "";
    out.textContent = "";
    if (!results.length) return;
    var base = results[0];
    var table = document.createElement("table");
    table.className = "data compact compare-table";
    var head = document.createElement("tr");
    head.appendChild(cell("td", ""));
    results.forEach(function (r, i) {
      var th = cell("th", r.system_name, root + lang + "/results/" + r.id + ".html");
      th.scope = "col";
      var remove = document.createElement("button");
      remove.type = "button"; remove.textContent = msg("remove");
      remove.setAttribute("aria-label", msg("remove") + " " + r.system_name);
      remove.addEventListener("click", function () { setIds(ids.filter(function (x) { return x !== r.id; })); });
      th.appendChild(document.createTextNode(" ")); th.appendChild(remove);
      if (i === 0) th.appendChild(cell("small", " (" + msg("baseline") + ")"));
      head.appendChild(th);
    });
    var thead = document.createElement("thead"); thead.appendChild(head); table.appendChild(thead);
    var body = document.createElement("tbody");
    var shown = {
      benchmark: function (r) { return r.benchmarkName; }, round: function (r) { return r.round; },
      division: function (r) { return words[r.division] || r.division; },
      category: function (r) { return words[r.category] || r.category; },
      submitter: function (r) {
        return Object.prototype.hasOwnProperty.call(companies, r.submitter) ? companies[r.submitter] : r.submitter;
      },
      accelerator_model: function (r) { return r.accelerator_model || "—"; },
      accelerator_count: function (r) { return number(r.accelerator_count, 0); },
      value: function (r) { return r.value === null ? (words[r.status] || words.missing) : figure(r.value, htmlLang); },
      /* derived by this site (time to train in minutes × accelerators, at full precision in the
         round's data script), by the same rule as the pages' accelerator-minutes cells */
      accelerator_minutes: function (r) {
        return r.accelerator_minutes === null ? "—" : figure(r.accelerator_minutes, htmlLang);
      },
      energy: function (r) { return r.energy === null || r.energy === undefined ? "—" : figure(r.energy, htmlLang) + " J"; },
      /* carried over from an earlier round, or a copy within its round (carryover.py) */
      note: function (r) {
        if (r.carried_over_from) return words.carried.replace("{round}", roundOf(r.carried_over_from));
        return r.copy_of ? words.copy : "—";
      },
      ratio: function (r, i) { return i === 0 ? msg("baseline") : ratioCell(base, r); }
    };
    Object.keys(shown).forEach(function (key) {
      var tr = document.createElement("tr");
      tr.setAttribute("data-field", key);
      var th = cell("th", labels[key]); th.scope = "row"; tr.appendChild(th);
      results.forEach(function (r, i) {
        var shownValue = shown[key](r, i);
        tr.appendChild(typeof shownValue === "string" ? cell("td", shownValue) : shownValue);
      });
      body.appendChild(tr);
    });
    table.appendChild(body);
    out.appendChild(table);
    fillList(results);
  }
  function fillList(results) {
    /* suggestions: the other results of the picked benchmarks and rounds */
    datalist.textContent = "";
    var seen = {};
    results.forEach(function (r) {
      var data = window.RECORD_DATA[r.round];
      Object.keys(data.rows).forEach(function (id) {
        if (seen[id] || data.rows[id][0] !== r.benchmark) return;
        seen[id] = true;
        var option = document.createElement("option");
        option.value = id;
        datalist.appendChild(option);
      });
    });
  }
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var id = input.value.trim();
    if (!id) return;
    var ids = picked();
    if (ids.indexOf(id) < 0) ids.push(id);
    input.value = "";
    setIds(ids);
  });
  form.hidden = false;
  if (picked().length) remember(picked());     /* a linked choice is the one a later "Add" extends */
  else if (remembered().length) {      /* opened without a choice: the last one */
    window.location.replace(window.location.href.split(/[?#]/)[0] + "#" + remembered().join(","));
    return;
  }
  window.addEventListener("hashchange", function () { remember(picked()); draw(); });
  draw();
})();
