/* What the compare page and the explorer share in the browser: the site's number rule
   (sitegen/base/fmt.py), window.siteFigure(value, lang[, digits]), which gives the text of a
   measured time or a derived figure as the pages built in Python show it; and their per-round
   data scripts, window.siteRounds: roundOf(rounds, id) and load(src, done). */
(function () {
  "use strict";

  /* The site's one rule for measured times and derived figures (sitegen/base/fmt.py, significant):
     three significant digits, trailing zeros kept, never fewer than whole units, halves
     rounded up on the figure's shortest decimal form (7.40, 0.412, 123, 1,235; 9.996 -> 10.0).
     Rounded on the decimal digits, not in binary, as Python's Decimal does. */
  function significant(value, digits) {
    digits = digits || 3;
    if (value === 0) return { text: (0).toFixed(digits - 1), places: digits - 1 };
    var parts = Math.abs(value).toExponential().split("e");      /* shortest form: d.ddde±x */
    var mantissa = parts[0].replace(".", "");
    var exponent = parseInt(parts[1], 10);
    var places = Math.max(0, digits - 1 - exponent);
    var rounded = roundDecimal(mantissa, exponent, places);
    if (places && Math.abs(rounded) >= Math.pow(10, digits - places)) {
      places -= 1;
      rounded = roundDecimal(mantissa, exponent, places);
    }
    return { value: value < 0 ? -rounded : rounded, places: places };
  }
  /* the number 0.<mantissa> x 10^(exponent + 1), rounded half up to `places` decimals */
  function roundDecimal(mantissa, exponent, places) {
    var keep = exponent + 1 + places;                /* digits of the mantissa kept */
    if (keep < 0) return 0;
    var digits = mantissa.slice(0, keep);
    while (digits.length < keep) digits += "0";
    var whole = digits ? parseInt(digits, 10) : 0;  /* at most about 20 digits: exact enough */
    if ((mantissa.charAt(keep) || "0") >= "5") whole += 1;
    return whole / Math.pow(10, places);
  }
  function figure(value, lang, digits) {
    var s = significant(value, digits);
    if (s.text) return s.text;
    return s.value.toLocaleString(lang, { minimumFractionDigits: s.places, maximumFractionDigits: s.places });
  }
  window.siteFigure = figure;

  /* The round a result id belongs to: the longest round name it starts with ("v1.0-…"). */
  function roundOf(rounds, id) {
    var found = "";
    rounds.forEach(function (r) { if (id.indexOf(r + "-") === 0 && r.length > found.length) found = r; });
    return found;
  }
  /* A round's data script, a plain script (a <script> element works from file://, where
     fetch() of a local file is refused), added once however many ask for it; done() is called
     when it has run or failed (the caller looks for its data). */
  var loading = {};
  function load(src, done) {
    if (loading[src]) { loading[src].push(done); return; }
    loading[src] = [done];
    var script = document.createElement("script");
    script.src = src;
    script.onload = script.onerror = function () {
      var waiting = loading[src];
      loading[src] = null;
      waiting.forEach(function (f) { f(); });
    };
    document.head.appendChild(script);
  }
  window.siteRounds = { roundOf: roundOf, load: load };
})();
