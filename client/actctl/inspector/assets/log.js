// Log (/log): events newest first by stream (exact or pattern), name, time
// range and correlation, a page at a time, paged by id.
"use strict";
// An event's correlation, as a link to its tree.
function correlationLink(meta) {
  let correlation = null;
  try { correlation = JSON.parse(meta).correlation ?? null; } catch (e) { /* none */ }
  return typeof correlation === "string"
    ? el("a", { href: "/correlation/" + encodeURIComponent(correlation) }, correlation) : "–";
}

function eventTable(events, withStream) {
  const headers = ["id", "created", ...(withStream ? ["stream"] : []), "version", "name", "data", "meta", "pii",
    "correlation"];
  return table(headers, events.map((e) => [
    String(e.id), e.created, ...(withStream ? [streamLink(e.stream)] : []), String(e.version), e.name,
    folded(e.data), folded(e.meta), folded(e.pii), correlationLink(e.meta)]), [0]);
}

function pager(nextBefore, param = "before") {
  return el("div", { class: "pager" },
    new URLSearchParams(location.search).get(param) ? el("a", { href: withParams({ [param]: null }) }, "« newest") : null,
    nextBefore ? el("a", { href: withParams({ [param]: nextBefore }), id: "older" }, "older »") : null);
}

inspector.views.log = async (target) => {
  const form = filterForm([
    ["stream", "stream", "text", "orders-1"], ["regex", "as pattern", "checkbox"],
    ["name", "event name", "text", "Placed"], ["from", "created after", "text", "2026-01-31T00:00:00Z"],
    ["to", "created before", "text", "2026-02-01T00:00:00Z"], ["correlation", "correlation", "text"],
    ["limit", "per page", "number", "50"]]);
  show(target, el("h1", {}, "Log"), form, el("p", { class: "muted" }, "Loading…"));
  try {
    const page = await api("/api/log", new URLSearchParams(location.search));
    show(target, el("h1", {}, "Log"), form,
      page.events.length ? eventTable(page.events, true) : el("p", { id: "empty" }, "No events match."),
      page.scanned_from === null ? null
        : el("p", { class: "muted", id: "scanned" },
          `Looked at events down to id ${page.scanned_from}: older ones may match too.`),
      pager(page.next_before));
  } catch (error) {
    show(target, el("h1", {}, "Log"), form, el("div", { class: "error", id: "error" }, error.message));
  }
};
