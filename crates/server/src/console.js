// The staff consoles (console.rs): served by the daemon, no inline script
// (CSP). Each acts through the API with the session cookie and the
// session's CSRF token, read from <meta name="csrf">.
"use strict";
const csrf = (document.querySelector('meta[name="csrf"]') || {}).content || "";
// Colombian number format, 1.234.567: reading.js's, loaded before.
const n = readingNumber;
const el = (tag, value, className) => {
  const node = document.createElement(tag);
  if (value !== undefined) node.textContent = value;
  if (className) node.className = className;
  return node;
};

// The daemon's clock less this screen's, from each answer's Date header:
// a poll's countdown is counted on the daemon's clock, whose times the
// ledger records.
let skew = 0;
async function api(method, path, body) {
  const headers = { "x-asamblea-csrf": csrf };
  if (body) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, credentials: "same-origin", headers, body: body ? JSON.stringify(body) : undefined });
  } catch (_) {
    return { ok: false, status: 0, data: null };
  }
  const at = Date.parse(response.headers.get("date") || "");
  if (!Number.isNaN(at)) skew = at - Date.now();
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  // The session ended (sign-out elsewhere, or the daemon restarted).
  if (response.status === 401) location.href = "/personal";
  return { ok: response.ok, status: response.status, data };
}

// A message in the desk's status line: "ok" (green, something was
// recorded for the person), "leave" (amber: a departure, which must never
// look like a success), "no" (red: refused or failed). `good` may be a
// boolean (true is "ok").
function say(text, good) {
  const box = document.getElementById("mensaje");
  if (!box) return;
  box.textContent = text;
  const kind = good === true ? "ok" : good === false ? "no" : good;
  box.className = "said " + kind;
}

function failure(r) {
  if (r.status === 0) return "Sin conexión con el servicio: revise la red y vuelva a intentarlo. / No connection to the daemon.";
  const e = r.data && r.data.error;
  return e ? e.message + " / " + e.message_en : "Error " + r.status;
}

function showQuorum(q) {
  const box = document.getElementById("quorum");
  if (!box || !q) return;
  box.replaceChildren();
  const verdict = el("span", q.met ? "HAY QUÓRUM" : "SIN QUÓRUM", q.met ? "ok" : "no");
  const percent = q.voting_outstanding > 0 ? (Math.floor(q.present_shares * 10000 / q.voting_outstanding) / 100).toLocaleString("es-CO", { minimumFractionDigits: 2 }) : "0,00";
  box.append(verdict, " · " + n(q.present_shares) + " de " + n(q.voting_outstanding) + " acciones (" + percent + "\u00a0%) · " + n(q.holders) + " accionistas");
  // Each share class present, as the daemon counted it.
  const classes = el("div", (q.by_class || []).map((c) => "Acciones " + c.name_es + ": " + n(c.present) + " de "
    + n(c.outstanding) + " (" + c.percent.replace(" %", "\u00a0%") + "), " + n(c.holders) + " accionistas").join(" · "), "classes");
  box.append(classes);
  const threshold = document.getElementById("umbral");
  if (threshold && q.threshold_es) {
    threshold.replaceChildren("Umbral de esta convocatoria: " + q.threshold_es + " (" + q.threshold_source + "). ", el("span", q.threshold_en + ".", "en"));
  }
  plot(q);
}

