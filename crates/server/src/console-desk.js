// The registration desk's console (/registro): the register's search,
// arrivals in person and by agent, exits, badges drawn and printed in this
// browser, and the desk's figures. Loaded before console.js, whose
// helpers it calls and which starts it.
"use strict";
// ----- registro: search the register and check holders in -----
// A company (a NIT) arrives "in person" through a natural person: the desk
// types who attends and their document, for the badge, the kiosk and the
// acta. Natural persons' ids (CC, CE, PA, TI) need nothing more.
const isCompany = (id) => /^nit/i.test(id);
const whoIs = (name, id) => name ? name + " (" + id + ")" : id;
// Whoever votes a holder's shares, by name: the agent, or the holder.
const who = (h) => h.via ? whoIs(h.attendee_name, h.via) : whoIs(h.attendee_name || h.name, h.id);
// Every class of a holding (a holder of both showed only its preferred
// shares once): "1.200 ORD · 30 PREF".
const sharesText = (shares) => [shares.ORD > 0 || !(shares.PREF > 0) ? n(shares.ORD) + "\u00a0ORD" : "",
  shares.PREF > 0 ? n(shares.PREF) + "\u00a0PREF" : ""].filter(Boolean).join(" · ");

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
    const shares = sharesText(h.shares);
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
  // The admission's field has the focus (console-powers.js); an arrival
  // recorded there redraws this list.
  document.addEventListener("admitted", () => search());
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

// The badge laid out to print. `back` is the field the keyboard returns
// to when the view closes; from the admission, the keyboard stays there
// for the next scan (an Enter must never print or admit by mistake).
async function showBadge(number, seed, back) {
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
  area.dataset.back = back;
  if (back === "buscar") {
    area.scrollIntoView();
    document.getElementById("imprimir").focus();
  }
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
    const r = await issueBadge(person, badge, shown, "buscar");
    if (!r.ok) { button.disabled = false; if (r.status !== undefined) say(failure(r), false); return; }
    done();
  });
  return button;
}

// Issues `person` a badge (or replaces `badge`, revoked in the same
// action) and lays it out to print, saying so in the status line: the
// API's answer (`ok`, `status`, `data`); without `status` when this
// browser could not draw the key (said here).
async function issueBadge(person, badge, shown, back) {
  let drawn;
  try {
    drawn = await drawBadgeKey();
  } catch (_) {
    say("Este navegador no puede crear la clave de la credencial (Ed25519 en WebCrypto): use un Chromium o Firefox reciente, o imprima con «asamblea badges». / This browser cannot make the badge's key.", false);
    return { ok: false };
  }
  const { seed, key } = drawn;
  const r = badge
    ? await api("POST", "/api/v1/badges/" + badge + "/reissue", { key })
    : await api("POST", "/api/v1/badges", { person, key });
  if (!r.ok) { seed.fill(0); return r; }
  // The badge first, then the words that say it is there.
  if (await showBadge(r.data.credential, seed, back)) say((badge ? "Credencial n.º " + badge + " revocada; nueva credencial n.º " : "Credencial n.º ") + r.data.credential + " para " + shown + ": imprímala. / Badge issued.", true);
  await deskFigures();
  return r;
}

function badgePrinting() {
  const area = document.getElementById("impresion");
  if (!area) return;
  const close = () => { document.getElementById("credencial").replaceChildren(); area.hidden = true; document.getElementById(area.dataset.back || "buscar").focus(); };
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
