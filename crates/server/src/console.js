// The staff consoles (console.rs): served by the daemon, no inline script
// (CSP). Each acts through the API with the session cookie and the
// session's CSRF token, read from <meta name="csrf">.
"use strict";
const csrf = (document.querySelector('meta[name="csrf"]') || {}).content || "";
const n = (v) => (v === undefined || v === null) ? "" : Number(v).toLocaleString("es-CO");
const el = (tag, value, className) => {
  const node = document.createElement(tag);
  if (value !== undefined) node.textContent = value;
  if (className) node.className = className;
  return node;
};

async function api(method, path, body) {
  const headers = { "x-asamblea-csrf": csrf };
  if (body) headers["content-type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, credentials: "same-origin", headers, body: body ? JSON.stringify(body) : undefined });
  } catch (_) {
    return { ok: false, status: 0, data: null };
  }
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

// ----- registro: search the register and check holders in -----
// A company (a NIT) arrives "in person" through a natural person: the desk
// types who attends and their document, for the badge, the kiosk and the
// acta. Natural persons' ids (CC, CE, PA, TI) need nothing more.
const isCompany = (id) => /^nit/i.test(id);
const whoIs = (name, id) => name ? name + " (" + id + ")" : id;
// Whoever votes a holder's shares, by name: the agent, or the holder.
const who = (h) => h.via ? whoIs(h.attendee_name, h.via) : whoIs(h.attendee_name || h.name, h.id);

function desk() {
  const input = document.getElementById("buscar");
  const rows = document.getElementById("resultados");
  const count = document.getElementById("coinciden");
  let timer = null;
  let asked = 0;
  async function search() {
    const mine = ++asked;
    const r = await api("GET", "/api/v1/holders?q=" + encodeURIComponent(input.value.trim()));
    if (mine !== asked) return; // a later search is on its way
    if (!r.ok) { say(failure(r), false); return; }
    rows.replaceChildren();
    for (const h of r.data.holders) rows.append(holderRow(h));
    count.textContent = r.data.matched > r.data.holders.length
      ? n(r.data.matched) + " coinciden; se muestran " + r.data.holders.length + ": escriba más para acotar. / " + n(r.data.matched) + " match."
      : r.data.matched === 0
        ? "0 coinciden: pruebe con el número del documento sin puntos, o con una parte del nombre. / No match: try the bare id number or part of the name."
        : n(r.data.matched) + (r.data.matched === 1 ? " coincide." : " coinciden.");
  }

  // One holder's row: id, name, shares, state, and what the desk may do.
  function holderRow(h) {
    const row = document.createElement("tr");
    // Every class the holder has (a holder of both showed only its
    // preferred shares).
    const shares = [h.shares.ORD > 0 || h.shares.PREF === 0 ? n(h.shares.ORD) + "\u00a0ORD" : "",
      h.shares.PREF > 0 ? n(h.shares.PREF) + "\u00a0PREF" : ""].filter(Boolean).join(" · ");
    const via = h.via ? whoIs(h.attendee_name, h.via) : "";
    const where = h.present ? (h.via ? "presente, por " + via : h.attendee_name ? "presente (" + h.attendee_name + ")" : "presente") : "ausente";
    row.append(el("td", h.id, "id"), el("td", h.name), el("td", shares, "num"), el("td", where, h.present ? "ok" : ""));
    const cell = el("td", undefined, "actions");
    // Whoever votes these shares: the holder in person, or the agent who
    // carries them (and with the agent, every holder they carry).
    const person = h.via || h.id;
    if (h.present) {
      cell.append(leaveButton(h, person, cell));
      // A badge printed at once, or a lost one replaced.
      cell.append(" ", badgeButton(person, h.badge, () => search(), who(h)));
    } else {
      cell.append(arriveButton(h, row));
      // An absent holder may be added to the agent's form as a principal.
      cell.append(" ", principalButton(h));
    }
    row.append(cell);
    return row;
  }

  async function record(path, body, said, kind, button) {
    button.disabled = true;
    const done = await api("POST", path, body);
    if (done.ok) {
      say(said, kind);
      await status();
      await search();
      deskFigures();
    } else {
      button.disabled = false;
      say(failure(done), false);
    }
    return done.ok;
  }

  // An arrival: at once for a natural person; for a company, after the
  // desk types who attends for it.
  function arriveButton(h, row) {
    const button = el("button", "Registrar llegada");
    button.type = "button";
    button.setAttribute("aria-label", "Registrar llegada de " + whoIs(h.name, h.id));
    const said = "Llegada registrada: " + whoIs(h.name, h.id) + ". / Checked in.";
    button.addEventListener("click", () => {
      if (isCompany(h.id)) { companyForm(h, row, button); return; }
      record("/api/v1/checkins", { holder: h.id }, said, "ok", button);
    });
    return button;
  }

  // Who attends for a company arriving in person: name and document, then
  // the arrival with them.
  function companyForm(h, row, opener) {
    if (row.nextElementSibling && row.nextElementSibling.classList.contains("attending")) return;
    const line = document.createElement("tr");
    line.className = "attending";
    const cell = el("td");
    cell.colSpan = 5;
    const key = h.id.replace(/[^A-Za-z0-9]/g, "");
    const nameId = "asiste-nombre-" + key, docId = "asiste-documento-" + key;
    const nameLabel = el("label", "Nombre de quien asiste por " + (h.name || h.id) + " ");
    nameLabel.htmlFor = nameId;
    nameLabel.append(el("span", "who attends, full name", "en"));
    const name = el("input");
    name.id = nameId; name.autocomplete = "off";
    const docLabel = el("label", "Su documento (p. ej. CC-80999111) ");
    docLabel.htmlFor = docId;
    docLabel.append(el("span", "their own id", "en"));
    const doc = el("input");
    doc.id = docId; doc.autocomplete = "off"; doc.spellcheck = false;
    const go = el("button", "Registrar la llegada de " + (h.name || h.id));
    go.type = "button";
    const cancel = el("button", "Cancelar", "leave");
    cancel.type = "button";
    const close = () => { line.remove(); opener.disabled = false; opener.focus(); };
    cancel.addEventListener("click", close);
    go.addEventListener("click", async () => {
      const body = { holder: h.id, attendee_name: name.value.trim(), attendee_document: doc.value.trim() };
      if (!body.attendee_name || !body.attendee_document) {
        say("Escriba el nombre y el documento de quien asiste por " + whoIs(h.name, h.id) + ". / Type who attends and their id.", false);
        (body.attendee_name ? doc : name).focus();
        return;
      }
      const said = "Llegada registrada: " + whoIs(h.name, h.id) + ", asiste " + body.attendee_name + " (" + body.attendee_document + "). / Checked in.";
      await record("/api/v1/checkins", body, said, "ok", go);
    });
    cell.append(nameLabel, name, docLabel, doc, go, " ", cancel);
    line.append(cell);
    row.after(line);
    opener.disabled = true;
    name.focus();
  }

  // A departure never happens on one tap: the first shows, in the same
  // place, «No, sigue presente» (so a second tap of a double tap keeps
  // the person in) and, beside it, the confirmation, which wakes only
  // after a moment.
  function leaveButton(h, person, cell) {
    const agent = Boolean(h.via);
    const label = agent ? "Registrar salida del apoderado" : "Registrar salida";
    const button = el("button", label, "leave");
    button.type = "button";
    const who = agent ? whoIs(h.attendee_name, h.via) : whoIs(h.name, h.id);

    button.setAttribute("aria-label", label + ": " + who);
    button.addEventListener("click", () => {
      const keep = el("button", "No, sigue presente", "leave");
      keep.type = "button";
      const sure = el("button", agent ? "Sí, registrar la salida del apoderado y de todos sus representados" : "Sí, registrar la salida", "danger");
      sure.type = "button";
      sure.disabled = true;
      setTimeout(() => { sure.disabled = false; }, 700);
      const ask = el("p", "¿Registrar la salida de " + who + "? Dejará de contar para el quórum y su credencial no votará. / Check out?", "confirm");
      const restore = () => { cell.replaceChildren(...parts); button.focus(); };
      const parts = [...cell.childNodes];
      keep.addEventListener("click", () => { restore(); say("Sin cambios: " + who + " sigue presente. / Still present.", "ok"); });
      sure.addEventListener("click", () => {
        record("/api/v1/checkouts", { person },
          "Salida registrada: " + who + ". Ya no cuenta para el quórum. / Checked out.", "leave", sure);
      });
      // «No» first, where the tapped button was; the question under both.
      cell.replaceChildren(keep, " ", sure, ask);
      keep.focus();
    });
    return button;
  }

  // A new search is about the next person: the last message goes.
  input.addEventListener("input", () => { say("", "ok"); clearTimeout(timer); timer = setTimeout(search, 120); });
  input.focus();
  search();
}

// Adds an absent holder to the principals of the agent being checked in.
function principalButton(h) {
  const button = el("button", "+ Representado", "leave principal");
  button.type = "button";
  button.setAttribute("aria-label", "+ Representado: añadir a " + whoIs(h.name, h.id) + " al formulario del apoderado");
  button.addEventListener("click", () => {
    const field = document.getElementById("representados");
    const ids = field.value.split(",").map((x) => x.trim()).filter(Boolean);
    if (!ids.includes(h.id)) ids.push(h.id);
    field.value = ids.join(", ");
    field.dispatchEvent(new Event("input", { bubbles: true }));
    say("Representado añadido al formulario del apoderado: " + h.id + ". / Added as a principal.", true);
  });
  return button;
}

// ----- registro: a badge printed at once, its seed drawn in this browser -----
// The seed becomes the badge's signing key at the kiosk: it is drawn here
// (WebCrypto), only its public key goes to the daemon (POST /api/v1/badges,
// or /reissue for a lost one), and it leaves this page only as the printed
// QR code (docs/ledger-format.md §9). The badge's layout is the daemon's
// (GET /api/v1/badges/N/layout, the same as the printed sheets); the QR is
// written into its slot here, with the vendored encoder (qrcode.js).
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
const bytesOf = (hex) => Uint8Array.from(hex.match(/../g), (pair) => parseInt(pair, 16));

async function drawBadgeKey() {
  const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"]);
  // PKCS #8 of an Ed25519 key: a fixed 16-byte prefix, then the 32-byte seed.
  const pkcs8 = new Uint8Array(await crypto.subtle.exportKey("pkcs8", pair.privateKey));
  const seed = pkcs8.slice(pkcs8.length - 32);
  pkcs8.fill(0);
  const key = hexOf(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey)));
  return { seed, key };
}

