// The day reports' page: closing the day under way, after a confirm. The page is drawn again
// with the new report, and says which report was stored.
"use strict";

const page = JSON.parse(document.getElementById("page-data").textContent);
const dialog = document.getElementById("close-dialog");
const closeButton = document.getElementById("close-day");
const result = document.getElementById("close-result");
const failure = document.getElementById("close-error");

const stored = sessionStorage.getItem("closed-report");
if (stored) {
  sessionStorage.removeItem("closed-report");
  // Written a moment after the page is up, so that screen readers announce it as news.
  setTimeout(() => { result.textContent = stored; }, 300);
}

closeButton.addEventListener("click", () => {
  document.getElementById("close-question").textContent = fill(page.words.closeQuestion, { day: page.today });
  dialog.showModal();
  document.getElementById("close-no").focus();
});
document.getElementById("close-no").addEventListener("click", () => dialog.close());
dialog.addEventListener("close", () => closeButton.focus());
document.getElementById("close-yes").addEventListener("click", async () => {
  dialog.close();
  failure.textContent = "";
  result.textContent = "";
  closeButton.disabled = true;
  const response = await fetch("/api/days/close", { method: "POST" }).catch(() => null);
  closeButton.disabled = false;
  const answer = response ? await response.json().catch(() => ({})) : {};
  if (!response || !response.ok) {
    failure.textContent = answer.message ?? page.common.failed;
    closeButton.focus(); // it lost the focus while disabled
    return;
  }
  sessionStorage.setItem("closed-report", fill(page.words.closed, { number: answer.number, day: answer.day }));
  location.reload();
});
