// Correlation (/correlation/ID): one correlation's events as a causation
// tree. An event's cause is meta.causation.event.id (what a reaction's
// action records, docs/reactions.md); an event whose cause is not among
// them starts a tree of its own. Each step says how long after its cause
// it was committed.
"use strict";
inspector.views.correlation = async (target) => {
  const id = decodeURIComponent(location.pathname.slice("/correlation/".length));
  show(target, el("h1", {}, "Correlation ", id), el("p", { class: "muted" }, "Loading…"));
  try {
    const page = await api("/api/correlation/" + encodeURIComponent(id));
    const byId = new Map(page.events.map((e) => [e.id, { event: e, children: [] }]));
    const roots = [];
    for (const node of byId.values()) {
      let cause = null;
      try { cause = JSON.parse(node.event.meta).causation?.event?.id ?? null; } catch (e) { /* no causation */ }
      const parent = byId.get(cause);
      if (parent) { node.after = Date.parse(node.event.created) - Date.parse(parent.event.created); parent.children.push(node); }
      else roots.push(node);
    }
    const item = (node) => el("li", { "data-id": node.event.id },
      el("span", { class: "step" }, node.event.name, " ", streamLink(node.event.stream), ` #${node.event.id} v${node.event.version}`),
      node.after !== undefined ? el("span", { class: "muted after" }, ` +${node.after} ms after its cause`) : null,
      " ", folded(node.event.data),
      node.children.length ? el("ul", {}, node.children.map(item)) : null);
    show(target, el("h1", {}, "Correlation ", id),
      page.events.length ? el("ul", { id: "tree", class: "tree" }, roots.map(item)) : el("p", { id: "empty" }, "No events."),
      page.more ? el("p", { class: "muted" }, `The first ${page.events.length} events only.`) : null);
  } catch (error) {
    showError(target, error);
  }
};
