// Work (/work): subscriptions by stream, lane and blocked, with watermark,
// work mark, lag, lease holder and its countdown, retry and error. Under
// --write, the selected rows take an action after a dry run the operator
// confirms: the server is told how many rows the operator saw change.
"use strict";
inspector.views.work = async (target) => {
  const form = filterForm([
    ["stream", "subscription", "text", "orders-1"], ["regex", "as pattern", "checkbox"],
    ["lane", "lane", "text", "default"], ["blocked", "blocked only", "checkbox"], ["limit", "per page", "number", "100"]]);
  const write = inspector.session.write;
  const status = el("div", { id: "action-status" });
  show(target, el("h1", {}, "Work"), form, el("p", { class: "muted" }, "Loading…"));
  let page;
  try {
    page = await api("/api/work", new URLSearchParams(location.search));
  } catch (error) {
    show(target, el("h1", {}, "Work"), form, el("div", { class: "error", id: "error" }, error.message));
    return;
  }
  const loaded = Date.now();
  const countdowns = [];
  const rows = page.rows.map((r) => {
    const countdown = el("span", {}, r.leased_by ? duration(r.lease_left_ms) : "–");
    if (r.leased_by) countdowns.push([countdown, r.lease_left_ms]);
    return [
      write ? el("input", { type: "checkbox", class: "pick", value: r.stream }) : null,
      streamLink(r.stream), r.lane, String(r.priority), String(r.at), String(r.correlated_at ?? "–"), String(r.lag),
      r.leased_by ?? "–", countdown, String(r.retry),
      r.blocked ? el("span", { class: "bad" }, "blocked") : "no", r.error ?? "",
    ].filter((cell) => cell !== null);
  });
  const headers = ["subscription", "lane", "priority", "watermark", "work mark", "behind", "leased by", "lease left",
    "retry", "blocked", "error"];
  const grid = table(write ? ["", ...headers] : headers, rows, write ? [3, 4, 5, 6] : [2, 3, 4, 5]);
  grid.id = "work";
  const next = page.next_after ? el("a", { href: withParams({ after: page.next_after }), id: "next" }, "next »") : null;
  const first = new URLSearchParams(location.search).get("after") ? el("a", { href: withParams({ after: null }) }, "« first") : null;
  show(target, el("h1", {}, "Work"), form, write ? actionBar(status) : null, status,
    page.rows.length ? grid : el("p", { id: "empty" }, "No subscriptions match."), el("div", { class: "pager" }, first, next));
  const tick = () => {
    if (!document.body.contains(grid)) return;
    for (const [node, left] of countdowns) node.textContent = duration(left - (Date.now() - loaded));
    setTimeout(tick, 1000);
  };
  tick();

  function actionBar(out) {
    const priority = el("input", { type: "number", id: "priority", placeholder: "priority", value: "0" });
    const until = el("input", { type: "text", id: "until", placeholder: "2026-02-01T00:00:00Z" });
    const button = (name, label, extra) => el("button", { type: "button", id: "do-" + name, onclick: () => preview(name, extra, out) }, label);
    return el("div", { class: "actions" }, el("span", { class: "muted" }, "Selected rows:"),
      button("unblock", "Unblock"), button("release", "Release lease"), button("reset", "Reset"),
      priority, button("prioritize", "Prioritize", () => ({ priority: Number(priority.value) })),
      until, button("defer", "Defer until", () => ({ until: until.value })));
  }

  async function preview(name, extra, out) {
    const streams = [...target.querySelectorAll("input.pick:checked")].map((box) => box.value);
    if (!streams.length) { out.replaceChildren(el("div", { class: "error" }, "Select the rows to act on first.")); return; }
    const values = extra ? extra() : {};
    const query = streams.map((s) => ["stream", s]);
    for (const [key, value] of Object.entries(values)) query.push([key, String(value)]);
    try {
      const dry = await api(`/api/actions/${name}/preview`, query);
      const confirm = el("button", { type: "button", id: "confirm", onclick: () => apply(name, streams, dry.count, values, out) },
        `Confirm: ${name} ${dry.count}`);
      const cancel = el("button", { type: "button", id: "cancel", onclick: () => out.replaceChildren() }, "Cancel");
      out.replaceChildren(el("div", { class: "confirm", id: "dry-run" },
        el("p", {}, `Dry run: ${name} would change `, el("strong", { id: "dry-count" }, String(dry.count)),
          ` of the ${streams.length} selected subscriptions:`),
        el("p", {}, dry.rows.map((r) => r.stream).join(", ") || "none"), confirm, " ", cancel));
    } catch (error) {
      out.replaceChildren(el("div", { class: "error", id: "error" }, error.message));
    }
  }

  async function apply(name, streams, confirmed, values, out) {
    try {
      const answer = await post(`/api/actions/${name}`, { streams, confirmed, ...values });
      const note = answer.audit_error ? ` (${answer.audit_error})` : "";
      sessionStorage.setItem("inspector-note", `${name}: ${answer.changed} subscriptions changed${note}`);
      location.reload();
    } catch (error) {
      out.replaceChildren(el("div", { class: "error", id: "error" }, error.message));
    }
  }
};
