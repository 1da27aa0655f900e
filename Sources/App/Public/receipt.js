// A receipt's 인쇄 button, and its paper: an 80 mm roll cut as long as the receipt. CSS cannot
// say that (app.css's `@page receipt` holds a fixed length), so before each printing the page's
// length is set to the receipt's, which is laid out on screen at the paper's width. A stylesheet
// of its own, made here: the pages allow no inline script or style.
"use strict";

const receipt = document.getElementById("receipt");
const paper = new CSSStyleSheet();
document.adoptedStyleSheets = [...document.adoptedStyleSheets, paper];

window.addEventListener("beforeprint", () => {
  if (!receipt) return;
  // CSS pixels are 1/96 inch; a millimetre more so rounding never spills onto a second page.
  const length = Math.ceil((receipt.getBoundingClientRect().height * 25.4) / 96) + 1;
  paper.replaceSync(`@page receipt { size: 80mm ${length}mm; }`);
});

document.getElementById("print-receipt")?.addEventListener("click", () => window.print());
