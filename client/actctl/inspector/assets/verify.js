// Verification (/verify): the checkpoints kept, act.verify_log over a
// range of the tree (from, to in the URL), each problem with its event, and
// an event's inclusion proof (proof in the URL) checked by the server and
// again here, so the page need not trust the server's verdict.
"use strict";

const hexBytes = (hex) => Uint8Array.from(hex.match(/../g) || [], (pair) => parseInt(pair, 16));
const bytesHex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
const sha256 = async (...parts) => {
  const joined = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  parts.reduce((at, part) => (joined.set(part, at), at + part.length), 0);
  return new Uint8Array(await crypto.subtle.digest("SHA-256", joined));
};

// RFC 9162, 2.1.3.2: whether `path` leads from the leaf of entry `entryHex`
// at `index` of a tree of `size` leaves to `rootHex`. BigInt: sizes pass 2^32.
inspector.checkInclusion = async (entryHex, index, size, pathHex, rootHex) => {
  let fn = BigInt(index), sn = BigInt(size) - 1n;
  if (fn > sn) return false;
  let r = await sha256(Uint8Array.of(0), hexBytes(entryHex));
  for (const hex of pathHex) {
    if (sn === 0n) return false;
    const p = hexBytes(hex);
    if ((fn & 1n) === 1n || fn === sn) {
      r = await sha256(Uint8Array.of(1), p, r);
      if ((fn & 1n) === 0n) while ((fn & 1n) === 0n && fn !== 0n) { fn >>= 1n; sn >>= 1n; }
    } else {
      r = await sha256(Uint8Array.of(1), r, p);
    }
    fn >>= 1n;
    sn >>= 1n;
  }
  return sn === 0n && bytesHex(r) === rootHex;
};

async function inclusion(id) {
  const proof = await api("/api/verify/proof", new URLSearchParams({ id }));
  const here = await inspector.checkInclusion(proof.entry, proof.leaf_index, proof.tree_size, proof.path, proof.root);
  const verdict = (id_, holds, text) => el("p", { class: holds ? "ok" : "bad", id: id_ }, text);
  return el("div", {},
    el("p", {}, `Event ${proof.id} is entry ${proof.leaf_index} of the checkpoint of size ${proof.tree_size} (root ${proof.root}); ` +
      `a path of ${proof.path.length} hashes.`),
    verdict("proof-server", proof.server.holds, proof.server.holds ? "server: holds" : `server: does not hold (${proof.server.problem})`),
    verdict("proof-browser", here, here ? "browser: holds" : "browser: does not hold"));
}
// A checkpoint's signature lines: the log's signature and each witness's
// cosignature, with the time the witness gave and the server's check against
// the key registered for it (act.log_keys).
const signatureVerdicts = { true: ["ok", "verifies"], false: ["bad", "does not verify"], null: ["muted", "key not registered"] };
function signatures(lines) {
  if (!lines.length) return el("span", { class: "muted" }, "unsigned");
  return el("ul", { class: "signatures" }, ...lines.map((line) => {
    const [tone, verdict] = signatureVerdicts[line.valid];
    return el("li", { class: "signature", "data-kind": line.kind, "data-name": line.name },
      `${line.kind === "cosignature" ? "witness" : line.kind} ${line.name} (key ${line.key_id})`,
      line.time ? `, cosigned ${line.time}` : "", ": ", el("span", { class: tone }, verdict));
  }));
}
inspector.views.verify = async (target) => {
  const form = filterForm([["from", "from entry", "number", "0"], ["to", "to entry", "number", "tree size"]]);
  show(target, el("h1", {}, "Verification"), el("p", { class: "muted" }, "Loading…"));
  try {
    const [kept, check] = await Promise.all([api("/api/verify"), api("/api/verify/log", new URLSearchParams(location.search))]);
    const checkpoints = kept.checkpoints.length
      ? table(["tree size", "created", "signatures", "signed note"], kept.checkpoints.map((c) => [String(c.size), c.created,
        signatures(c.signatures), el("details", {}, el("summary", {}, c.note.split("\n")[0]), el("pre", {}, c.note))]), [0])
      : el("p", { class: "muted" }, "No checkpoint kept yet (act.checkpoint()).");
    checkpoints.id = "checkpoints";
    const verdict = check.problems.length
      ? el("p", { class: "bad", id: "verdict" }, `${check.problems.length} problems in entries ${check.from} to ${check.to}`)
      : el("p", { class: "ok", id: "verdict" }, `Entries ${check.from} to ${check.to} verify`);
    const problems = check.problems.length
      ? table(["entry", "event", "problem"], check.problems.map((p) => [String(p.position),
        p.id === null ? "gone" : el("a", { href: "/log?before=" + (p.id + 1) + "&limit=1" }, String(p.id)), p.problem]), [0])
      : null;
    if (problems) problems.id = "problems";
    const wanted = new URLSearchParams(location.search).get("proof");
    const proofForm = filterForm([["proof", "event id", "number", "an event id"]]);
    let proof = null;
    if (wanted) {
      try {
        proof = await inclusion(wanted);
      } catch (error) {
        proof = el("div", { class: "error", id: "proof-error" }, error.message);
      }
    }
    const next = check.to < check.sealed_size
      ? el("a", { href: withParams({ from: check.to, to: null }), id: "next" }, "next range »") : null;
    show(target, el("h1", {}, "Verification"),
      el("div", { class: "cards" }, card("sealed tree size", check.sealed_size)),
      el("h2", {}, "The log against its Merkle tree (act.verify_log)"), form, verdict, problems, el("div", { class: "pager" }, next),
      el("h2", {}, "An event's inclusion proof in the newest checkpoint"), proofForm, proof,
      el("h2", {}, "Checkpoints kept, newest first"), checkpoints);
  } catch (error) {
    show(target, el("h1", {}, "Verification"), form, el("div", { class: "error", id: "error" }, error.message));
  }
};
