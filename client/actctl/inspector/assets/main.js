// Picks the view from the path, after learning whether actions are allowed.
"use strict";
(async () => {
  const path = location.pathname;
  const view = path === "/" ? "overview" : path === "/log" ? "log" : path === "/work" ? "work" : path === "/verify" ? "verify"
    : path === "/partitions" ? "partitions" : path.startsWith("/streams/") ? "stream" : path.startsWith("/correlation/") ? "correlation" : null;
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
  // A router holds no events: its one view is its partitions; the others say where to look.
  for (const link of document.querySelectorAll("nav a")) {
    if (link.dataset.view === "partitions") link.hidden = !inspector.session.router;
    else if (inspector.session.router) link.classList.add("unavailable");
  }
  if (inspector.session.router && view !== "partitions") {
    show(target, el("div", { class: "confirm", id: "router" }, "This database is a pg_act router: it holds no events. ",
      "Its partitions, each with its figures: ", el("a", { href: "/partitions" }, "Partitions"), "."));
    return;
  }
  const note = sessionStorage.getItem("inspector-note");
  sessionStorage.removeItem("inspector-note");
  await inspector.views[view](target);
  if (note) target.prepend(el("div", { class: "confirm", id: "note" }, note));
})();
