// Stream (/streams/NAME): its events with snapshots, its version, whether
// its hash chain verifies, whether it is closed, and the subscriptions that
// read it with their watermarks.
"use strict";
function readersTable(rows) {
  return table(["subscription", "source", "lane", "watermark", "work mark", "behind", "blocked", "leased by"],
    rows.map((r) => [r.stream, r.source ?? "every stream", r.lane, String(r.at), String(r.correlated_at ?? "–"),
      String(r.lag), r.blocked ? el("span", { class: "bad" }, "blocked") : "no", r.leased_by ?? "–"]), [3, 4, 5]);
}

inspector.views.stream = async (target) => {
  const name = decodeURIComponent(location.pathname.slice("/streams/".length));
  show(target, el("h1", {}, "Stream ", name), el("p", { class: "muted" }, "Loading…"));
  try {
    const page = await api("/api/streams/" + encodeURIComponent(name), new URLSearchParams(location.search));
    const chain = page.chain;
    const head = page.events.length && !new URLSearchParams(location.search).get("before") ? page.events[0] : null;
    const snapshots = page.events.filter((e) => e.name === "__snapshot__").length;
    show(target, 
      el("h1", {}, "Stream ", name),
      el("div", { class: "cards" },
        card("version", page.version),
        el("div", { class: chain && !chain.valid ? "card alert" : "card", id: "chain" },
          el("div", { class: "label" }, "hash chain"),
          el("div", { class: "value" }, !chain ? "no events" : chain.valid ? `valid (${chain.events} events)`
            : `broken at version ${chain.first_bad_version}`)),
        card("closed", head && head.name === "__tombstone__" ? "yes (tombstone)" : "no"),
        card("snapshots on this page", snapshots)),
      el("h2", {}, "Events, newest first"),
      page.events.length ? eventTable(page.events, false) : el("p", { id: "empty" }, "No events."),
      pager(page.next_before),
      el("h2", {}, "Subscriptions that read it"),
      page.readers.length ? readersTable(page.readers) : el("p", { class: "muted" }, "None."));
  } catch (error) {
    showError(target, error);
  }
};
