/* The site's number rule in the browser (sitegen/base/fmt.py), shared by the compare page and
   the explorer: window.siteFigure(value, lang[, digits]) gives the text of a measured time or a
   derived figure as the pages built in Python show it. */
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
})();