// "AS1" + base32(meeting[0..8] ‖ u32 number ‖ seed ‖ SHA-256(…)[0..6]):
// the QR credential of docs/ledger-format.md §9.
async function badgeText(number, seed) {
  const payload = new Uint8Array(50);
  payload.set(bytesOf(document.getElementById("reunion").dataset.meeting).slice(0, 8), 0);
  new DataView(payload.buffer).setUint32(8, number, false);
  payload.set(seed, 12);
  const check = new Uint8Array(await crypto.subtle.digest("SHA-256", payload.slice(0, 44)));
  payload.set(check.slice(0, 6), 44);
  let text = "AS1";
  for (let i = 0; i < 50; i += 5) {
    let bits = 0n;
    for (let j = 0; j < 5; j++) bits = (bits << 8n) | BigInt(payload[i + j]);
    for (let k = 7; k >= 0; k--) text += BASE32[Number((bits >> BigInt(5 * k)) & 31n)];
  }
  payload.fill(0);
  check.fill(0);
  return text;
}

async function showBadge(number, seed) {
  const layout = await fetch("/api/v1/badges/" + number + "/layout", { credentials: "same-origin" });
  if (!layout.ok) { seed.fill(0); say("No se pudo preparar la credencial n.º " + number + ": búsquela y pulse «Reponer». / The badge could not be laid out.", false); return false; }
  const svg = new DOMParser().parseFromString(await layout.text(), "image/svg+xml").documentElement;
  const qr = qrcode(0, "Q");
  qr.addData(await badgeText(number, seed), "Alphanumeric");
  seed.fill(0);
  qr.make();
  const quiet = 4, count = qr.getModuleCount();
  let d = "";
  for (let y = 0; y < count; y++) for (let x = 0; x < count; x++) if (qr.isDark(y, x)) d += "M" + (x + quiet) + " " + (y + quiet) + "h1v1h-1z";
  const slot = svg.querySelector("#qr-slot");
  slot.setAttribute("viewBox", "0 0 " + (count + 2 * quiet) + " " + (count + 2 * quiet));
  slot.querySelector("path").setAttribute("d", d);
  const area = document.getElementById("impresion");
  document.getElementById("credencial").replaceChildren(document.importNode(svg, true));
  area.hidden = false;
  area.scrollIntoView();
  document.getElementById("imprimir").focus();
  return true;
}