// Basis points of a part of a whole, truncated, as the daemon's percent().
const bp = (part, whole) => whole > 0 ? Math.floor(part * 10000 / whole) : 0;
const pct = (b) => (b / 100).toLocaleString("es-CO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "\u00a0%";

// The quorum series as bars (each poll's open and close, then now), with
// the threshold as a dotted line: the desk sees at a glance whether the
// quorum held all along. The secretary's table holds the same figures.
function plot(q) {
  const box = document.getElementById("serie");
  if (!box) return;
  const ns = "http://www.w3.org/2000/svg";
  const order = Object.fromEntries((lastStatus ? lastStatus.items : []).map((item, i) => [item.id, i + 1]));
  const points = (q.series || []).map((p) => ({ label: "P" + (order[p.item] || p.item), moment: p.moment === "open" ? "abre" : "cierra", p }));
  points.push({ label: "ahora", moment: "now", p: q });
  const width = 1000, height = 230, top = 20, bottom = 180, left = 76;
  const step = (width - left) / Math.max(points.length, 8);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 " + width + " " + height);
  svg.setAttribute("role", "img");
  const met = points.filter((x) => x.p.met).length;
  svg.setAttribute("aria-label", "Quórum en " + points.length + " lecturas; con quórum en " + met + ". Ahora: " + pct(bp(q.present_shares, q.voting_outstanding)) + ".");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const y = (b) => bottom - (bottom - top) * Math.min(b, 10000) / 10000;
  for (const b of [0, 5000, 10000]) {
    add("line", { x1: left, x2: width, y1: y(b), y2: y(b), class: "grid" });
    add("text", { x: left - 6, y: y(b) + 6, class: "axis", "text-anchor": "end" }, (b / 100) + "%");
  }
  points.forEach((x, i) => {
    const b = bp(x.p.present_shares, x.p.voting_outstanding);
    const cx = left + step * i + step * 0.15;
    add("rect", { x: cx, y: y(b), width: step * 0.7, height: bottom - y(b), class: x.p.met ? "bar ok" : "bar no" });
    add("text", { x: cx + step * 0.35, y: bottom + 22, class: "axis", "text-anchor": "middle" }, x.label);
    add("text", { x: cx + step * 0.35, y: bottom + 44, class: "axis small", "text-anchor": "middle" }, x.moment === "now" ? "" : x.moment);
  });
  if (q.minimum_shares) {
    const t = y(bp(q.minimum_shares, q.voting_outstanding));
    add("line", { x1: left, x2: width, y1: t, y2: t, class: "threshold" });
  }
  box.replaceChildren(svg);
}

let lastStatus = null;
let lastSeen = null;
async function status() {
  const r = await api("GET", "/api/v1/status");
  if (r.ok) { lastStatus = r.data; lastSeen = new Date(); showQuorum(r.data.quorum); }
  stale(!r.ok);
  return r.ok ? r.data : null;
}

// When the daemon stops answering, every figure on screen is old: say so
// at the top, with the time they are from, and grey them out.
function stale(isStale) {
  let banner = document.getElementById("sin-conexion");
  if (!banner) {
    banner = el("div", "", "offline");
    banner.id = "sin-conexion";
    banner.setAttribute("role", "alert");
    const main = document.querySelector("main");
    if (!main) return;
    main.prepend(banner);
  }
  banner.hidden = !isStale;
  document.body.classList.toggle("stale", isStale);
  if (isStale) {
    const at = lastSeen ? clock(lastSeen.getTime()) : "—";
    banner.textContent = "SIN CONEXIÓN con el servicio — las cifras son de las " + at + " y pueden haber cambiado; no abra ni cierre votaciones hasta que vuelva. / Offline — figures as of " + at + ".";
  }
}

function labelled(td, label) {
  td.dataset.label = label;
  return td;
}

const kind = document.body.dataset.console;
if (kind === "registro") {
  desk(); agentDesk(); badgePrinting(); admission(); lodging(); remoteDesk();
  status().then(deskFigures).then(powerFigures);
  setInterval(() => { status().then(deskFigures).then(powerFigures); remoteDesk(); }, 5000);
}
if (kind === "presidencia") {
  agenda(true); floorQueue();
  setInterval(() => { agenda(true); floorQueue(); }, 3000);
}
if (kind === "secretaria") {
  const fillItems = statementForm();
  agenda(false).then(() => { fillItems(); minutes(); statements(); });
  setInterval(() => agenda(false).then(minutes), 5000);
}
