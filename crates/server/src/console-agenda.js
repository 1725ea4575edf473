// The chair's and the secretary's consoles (/presidencia, /secretaria):
// the sessions, the whole agenda with each poll's button or figures, the
// reading of the last result, the quorum series, the minutes' lists and
// the written statements. Loaded before console.js, whose helpers it
// calls and which starts it.
"use strict";
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
    // A meeting with poll timing (rules.md §11.5): the close is announced
    // with its countdown, and the close button waits for it. One whose
    // timing is 0 and 0 closes at once, as before. (The screen's clock
    // reads the daemon's to the second below: it may enable a close up
    // to a second late, never early.)
    const timed = item.min_countdown_ms !== undefined
      && (item.min_countdown_ms > 0 || item.closes_from_ms > item.opened_at_ms);
    if (timed && item.min_countdown_ms > 0) {
      const words = (item.close_announced_at_ms ? "Anunciar de nuevo el cierre: " : "Anunciar el cierre: ") + lapse(item.min_countdown_ms);
      const announce = el("button", words);
      announce.type = "button";
      announce.dataset.focus = "announce-" + item.id;
      announce.setAttribute("aria-label", words + " — " + item.title + " / announce the close");
      announce.addEventListener("click", async () => {
        announce.disabled = true;
        const done = await api("POST", "/api/v1/items/" + encodeURIComponent(item.id) + "/announce-close", { countdown_seconds: Math.round(item.min_countdown_ms / 1000) });
        say(done.ok ? "Cierre anunciado: " + item.title : failure(done), done.ok);
        await agenda(true);
      });
      cell.append(announce);
    }
    if (item.close_announced_at_ms) {
      const countdown = el("p", "", "countdown");
      countdown.dataset.until = item.close_announced_at_ms + item.close_countdown_ms;
      cell.append(countdown);
    }
    const close = el("button", "Cerrar la votación…", "leave");
    close.type = "button";
    close.dataset.focus = "close-" + item.id;
    close.setAttribute("aria-label", "Cerrar la votación…: " + item.title + " / close the poll…");
    close.addEventListener("click", async () => { confirming = item.id; await agenda(true); });
    cell.append(close);
    if (timed) {
      const wait = el("p", "", "rule");
      wait.id = "espera-" + item.id;
      close.setAttribute("aria-describedby", wait.id);
      close.dataset.from = item.closes_from_ms === undefined ? "announce" : item.closes_from_ms;
      cell.append(wait);
    }
    gates(cell);
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

// "1 min 12 s": a lapse, seconds rounded up (a chair told «0 s» would
// press and be refused).
function lapse(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(seconds / 60), s = seconds % 60;
  if (m === 0) return s + " s";
  return s === 0 ? m + " min" : m + " min " + String(s).padStart(2, "0") + " s";
}

// The countdowns and the close buttons that wait for them, on the
// daemon's clock: a button is enabled once the close is allowed, and
// says until then why not.
function gates(root) {
  const now = Date.now() + skew;
  for (const countdown of root.querySelectorAll("[data-until]")) {
    const left = Number(countdown.dataset.until) - now;
    countdown.textContent = left > 0 ? "Cierre en " + lapse(left) + " / closes in" : "Cuenta regresiva terminada / countdown over";
  }
  for (const button of root.querySelectorAll("button[data-from]")) {
    const wait = document.getElementById(button.getAttribute("aria-describedby"));
    const from = button.dataset.from;
    const left = from === "announce" ? null : Number(from) - now;
    button.disabled = from === "announce" || left > 0;
    if (wait) {
      wait.textContent = from === "announce"
        ? "Anuncie el cierre con su cuenta regresiva antes de cerrar. / Announce the close first."
        : left > 0 ? "Faltan " + lapse(left) + " para poder cerrar la votación. / " + lapse(left) + " left before the poll may close." : "";
    }
  }
}
setInterval(() => { const body = document.getElementById("agenda"); if (body) gates(body); }, 1000);

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