// The badge button of a search result: issue one, or (two presses, so a
// slip does not void a badge) replace the one the person holds.
function badgeButton(person, badge, done, named) {
  const shown = named || person;
  const button = el("button", badge ? "Reponer credencial n.º " + badge : "Credencial", "leave badge");
  button.type = "button";
  // The accessible name starts with the words shown (WCAG 2.5.3).
  button.setAttribute("aria-label", (badge ? "Reponer credencial n.º " + badge + " de " : "Credencial: emitir e imprimir la de ") + person);
  let armed = false;
  button.addEventListener("click", async () => {
    if (badge && !armed) {
      armed = true;
      button.textContent = "¿Seguro? La n.º " + badge + " dejará de valer: pulse otra vez";
      button.setAttribute("aria-label", button.textContent + " (reponer la credencial de " + person + ")");
      return;
    }
    button.disabled = true;
    let drawn;
    try {
      drawn = await drawBadgeKey();
    } catch (_) {
      button.disabled = false;
      say("Este navegador no puede crear la clave de la credencial (Ed25519 en WebCrypto): use un Chromium o Firefox reciente, o imprima con «asamblea badges». / This browser cannot make the badge's key.", false);
      return;
    }
    const { seed, key } = drawn;
    const r = badge
      ? await api("POST", "/api/v1/badges/" + badge + "/reissue", { key })
      : await api("POST", "/api/v1/badges", { person, key });
    if (!r.ok) { seed.fill(0); button.disabled = false; say(failure(r), false); return; }
    // The badge first, then the words that say it is there.
    if (await showBadge(r.data.credential, seed)) say((badge ? "Credencial n.º " + badge + " revocada; nueva credencial n.º " : "Credencial n.º ") + r.data.credential + " para " + shown + ": imprímala. / Badge issued.", true);
    await deskFigures();
    done();
  });
  return button;
}

