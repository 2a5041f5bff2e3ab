// What every view shares: reading the API, building DOM from data (text
// only, never HTML from the store), folded JSON, tables, URL-kept filters.
"use strict";
const inspector = { views: {}, session: null };

async function api(path, params) {
  const url = new URL(path, location.origin);
  if (params) for (const [key, value] of params) url.searchParams.append(key, value);
  const response = await fetch(url, { headers: { Accept: "application/json" } });
  const body = await response.json();
  if (!response.ok) throw new Error(body.error || response.statusText);
  return body;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Inspector-Token": inspector.session.token || "" },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(answer.error || response.statusText);
  return answer;
}

// el("td", {class: "num"}, "12", childNode...): text children become text nodes.
function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A JSON document folded to one line; opened, pretty-printed. The text is
// shown as the server stored it when it cannot be parsed.
function folded(text) {
  if (text === null || text === undefined) return el("span", { class: "muted" }, "–");
  let pretty = text;
  try { pretty = JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* shown as stored */ }
  return el("details", {}, el("summary", {}, text), el("pre", {}, pretty));
}

function table(headers, rows, numeric = []) {
  return el("table", {},
    el("thead", {}, el("tr", {}, headers.map((h) => el("th", {}, h)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell, i) =>
      el("td", { class: numeric.includes(i) ? "num" : null }, cell))))));
}

function streamLink(name) {
  return el("a", { href: "/streams/" + encodeURIComponent(name) }, name);
}

function card(label, value, alert) {
  return el("div", { class: alert ? "card alert" : "card" },
    el("div", { class: "label" }, label), el("div", { class: "value" }, value ?? "–"));
}

// A GET form whose fields are the URL's query: submitting it is navigating,
// so a view's filters live in its address.
function filterForm(fields) {
  const query = new URLSearchParams(location.search);
  const inputs = fields.map(([name, label, type, placeholder]) => {
    if (type === "checkbox")
      return el("label", { class: "check" }, el("input", { type, name, value: "1", checked: query.get(name) === "1" }), label);
    return el("label", {}, label, el("input", { type: type || "text", name, value: query.get(name) || "", placeholder }));
  });
  return el("form", { class: "filters", method: "get" }, inputs, el("button", { type: "submit" }, "Filter"));
}

// The current URL with some parameters replaced (null: removed).
function withParams(changes) {
  const query = new URLSearchParams(location.search);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) query.delete(key); else query.set(key, value);
  }
  const text = query.toString();
  return location.pathname + (text ? "?" + text : "");
}

// Replaces a view's content; absent parts (null) are left out.
function show(target, ...children) {
  target.replaceChildren(...children.filter((child) => child !== null && child !== undefined));
}

function showError(target, error) {
  show(target, el("div", { class: "error", id: "error" }, error.message));
}

function duration(ms) {
  if (ms === null || ms === undefined) return "–";
  const seconds = Math.round(ms / 1000);
  return seconds < 0 ? "expired " + (-seconds) + " s ago" : seconds + " s";
}
