// Picks the view from the path, after learning whether actions are allowed.
"use strict";
(async () => {
  const path = location.pathname;
  const view = path === "/" ? "overview" : path === "/log" ? "log" : path === "/work" ? "work" : path === "/verify" ? "verify"
    : path.startsWith("/streams/") ? "stream" : path.startsWith("/correlation/") ? "correlation" : null;
  for (const link of document.querySelectorAll("nav a"))
    if (link.dataset.view === view) link.classList.add("active");
  const target = document.getElementById("view");
  try {
    inspector.session = await api("/api/session");
  } catch (error) {
    showError(target, error);
    return;
  }
  const access = document.getElementById("access");
  access.textContent = inspector.session.write ? "actions enabled (--write)" : "read-only";
  if (inspector.session.write) access.classList.add("write");
  const note = sessionStorage.getItem("inspector-note");
  sessionStorage.removeItem("inspector-note");
  await inspector.views[view](target);
  if (note) target.prepend(el("div", { class: "confirm", id: "note" }, note));
})();
