// Verification (/verify): the checkpoints kept, and act.verify_log over a
// range of the tree (from, to in the URL), each problem with its event.
"use strict";
inspector.views.verify = async (target) => {
  const form = filterForm([["from", "from entry", "number", "0"], ["to", "to entry", "number", "tree size"]]);
  show(target, el("h1", {}, "Verification"), el("p", { class: "muted" }, "Loading…"));
  try {
    const [kept, check] = await Promise.all([api("/api/verify"), api("/api/verify/log", new URLSearchParams(location.search))]);
    const checkpoints = kept.checkpoints.length
      ? table(["tree size", "created", "signed note"], kept.checkpoints.map((c) => [String(c.size), c.created,
        el("details", {}, el("summary", {}, c.note.split("\n")[0]), el("pre", {}, c.note))]), [0])
      : el("p", { class: "muted" }, "No checkpoint kept yet (act.checkpoint()).");
    const verdict = check.problems.length
      ? el("p", { class: "bad", id: "verdict" }, `${check.problems.length} problems in entries ${check.from} to ${check.to}`)
      : el("p", { class: "ok", id: "verdict" }, `Entries ${check.from} to ${check.to} verify`);
    const problems = check.problems.length
      ? table(["entry", "event", "problem"], check.problems.map((p) => [String(p.position),
        p.id === null ? "gone" : el("a", { href: "/log?before=" + (p.id + 1) + "&limit=1" }, String(p.id)), p.problem]), [0])
      : null;
    if (problems) problems.id = "problems";
    const next = check.to < check.sealed_size
      ? el("a", { href: withParams({ from: check.to, to: null }), id: "next" }, "next range »") : null;
    show(target, el("h1", {}, "Verification"),
      el("div", { class: "cards" }, card("sealed tree size", check.sealed_size)),
      el("h2", {}, "The log against its Merkle tree (act.verify_log)"), form, verdict, problems, el("div", { class: "pager" }, next),
      el("h2", {}, "Checkpoints kept, newest first"), checkpoints);
  } catch (error) {
    show(target, el("h1", {}, "Verification"), form, el("div", { class: "error", id: "error" }, error.message));
  }
};