function badgePrinting() {
  const area = document.getElementById("impresion");
  if (!area) return;
  const close = () => { document.getElementById("credencial").replaceChildren(); area.hidden = true; document.getElementById("buscar").focus(); };
  document.getElementById("imprimir").addEventListener("click", () => {
    document.body.classList.add("printing");
    window.print();
  });
  window.addEventListener("afterprint", () => document.body.classList.remove("printing"));
  document.getElementById("cerrar-credencial").addEventListener("click", close);
}

// ----- registro: the desk's figures -----
async function deskFigures() {
  const body = document.getElementById("cifras");
  if (!body) return;
  const r = await api("GET", "/api/v1/desk");
  if (!r.ok) return;
  const d = r.data;
  const row = (label, f, people) => {
    const tr = document.createElement("tr");
    tr.append(el("td", label), labelled(el("td", n(f.holders), "num"), "Accionistas"),
      labelled(el("td", people ? n(f.agents) : "", "num"), "Personas"), labelled(el("td", n(f.shares), "num"), "Acciones"));
    return tr;
  };
  body.replaceChildren(row("En persona / in person", d.in_person, false), row("Por apoderado / by proxy", d.proxy, true),
    row("Por representante legal / legal representative", d.legal_representative, true));
  document.getElementById("credenciales").textContent = "Credenciales: " + n(d.badges.issued) + " emitidas, "
    + n(d.badges.revoked) + " revocadas, " + n(d.badges.live) + " vigentes. / Badges issued, revoked, live.";
  const refused = document.getElementById("rechazados");
  refused.replaceChildren(...d.refused.map((x) => {
    const tr = document.createElement("tr");
    tr.append(el("td", x.agent), el("td", x.principals.join(", ")), el("td", x.reason_es), el("td", x.power_document || "—"));
    return tr;
  }));
  if (d.refused.length === 0) {
    const tr = document.createElement("tr");
    tr.append(el("td", "Ninguno. / None."));
    refused.append(tr);
  }
}

// ----- registro: an agent with its principals, checked before it counts -----
function agentDesk() {
  const form = document.getElementById("apoderado");
  if (!form) return;
  const verdict = document.getElementById("veredicto");
  const confirm = document.getElementById("confirmar");
  const request = () => {
    const body = {
      agent: document.getElementById("agente").value.trim(),
      attendee_name: document.getElementById("agente-nombre").value.trim(),
      represents: document.getElementById("representados").value.split(",").map((s) => s.trim()).filter(Boolean),
      as: form.querySelector("input[name=calidad]:checked").value,
      power_document: document.getElementById("poder").value.trim(),
    };
    const role = document.getElementById("cargo").value;
    if (role) body.agent_role = role;
    return body;
  };
  const refuse = document.getElementById("rechazar");
  const show = (text, good) => { verdict.textContent = text; verdict.className = good ? "said ok" : "said no"; };
  // Any change asks for a new check before the arrival can be confirmed
  // or refused.
  let refusedByRules = false;
  // The refusals recorded as proxy-refused (ProxyRefusal::from_refusal).
  const recorded = ["unknown-holder", "proxy-agent-barred", "already-present"];
  form.addEventListener("input", () => { confirm.disabled = true; refuse.disabled = true; verdict.textContent = ""; });
  document.getElementById("verificar").addEventListener("click", async () => {
    const r = await api("POST", "/api/v1/checkins/check", request());
    show(r.ok ? r.data.message + " / " + r.data.message_en : failure(r), r.ok);
    confirm.disabled = !r.ok;
    // Refused by the rules for a reason the acta states: the desk records
    // the refusal. Admitted: the desk may still find the power wanting.
    refusedByRules = r.status === 422 && recorded.includes(r.data && r.data.error && r.data.error.code);
    refuse.disabled = !(r.ok || refusedByRules);
    refuse.firstChild.textContent = refusedByRules ? "Registrar el rechazo " : "Rechazar el poder (art. 184) ";
    refuse.querySelector(".en").textContent = refusedByRules ? "record the refusal" : "refuse the power";
  });
  refuse.addEventListener("click", async () => {
    refuse.disabled = true;
    confirm.disabled = true;
    const body = request();
    if (!refusedByRules) body.power_rejected = true;
    const r = await api("POST", "/api/v1/checkins", body);
    // The rules' refusal answers 422 once it is recorded; a power refused
    // answers 201.
    if (r.ok || (refusedByRules && r.status === 422)) {
      show("Rechazo registrado: " + body.agent + ". Queda en el acta. / Refusal recorded.", true);
      form.reset();
      await deskFigures();
    } else {
      show(failure(r), false);
    }
  });
  confirm.addEventListener("click", async () => {
    const body = request();
    // The badge, the kiosk and the acta name the agent: a name is asked
    // before anything is recorded.
    if (!body.attendee_name) {
      show("Escriba el nombre del apoderado, como en su documento: va en la credencial y en el acta. / Type the agent's name.", false);
      document.getElementById("agente-nombre").focus();
      return;
    }
    confirm.disabled = true;
    const r = await api("POST", "/api/v1/checkins", body);
    if (r.ok) {
      show("Llegada registrada: " + body.attendee_name + " (" + body.agent + ") con " + body.represents.length + " representados. / Checked in.", true);
      form.reset();
      await status();
    } else {
      show(failure(r), false);
    }
  });
}

