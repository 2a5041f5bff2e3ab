// Partitions (/partitions): on a router (docs/scale-out.md), each
// partition's act.status() read every two seconds, a partition the router
// cannot reach shown down with its error. Elsewhere, it says so.
"use strict";
inspector.views.partitions = (target) => {
  const kPollMs = 2000;
  if (!inspector.session.router) {
    show(target, el("h1", {}, "Partitions"),
      el("p", { id: "not-router" }, "This database is not a pg_act router: it has no partitions to show."));
    return;
  }
  const headers = ["partition", "state", "error", "mode", "horizon", "newest event id", "sealed tree size",
    "subscriptions", "with work", "blocked", "leased", "expired leases", "oldest waiting work", "horizon held for"];
  const figure = (p, name) => (p.reachable ? p[name] ?? "–" : "");

  function render(body) {
    const rows = body.partitions.map((p) => [
      String(p.partition),
      p.reachable ? el("span", { class: "ok" }, "up") : el("span", { class: "bad" }, "down"),
      p.error ?? "",
      ...["mode", "horizon", "max_event_id", "sealed_size", "subscriptions", "with_work", "blocked", "leased",
        "expired_leases", "oldest_work_age", "horizon_held_for"].map((name) => String(figure(p, name))),
    ]);
    const grid = table(headers, rows, [0, 4, 5, 6, 7, 8, 9, 10, 11]);
    grid.id = "partitions";
    const down = body.partitions.filter((p) => !p.reachable).length;
    show(target, el("h1", {}, "Partitions"),
      el("p", { id: "summary", class: down ? "bad" : "ok" },
        `${body.partitions.length - down} of ${body.partitions.length} partitions up`),
      grid,
      el("p", { class: "muted" }, "act.status_by_partition(), read every 2 s. Prometheus: ",
        el("a", { href: "/metrics" }, "/metrics")));
  }

  async function poll() {
    if (!document.body.contains(target)) return;
    try {
      render(await api("/api/partitions"));
    } catch (error) {
      showError(target, error);
    }
    setTimeout(poll, kPollMs);
  }
  poll();
};
