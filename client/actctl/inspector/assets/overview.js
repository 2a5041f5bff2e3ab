// Overview (/): the store's figures, read every two seconds; the rates
// come from two readings (events: the head id; commits: the counter the
// concurrent mode keeps).
"use strict";
inspector.views.overview = (target) => {
  const kPollMs = 2000;
  const history = [];  // events per second, the last minute
  let last = null;

  function rate(now, then, value) {
    if (!then || value(then) === undefined || value(now) === undefined) return null;
    const seconds = (now.at - then.at) / 1000;
    return seconds > 0 ? Math.max(0, (value(now) - value(then)) / seconds) : null;
  }

  function sparkline(values) {
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("class", "spark");
    svg.setAttribute("viewBox", "0 0 300 60");
    svg.setAttribute("preserveAspectRatio", "none");
    const most = Math.max(1, ...values);
    const line = document.createElementNS("http://www.w3.org/2000/svg", "polyline");
    line.setAttribute("points", values.map((v, i) => `${(i * 300) / 29},${58 - (v / most) * 56}`).join(" "));
    svg.append(line);
    return svg;
  }

  function render(reading) {
    const s = reading.body.status;
    const c = reading.body.counters;
    const events = rate(reading, last, (r) => r.body.status.max_event_id);
    const commits = rate(reading, last, (r) => r.body.counters.pg_act_commits_total);
    if (events !== null) { history.push(events); if (history.length > 30) history.shift(); }
    last = reading;
    const checkpoint = reading.body.checkpoint;
    show(target, 
      el("h1", {}, "Overview"),
      el("div", { class: "cards", id: "figures" },
        card("mode", s.mode),
        card("horizon", s.horizon),
        card("newest event id", s.max_event_id),
        card("events per second", events === null ? "…" : events.toFixed(1)),
        card("commits per second", c.pg_act_commits_total === undefined ? "not counted (fenced)" :
          commits === null ? "…" : commits.toFixed(1)),
        card("subscriptions", s.subscriptions),
        card("with work", s.with_work),
        el("a", { href: "/work?blocked=1" }, card("blocked", s.blocked, s.blocked > 0)),
        card("leased", s.leased),
        card("expired leases", s.expired_leases, s.expired_leases > 0),
        card("oldest waiting work", s.oldest_work_age),
        card("horizon held for", s.horizon_held_for),
        card("sealed tree size", s.sealed_size),
        card("last checkpoint", checkpoint ? `size ${checkpoint.size} at ${checkpoint.created}` : "none yet"),
        s.seal_stopped ? card("sealing stopped", s.seal_stopped, true) : null),
      el("h2", {}, "Events per second, last minute"),
      sparkline(history),
      el("p", { class: "muted" }, "Read every 2 s. Prometheus: ", el("a", { href: "/metrics" }, "/metrics")));
  }

  async function poll() {
    if (!document.body.contains(target)) return;
    try {
      render({ at: Date.now(), body: await api("/api/status") });
    } catch (error) {
      showError(target, error);
    }
    setTimeout(poll, kPollMs);
  }
  poll();
};