// A figure's name, shown before it where a table becomes cards (a phone).
function labelled(td, label) {
  td.dataset.label = label;
  return td;
}

// ----- presidencia: the sessions -----
const SESSION_STATE = {
  "not-installed": "Sin instalar: ninguna votación se abre hasta instalarla / not installed",
  "in-session": "En sesión / in session",
  suspended: "Suspendida: nada se vota hasta reanudarla / suspended",
  adjourned: "Sesión levantada: la reunión terminó / adjourned",
};
const SESSION_STEP = { installed: "Instalación", suspended: "Suspensión", resumed: "Reanudación", adjourned: "Levantamiento de la sesión" };
let sessionConfirm = null;
function sessionPanel(data) {
  const box = document.getElementById("sesion");
  if (!box) return;
  const s = data.session || { state: "not-installed", steps: [] };
  const key = JSON.stringify([s, sessionConfirm]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const parts = [el("p", SESSION_STATE[s.state], "session-state " + s.state)];
  if (s.steps.length) {
    const list = document.createElement("ol");
    for (const step of s.steps) {
      const quorum = "quórum " + step.quorum.percent.replace(" %", "\u00a0%") + (step.quorum.met ? "" : " (SIN QUÓRUM)");
      list.append(el("li", SESSION_STEP[step.step] + " a las " + clock(step.at_ms) + " · " + quorum + (step.note ? " — " + step.note : "")));
    }
    parts.push(list);
  }
  const note = document.getElementById("sesion-nota");
  const post = async (button, action, said) => {
    button.disabled = true;
    const done = await api("POST", "/api/v1/meeting/" + action, { note: note.value });
    sessionConfirm = null;
    if (done.ok) note.value = "";
    say(done.ok ? said : failure(done), done.ok);
    await agenda(true);
  };
  const button = (label, action, said, kind) => {
    const b = el("button", label, kind || "");
    b.type = "button";
    b.dataset.focus = "session-" + action;
    b.addEventListener("click", () => post(b, action, said));
    return b;
  };
  // Adjourning cannot be undone: the first press asks, as a close does.
  const adjourn = () => {
    if (sessionConfirm !== "adjourn") {
      const ask = el("button", "Levantar la sesión…", "leave");
      ask.type = "button";
      ask.dataset.focus = "session-ask";
      ask.addEventListener("click", async () => { sessionConfirm = "adjourn"; await agenda(true); });
      return [ask];
    }
    const cancel = el("button", "Cancelar", "leave");
    cancel.type = "button";
    cancel.dataset.focus = "session-cancel";
    cancel.addEventListener("click", async () => { sessionConfirm = null; await agenda(true); });
    return [cancel, el("p", "¿Levantar la sesión? Nada más se votará y nadie más podrá llegar. / Adjourn? Nothing more is voted.", "confirm"),
      button("Sí, levantar la sesión", "adjourn", "Sesión levantada / meeting adjourned", "danger")];
  };
  const actions = {
    "not-installed": [button("Instalar la reunión", "install", "Reunión instalada / meeting installed")],
    "in-session": [button("Suspender la reunión", "suspend", "Reunión suspendida / meeting suspended", "leave"), ...adjourn()],
    suspended: [button("Reanudar la reunión", "resume", "Reunión reanudada / meeting resumed"), ...adjourn()],
    adjourned: [],
  }[s.state];
  box.replaceChildren(...parts);
  // Typed first, then the act: the note sits between the steps and the
  // buttons, and is gone once the meeting is over.
  document.getElementById("sesion-acciones").replaceChildren(...actions);
  note.closest("p").hidden = s.state === "adjourned";
}

// An election's lists with their candidates, principal and suplente.
function candidatesOf(item) {
  if (!item.candidates) return null;
  const box = el("div", "", "rule");
  for (const list of item.candidates) {
    const people = list.candidates.map((c) => c.words).join("; ");
    box.append(el("div", list.list + ": " + people));
  }
  return box;
}

// An informative item's row: in its place, never voted.
function informativeRow(place, chair) {
  const row = document.createElement("tr");
  const title = el("td", place.title);
  title.append(el("div", "Punto informativo: no se vota / informative item, not voted", "rule"));
  row.append(title);
  if (chair) row.append(el("td", "—"), el("td", "informativo"), el("td", "", "num"), el("td"));
  else {
    row.append(el("td", "informativo"));
    for (let i = 0; i < 6; i++) row.append(el("td", "", "num"));
  }
  return row;
}

// ----- presidencia / secretaría: the agenda -----
function agendaRow(item, chair) {
  const row = document.createElement("tr");
  const state = { pending: "pendiente", open: "en votación", closed: item.outcome_es || "cerrado" }[item.state];
  const title = el("td", item.title);
  if (item.rule_es) {
    // The rule that decides it, before the poll opens.
    title.append(el("div", "Regla: " + item.rule_es + " (" + item.rule_source + ")", "rule"));
  }
  const candidates = candidatesOf(item);
  if (candidates) title.append(candidates);
  if (item.elected && item.elected.length) {
    title.append(el("div", "Elegidos / elected: " + item.elected.map((s) => s.candidate
      ? s.candidate.words : s.list + ": puesto sin candidato").join("; "), "rule"));
  }
  const stateCell = el("td", state, item.state === "closed" ? "decided" : "");
  // Why it came out so, with what was needed (the secretary's record).
  if (!chair && item.why_es) stateCell.append(el("div", item.why_es, "rule"));
  // While open, the shares voted so far (never how they voted), as a
  // share of the voting shares present, and since when it is open.
  if (chair && item.state === "open") {
    const present = lastStatus ? lastStatus.quorum.present_shares : 0;
    stateCell.append(el("div", n(item.shares_voted) + " acciones votadas, " + pct(bp(item.shares_voted, present))
      + " de las presentes / shares voted, of those present", "rule"));
    if (item.opened_at_ms) stateCell.append(el("div", "Abierta a las " + clock(item.opened_at_ms) + " / opened at", "rule"));
  }
  // The chair's table has room for the matter; the secretary's, with
  // every figure, gives it under the title.
  if (chair) row.append(title, el("td", item.matter_es), stateCell);
  else {
    title.insertBefore(el("div", item.matter_es, "rule"), title.childNodes[1] || null);
    row.append(title, stateCell);
  }
  if (chair) {
    row.append(labelled(el("td", item.state === "open" ? n(item.ballots) : "", "num"), "Votos"));
    row.append(chairAction(item));
  } else {
    const r = item.result || {};
    // A decision's figures in the law's words (words.js); an election's
    // blank votes and base (a single seat's E, a board's valid votes).
    const base = r.base !== undefined ? r.base : item.election_base;
    const figures = [r.for, r.against, r.blank, r.abstain, r.impeded, base];
    ["for", "against", "blank", "abstain", "impeded", "base"].forEach((key, i) =>
      row.append(labelled(el("td", n(figures[i]), "num"), FIGURES[key].es)));
  }
  return row;
}

// The chair's button for an item: open its poll in one step; close it in
// two, because a close cannot be undone (R16): the first press asks, in
// another colour, and puts «Cancelar» where the button was, so a double
// tap cancels.
let confirming = null;
function chairAction(item) {
  const cell = el("td");
  const post = async (button, action) => {
    button.disabled = true;
    const done = await api("POST", "/api/v1/items/" + encodeURIComponent(item.id) + "/" + action);
    confirming = null;
    say(done.ok ? (action === "open" ? "Votación abierta: " : "Votación cerrada: ") + item.title : failure(done), done.ok);
    await agenda(true);
  };
  const session = lastStatus && lastStatus.session ? lastStatus.session.state : "in-session";
  if (item.state === "pending" && session !== "in-session") {
    cell.append(el("span", { "not-installed": "Instale la reunión para abrir votaciones", suspended: "Reunión suspendida", adjourned: "Sesión levantada" }[session], "rule"));
  } else if (item.state === "pending") {
    const open = el("button", "Abrir la votación");
    open.type = "button";
    open.setAttribute("aria-label", "Abrir la votación: " + item.title + " / open the poll");
    open.addEventListener("click", () => post(open, "open"));
    cell.append(open);
  } else if (item.state === "open" && confirming !== item.id) {
    const close = el("button", "Cerrar la votación…", "leave");
    close.type = "button";
    close.dataset.focus = "close-" + item.id;
    close.setAttribute("aria-label", "Cerrar la votación…: " + item.title + " / close the poll…");
    close.addEventListener("click", async () => { confirming = item.id; await agenda(true); });
    cell.append(close);
  } else if (item.state === "open") {
    const cancel = el("button", "Cancelar", "leave");
    cancel.type = "button";
    cancel.dataset.focus = "cancel-" + item.id;
    cancel.setAttribute("aria-label", "Cancelar: no cerrar " + item.title + " / cancel");
    cancel.addEventListener("click", async () => { confirming = null; await agenda(true); });
    const ask = el("p", "¿Cerrar? Nadie podrá votar después; no se puede reabrir. / Close? No one can vote after; it cannot reopen.", "confirm");
    const sure = el("button", "Sí, cerrar la votación", "danger");
    sure.type = "button";
    sure.setAttribute("aria-label", "Sí, cerrar la votación: " + item.title + " / yes, close the poll");
    sure.addEventListener("click", () => post(sure, "close"));
    cell.append(cancel, ask, sure);
  }
  return cell;
}

// "14:05": a time of the ledger's clock, as the room's clocks read it.
// Colombia's time (UTC−5, no daylight saving), as the acta writes it.
const clock = (ms) => new Date(ms).toLocaleTimeString("es-CO", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "America/Bogota" });

