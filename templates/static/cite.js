/* Citation blocks (templates/_citation.html): the button copies the citation's text exactly,
   with the Clipboard API where the page may use it (https, localhost, file://), else by
   selecting the text and the browser's copy command; when neither copies, the text stays
   selected and the status line says to press Ctrl+C. Without JavaScript the button stays
   hidden and the text is there to select. */
(function () {
  "use strict";

  function select(node) {
    var range = document.createRange();
    range.selectNodeContents(node);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
  }

  function copyBySelection(text, button, status) {
    select(text);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) {
      copied = false;
    }
    status.textContent = button.getAttribute(copied ? "data-copied" : "data-selected");
  }

  function enhance(block) {
    var text = block.querySelector(".cite-text");
    var button = block.querySelector(".cite-copy");
    var status = block.querySelector(".cite-status");
    if (!text || !button || !status) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      var value = text.textContent;
      status.textContent = "";
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(value).then(
          function () { status.textContent = button.getAttribute("data-copied"); },
          function () { copyBySelection(text, button, status); }
        );
      } else {
        copyBySelection(text, button, status);
      }
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll(".citation"), enhance);
})();
