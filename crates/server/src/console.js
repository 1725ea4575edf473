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

function say(text, good) {
  const box = document.getElementById("mensaje");
  if (!box) return;
  box.textContent = text;
  box.className = good ? "said ok" : "said no";
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
}

let lastStatus = null;
async function status() {
  const r = await api("GET", "/api/v1/status");
  if (r.ok) { showQuorum(r.data.quorum); lastStatus = r.data; }
  return r.ok ? r.data : null;
}

// ----- registro: search the register and check holders in -----
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
    for (const h of r.data.holders) {
      const row = document.createElement("tr");
      const shares = h.preferred > 0 ? n(h.preferred) + " PREF" : n(h.ordinary) + " ORD";
      const where = h.present ? (h.via ? "presente, por " + h.via : "presente") : "ausente";
      row.append(el("td", h.id), el("td", h.name), el("td", shares, "num"), el("td", where, h.present ? "ok" : ""));
      const cell = el("td");
      // One button: a departure (the holder in person, or the agent who
      // carries them, and with the agent every holder they carry), or an
      // arrival.
      const person = h.via || h.id;
      const [label, kind, aria, path, body, said] = h.present
        ? [h.via ? "Registrar salida del apoderado" : "Registrar salida", "leave", "Registrar la salida de " + person,
          "/api/v1/checkouts", { person }, "Salida registrada: " + person + ". / Checked out."]
        : ["Registrar llegada", "", "Registrar la llegada de " + h.name + " (" + h.id + ")",
          "/api/v1/checkins", { holder: h.id }, "Llegada registrada: " + h.name + " (" + h.id + "). / Checked in."];
      const button = el("button", label, kind);
      button.type = "button";
      button.setAttribute("aria-label", aria);
      button.addEventListener("click", async () => {
        button.disabled = true;
        const done = await api("POST", path, body);
        if (done.ok) {
          say(said, true);
          await status();
          await search();
        } else {
          button.disabled = false;
          say(failure(done), false);
        }
      });
      cell.append(button);
      row.append(cell);
      rows.append(row);
    }
    count.textContent = r.data.matched > r.data.holders.length
      ? n(r.data.matched) + " coinciden; se muestran " + r.data.holders.length + ": escriba más para acotar. / " + n(r.data.matched) + " match."
      : n(r.data.matched) + (r.data.matched === 1 ? " coincide." : " coinciden.");
  }
  input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(search, 120); });
  input.focus();
  search();
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
      represents: document.getElementById("representados").value.split(",").map((s) => s.trim()).filter(Boolean),
      as: form.querySelector("input[name=calidad]:checked").value,
      power_document: document.getElementById("poder").value.trim(),
    };
    const role = document.getElementById("cargo").value;
    if (role) body.agent_role = role;
    return body;
  };
  const show = (text, good) => { verdict.textContent = text; verdict.className = good ? "said ok" : "said no"; };
  // Any change asks for a new check before the arrival can be confirmed.
  form.addEventListener("input", () => { confirm.disabled = true; verdict.textContent = ""; });
  document.getElementById("verificar").addEventListener("click", async () => {
    const r = await api("POST", "/api/v1/checkins/check", request());
    show(r.ok ? r.data.message + " / " + r.data.message_en : failure(r), r.ok);
    confirm.disabled = !r.ok;
  });
  confirm.addEventListener("click", async () => {
    confirm.disabled = true;
    const body = request();
    const r = await api("POST", "/api/v1/checkins", body);
    if (r.ok) {
      show("Llegada registrada: " + body.agent + " con " + body.represents.length + " representados. / Checked in.", true);
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

// ----- presidencia / secretaría: the agenda -----
function agendaRow(item, chair) {
  const row = document.createElement("tr");
  const state = { pending: "pendiente", open: "en votación", closed: item.outcome_es || "cerrado" }[item.state];
  const title = el("td", item.title);
  if (chair && item.rule_es) {
    // The rule that decides it, before the poll opens.
    title.append(el("div", "Regla: " + item.rule_es + " (" + item.rule_source + ")", "rule"));
  }
  row.append(title, el("td", item.matter_es), el("td", state, item.state === "closed" ? "decided" : ""));
  if (chair) {
    row.append(labelled(el("td", item.state === "open" ? n(item.ballots) : "", "num"), "Papeletas"));
    const cell = el("td");
    const action = item.state === "pending" ? ["open", "Abrir la votación", "open the poll"]
      : item.state === "open" ? ["close", "Cerrar la votación", "close the poll"] : null;
    if (action) {
      const button = el("button", action[1]);
      button.type = "button";
      button.setAttribute("aria-label", action[1] + ": " + item.title + " / " + action[2]);
      button.addEventListener("click", async () => {
        button.disabled = true;
        const done = await api("POST", "/api/v1/items/" + encodeURIComponent(item.id) + "/" + action[0]);
        say(done.ok ? (action[0] === "open" ? "Votación abierta: " : "Votación cerrada: ") + item.title : failure(done), done.ok);
        await agenda(true);
      });
      cell.append(button);
    }
    row.append(cell);
  } else {
    const r = item.result || {};
    const figures = [[r.for, "Sí"], [r.against, "No"], [r.blank, "En blanco"], [r.base, "Base"]];
    for (const [figure, label] of figures) row.append(labelled(el("td", n(figure), "num"), label));
  }
  return row;
}

async function agenda(chair) {
  const data = await status();
  if (!data) return;
  const body = document.getElementById("agenda");
  body.replaceChildren(...data.items.map((item) => agendaRow(item, chair)));
  if (chair) reading(data);
}

// The last item closed, as the chair reads it to the room: the decision,
// the rule, every figure with its share of the base, and the chain's head.
function reading(data) {
  const closed = data.items.filter((item) => item.state === "closed");
  const panel = document.getElementById("lectura");
  if (!panel || closed.length === 0) return;
  const item = closed[closed.length - 1];
  const r = item.result || {};
  const box = document.getElementById("lectura-texto");
  const lines = [el("p", item.title + ": " + (item.outcome_es || r.outcome), "decision")];
  lines.push(el("p", "Regla aplicada: " + item.rule_es + " (" + item.rule_source + ").", "rule"));
  const part = (label, value) => value === undefined ? null
    : el("li", label + ": " + n(value) + " acciones" + (r.base > 0 ? " (" + (Math.floor(value * 10000 / r.base) / 100).toLocaleString("es-CO", { minimumFractionDigits: 2 }) + "\u00a0% de la base)" : ""));
  if (r.seats) {
    const list = el("ul");
    for (const [name, seats] of Object.entries(r.seats)) {
      list.append(el("li", name + ": " + seats + (seats === 1 ? " puesto" : " puestos") + ", " + n(r.votes[name]) + " votos"));
    }
    lines.push(list);
    if (r.lot_between) lines.push(el("p", "Empate en el último puesto: se decide por sorteo entre " + r.lot_between.join(", ") + "."));
  } else {
    const list = el("ul");
    [part("Sí", r.for), part("No", r.against), part("En blanco", r.blank), part("Abstención", r.abstain), part("Impedidas", r.impeded)]
      .filter(Boolean).forEach((li) => list.append(li));
    list.append(el("li", "Base de la decisión: " + n(r.base) + " acciones"));
    lines.push(list);
  }
  if (data.head) lines.push(el("p", "Cabeza de la cadena / chain head " + data.head.seq + ": " + data.head.head, "head"));
  box.replaceChildren(...lines);
  panel.hidden = false;
}

// ----- secretaría: administrators and employees, impeded shares, withdrawal -----
async function minutes() {
  const r = await api("GET", "/api/v1/minutes");
  if (!r.ok) return;
  const shares = (h) => h.preferred > 0 ? n(h.ordinary) + " ORD · " + n(h.preferred) + " PREF" : n(h.ordinary) + " ORD";
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

const kind = document.body.dataset.console;
if (kind === "registro") { desk(); agentDesk(); status(); setInterval(status, 5000); }
if (kind === "presidencia") { agenda(true); setInterval(() => agenda(true), 3000); }
if (kind === "secretaria") {
  agenda(false).then(minutes);
  setInterval(() => agenda(false).then(minutes), 5000);
}
