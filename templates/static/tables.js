/* Sortable tables: each header of a table.sortable becomes a button; a click sorts the rows by
   that column (numbers by their data-value, text in the page's language), ascending first,
   and the header says so with aria-sort. Without JavaScript the table is complete as it is. */
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";
  var collator = window.Intl ? new Intl.Collator(lang, { numeric: true }) : null;

  function key(row, index) {
    var cell = row.cells[index];
    if (!cell) return { number: NaN, text: "" };
    var value = cell.getAttribute("data-value");
    return { number: value === null ? NaN : parseFloat(value), text: cell.textContent.trim() };
  }

  function compare(a, b) {
    if (!isNaN(a.number) && !isNaN(b.number)) return a.number - b.number;
    if (!isNaN(a.number)) return -1;
    if (!isNaN(b.number)) return 1;
    return collator ? collator.compare(a.text, b.text) : (a.text < b.text ? -1 : a.text > b.text ? 1 : 0);
  }

  function sortBy(table, header, index) {
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (cell) {
      if (cell.hasAttribute("aria-sort")) cell.setAttribute("aria-sort", "none");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.map.call(body.rows, function (row, position) {
      return { row: row, key: key(row, index), position: position };
    });
    rows.sort(function (a, b) {
      var order = compare(a.key, b.key);
      return (ascending ? order : -order) || a.position - b.position;
    });
    rows.forEach(function (item) { body.appendChild(item.row); });
  }

  function enhance(table) {
    if (!table.tHead || !table.tBodies[0] || table.tBodies[0].rows.length < 2) return;
    if (table.getAttribute("data-sortable-ready")) return;
    table.setAttribute("data-sortable-ready", "1");
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, index) {
      var button = document.createElement("button");
      button.type = "button";
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      header.setAttribute("aria-sort", "none");
      button.addEventListener("click", function () { sortBy(table, header, index); });
    });
  }

  /* A results table (and a chip's specifications) is a list of cards on a phone (style.css):
     each cell is labelled with its column's name (data-label), taken from the header row, so
     that the page carries it once. */
  function label(table) {
    if (!table.tHead) return;
    var names = [];
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (head) {
      for (var i = 0; i < (head.colSpan || 1); i++) names.push(head.textContent.trim());
    });
    Array.prototype.forEach.call(table.tBodies, function (body) {
      Array.prototype.forEach.call(body.rows, function (row) {
        var column = 0;
        Array.prototype.forEach.call(row.cells, function (cell) {
          if (cell.tagName === "TD" && names[column]) cell.setAttribute("data-label", names[column]);
          column += cell.colSpan || 1;
        });
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.results, table.phone-cards"), label);
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), enhance);
})();
