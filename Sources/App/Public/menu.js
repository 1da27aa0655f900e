// 메뉴 관리: retiring a juice is for good, so its form asks first (the question is the form's
// data-question). Without this script the form posts at once; every other form always does.
"use strict";

const dialog = document.getElementById("retire-dialog");
let asking = null;

for (const form of document.querySelectorAll("form[data-question]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    asking = form;
    document.getElementById("retire-question").textContent = form.dataset.question;
    dialog.showModal();
    document.getElementById("retire-no").focus();
  });
}

document.getElementById("retire-yes").addEventListener("click", () => {
  const form = asking;
  asking = null;
  dialog.close();
  form.submit(); // submit() fires no submit event, so this form is not asked about again
});
document.getElementById("retire-no").addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => {
  // Answered 아니오 (or Escape): back to the button that asked.
  if (asking) asking.querySelector("button").focus();
  asking = null;
});