// The agenda, redrawn row by row: a row whose figures did not change stays
// as it is, so the keyboard's focus stays where it was.
async function agenda(chair) {
  const data = await status();
  if (!data) return;
  const body = document.getElementById("agenda");
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.focus : null;
  if (chair) sessionPanel(data);
  // The whole agenda in its order (informative items in their place); a
  // meeting convened before it was recorded has its voted items only.
  const voted = Object.fromEntries(data.items.map((item) => [item.id, item]));
  const places = data.agenda && data.agenda.length ? data.agenda : data.items.map((item) => ({ id: item.id, informative: false }));
  const session = data.session ? data.session.state : "";
  const rows = places.map((place) => {
    const item = place.informative ? place : voted[place.id];
    const key = JSON.stringify([item, chair && lastStatus ? lastStatus.quorum.present_shares : 0, confirming === item.id, session]);
    const known = [...body.children].find((row) => row.dataset.item === item.id && row.dataset.key === key);
    if (known) return known;
    const row = place.informative ? informativeRow(place, chair) : agendaRow(item, chair);
    row.dataset.item = item.id;
    row.dataset.key = key;
    return row;
  });
  rows.forEach((row, i) => {
    if (body.children[i] !== row) {
      if (body.children[i]) body.children[i].replaceWith(row); else body.append(row);
    }
  });
  while (body.children.length > rows.length) body.lastChild.remove();
  // A row redrawn under the keyboard gives it back to the same control
  // (or to «Cancelar», where the close button was).
  if (focused && !document.activeElement.dataset.focus) {
    const again = body.querySelector('[data-focus="' + focused + '"]') || body.querySelector('[data-focus^="cancel-"]');
    if (again) again.focus();
  }
  if (confirming && !body.querySelector('[data-focus="cancel-' + confirming + '"]')) confirming = null;
  if (chair) {
    const cancel = confirming && body.querySelector('[data-focus="cancel-' + confirming + '"]');
    if (cancel && document.activeElement === document.body) cancel.focus();
    reading(data);
  } else seriesTable(data);
}

