// The desk's verification of remote attendees (console/remote.rs): the
// registrations waiting, each with the method, the evidence and the
// button that records identity-verified and binds the key; and the
// chair's queue of questions and statements sent from afar, each with
// what was done with it. Uses `api`, `el`, `failure`, `clock`, `n` of
// console.js.
"use strict";

const METHODS = [
  ["video-call", "Videollamada", "video call"],
  ["identity-document", "Documento de identidad", "identity document"],
  ["admission-code", "Código de la carta de admisión", "admission letter's code"],
];

async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

function remoteSay(text, good) {
  const box = document.getElementById("remote-mensaje");
  box.textContent = text;
  box.className = "said " + (good ? "ok" : "no");
}

function pendingCard(p, i) {
  const li = el("li", undefined, "pendiente");
  li.dataset.key = p.key;
  const form = el("form");
  form.append(el("h3", p.name + " (" + p.person + ")"));
  form.append(el("p", p.known_as ? "En el registro: " + p.known_as + " / in the register" :
    "No está en el libro de accionistas ni en un poder aceptado. / Not in the register nor in an accepted power."));
  const print = el("p", "Huella: ");
  print.append(el("strong", p.fingerprint, "huella"));
  form.append(print);
  const method = el("select");
  method.id = "metodo-" + i;
  for (const [code, es, en] of METHODS) {
    const option = el("option", es + " / " + en);
    option.value = code;
    method.append(option);
  }
  const methodLabel = el("label", "Método de verificación / method");
  methodLabel.htmlFor = method.id;
  const file = el("input");
  Object.assign(file, { type: "file", id: "evidencia-" + i });
  const fileLabel = el("label", "Evidencia: un archivo / evidence: a file");
  fileLabel.htmlFor = file.id;
  const typed = el("input");
  Object.assign(typed, { type: "text", id: "referencia-" + i, autocomplete: "off" });
  const typedLabel = el("label", "o una referencia escrita / or a typed reference");
  typedLabel.htmlFor = typed.id;
  const button = el("button", "Verificar y habilitar ");
  button.type = "submit";
  button.append(el("span", "verify and enable", "en"));
  form.append(methodLabel, method, fileLabel, file, typedLabel, typed, button);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    let evidence;
    if (file.files.length > 0) evidence = await sha256Hex(await file.files[0].arrayBuffer());
    else if (typed.value.trim()) evidence = await sha256Hex(new TextEncoder().encode(typed.value.trim()));
    else { remoteSay("Adjunte la evidencia o escriba su referencia. / Attach the evidence or type its reference.", false); typed.focus(); return; }
    const r = await api("POST", "/api/v1/remote/verifications", { key: p.key, method: method.value, evidence });
    if (!r.ok) { remoteSay(failure(r), false); return; }
    remoteSay(p.name + " quedó habilitado con la credencial remota " + r.data.credential + ". / " +
      p.name + " is enabled with remote credential " + r.data.credential + ".", true);
    remoteDesk();
  });
  li.append(form);
  return li;
}

async function remoteDesk() {
  const list = document.getElementById("remote-pendientes");
  if (!list) return;
  const r = await api("GET", "/api/v1/remote/pending");
  if (!r.ok) return;
  // Keep the cards being filled in: replace only when the list changed.
  const keys = r.data.pending.map((p) => p.key).join("|");
  if (list.dataset.keys === keys) return;
  list.dataset.keys = keys;
  list.replaceChildren(...r.data.pending.map(pendingCard));
  document.getElementById("remote-vacio").hidden = r.data.pending.length > 0;
}

// ----- presidencia: the floor from afar (§3.31–3.32) -----

const OUTCOME_WORDS = { read: "Leída / read", answered: "Respondida / answered", "not-read": "No leída / not read" };

function floorSay(text, good) {
  const box = document.getElementById("floor-mensaje");
  box.textContent = text;
  box.className = "said " + (good ? "ok" : "no");
}

function floorCard(s) {
  const li = el("li", undefined, "intervencion");
  const what = s.kind === "statement" ? "Constancia escrita / written statement" : "Pregunta / question";
  const about = s.item ? " · sobre / about " + s.item : " · la reunión en general / the meeting as a whole";
  li.append(el("h3", "N.º " + n(s.seq) + " · " + clock(s.time_ms) + " · " + what));
  li.append(el("p", s.name + " (" + s.person + ")" + about));
  li.append(el("blockquote", s.text));
  if (s.outcome) {
    li.append(el("p", OUTCOME_WORDS[s.outcome] + (s.note ? ": " + s.note : ""), "tramitada"));
    return li;
  }
  const form = el("form");
  const note = el("input");
  Object.assign(note, { type: "text", id: "nota-" + s.seq, maxLength: 256, autocomplete: "off" });
  const noteLabel = el("label", "Nota (obligatoria si no se lee) / note (required if not read)");
  noteLabel.htmlFor = note.id;
  form.append(noteLabel, note);
  for (const [outcome, es, en] of [["read", "Leída", "read"], ["answered", "Respondida", "answered"], ["not-read", "No leída", "not read"]]) {
    const button = el("button", es + " ");
    button.type = "button";
    button.append(el("span", en, "en"));
    button.addEventListener("click", async () => {
      if (outcome === "not-read" && !note.value.trim()) {
        floorSay("Escriba por qué no se lee (por ejemplo: repetida). / Write why it is not read.", false);
        note.focus();
        return;
      }
      const r = await api("POST", "/api/v1/floor/" + s.seq, { outcome, note: note.value.trim() });
      if (!r.ok) { floorSay(failure(r), false); return; }
      floorSay("N.º " + n(s.seq) + ": " + OUTCOME_WORDS[outcome] + ".", true);
      floorQueue();
    });
    form.append(button);
  }
  li.append(form);
  return li;
}

async function floorQueue() {
  const list = document.getElementById("intervenciones");
  if (!list) return;
  const r = await api("GET", "/api/v1/floor");
  if (!r.ok) return;
  // Keep a note being typed: replace only when something changed.
  const shape = r.data.submissions.map((s) => s.seq + ":" + (s.outcome || "")).join("|");
  if (list.dataset.shape === shape) return;
  list.dataset.shape = shape;
  list.replaceChildren(...r.data.submissions.map(floorCard));
  document.getElementById("floor-vacio").hidden = r.data.submissions.length > 0;
}