// The last item closed, as the chair reads it to the room (reading.js),
// with a link to the same reading in projector type.
function reading(data) {
  const closed = data.items.filter((item) => item.state === "closed");
  const panel = document.getElementById("lectura");
  if (!panel || closed.length === 0) return;
  const item = closed[closed.length - 1];
  const link = el("a", "Proyectar en la sala / show on the projector", "button");
  link.href = "/proyeccion?punto=" + encodeURIComponent(item.id);
  link.target = "_blank";
  document.getElementById("lectura-texto").replaceChildren(...readingOf(item, data.head), link);
  panel.hidden = false;
}

// ----- secretaría: the quorum series, as the acta records it -----
function seriesTable(data) {
  const body = document.getElementById("serie-tabla");
  if (!body) return;
  const titles = Object.fromEntries(data.items.map((item) => [item.id, item.title]));
  body.replaceChildren(...(data.quorum.series || []).map((p) => {
    const tr = document.createElement("tr");
    tr.append(el("td", titles[p.item] || p.item), el("td", p.moment === "open" ? "apertura / open" : "cierre / close"),
      labelled(el("td", n(p.present_shares), "num"), "Acciones"), labelled(el("td", p.percent.replace(" %", "\u00a0%"), "num"), "%"),
      labelled(el("td", n(p.holders), "num"), "Accionistas"), el("td", p.met ? "sí" : "NO", p.met ? "ok" : "no"));
    return tr;
  }));
}

// ----- secretaría: administrators and employees, impeded shares, withdrawal -----
async function minutes() {
  const r = await api("GET", "/api/v1/minutes");
  if (!r.ok) return;
  const shares = (h) => h.shares.PREF > 0 ? n(h.shares.ORD) + " ORD · " + n(h.shares.PREF) + " PREF" : n(h.shares.ORD) + " ORD";
  const roles = { administrator: "administrador", employee: "empleado" };
  document.getElementById("administradores").replaceChildren(...r.data.administrators.map((h) => {
    const row = document.createElement("tr");
    row.append(el("td", h.id), el("td", h.name), el("td", roles[h.role] || h.role), el("td", shares(h), "num"),
      el("td", h.present ? "presente" : "ausente", h.present ? "ok" : ""));
    return row;
  }));
  const titles = Object.fromEntries((lastStatus ? lastStatus.items : []).map((i) => [i.id, i.title]));
  const box = document.getElementById("retiro");
  box.replaceChildren(...r.data.items.map((item) => {
    const part = el("div", undefined, "minute");
    part.append(el("h3", titles[item.id] || item.id), el("p", "Acciones impedidas / impeded shares: " + n(item.impeded)));
    if (item.withdrawal) {
      part.append(el("p", item.withdrawal.length === 0 ? "Nadie puede ejercer el derecho de retiro." : "Pueden retirarse (ausentes y disidentes) / may withdraw:"));
      const list = el("ul");
      item.withdrawal.forEach((h) => list.append(el("li", h.id + " · " + h.name + " · " + shares(h))));
      part.append(list);
    }
    return part;
  }));
}

// ----- secretaría: written statements (constancias) for the acta -----
async function statements() {
  const list = document.getElementById("constancias");
  if (!list) return;
  const r = await api("GET", "/api/v1/statements");
  if (!r.ok) return;
  list.replaceChildren(...r.data.statements.map((st) => {
    const part = el("div", undefined, "minute");
    part.append(el("h3", (st.title || st.item) + " — " + (st.name ? st.name + " (" + st.person + ")" : st.person)));
    for (const line of st.text.split("\n")) part.append(el("p", line));
    return part;
  }));
  if (r.data.statements.length === 0) list.append(el("p", "Ninguna constancia todavía. / No statements yet.", "hint"));
}

function statementForm() {
  const form = document.getElementById("constancia");
  if (!form) return;
  const select = document.getElementById("constancia-punto");
  const fill = () => {
    if (!lastStatus || select.options.length > 0) return;
    // The whole agenda: a statement may be about an informative item too.
    const places = lastStatus.agenda && lastStatus.agenda.length ? lastStatus.agenda : lastStatus.items;
    for (const item of places) {
      const option = el("option", item.title);
      option.value = item.id;
      select.append(option);
    }
  };
  const box = document.getElementById("constancia-mensaje");
  document.getElementById("constancia-registrar").addEventListener("click", async () => {
    fill();
    const body = {
      item: select.value,
      person: document.getElementById("constancia-persona").value.trim(),
      text: document.getElementById("constancia-texto").value,
    };
    const r = await api("POST", "/api/v1/statements", body);
    box.textContent = r.ok ? "Constancia registrada (evento " + r.data.seq + "). / Statement recorded." : failure(r);
    box.className = r.ok ? "said ok" : "said no";
    if (r.ok) {
      document.getElementById("constancia-persona").value = "";
      document.getElementById("constancia-texto").value = "";
      await statements();
    }
  });
  return fill;
}

const kind = document.body.dataset.console;
if (kind === "registro") {
  desk(); agentDesk(); badgePrinting(); status().then(deskFigures);
  setInterval(() => status().then(deskFigures), 5000);
}
if (kind === "presidencia") { agenda(true); setInterval(() => agenda(true), 3000); }
if (kind === "secretaria") {
  const fillItems = statementForm();
  agenda(false).then(() => { fillItems(); minutes(); statements(); });
  setInterval(() => agenda(false).then(minutes), 5000);
}
