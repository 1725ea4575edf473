// The remote attendee's page (/remoto, remote/page.rs): served by the
// daemon, no inline script (CSP). The browser makes an Ed25519 key with
// WebCrypto that cannot be exported, keeps it in IndexedDB on this device,
// and signs every message with it: the registration (its proof), the
// arrival, the heartbeats, the ballots, the questions and statements, the
// departure. The bytes are those of docs/ledger-format.md (§3.9,
// §3.27–3.29, §3.31, §4), held to its vectors of §10.13–10.14 by a browser
// test (crates/cli/tests/it/remote_page.rs). In the meeting the page
// follows the live feed (/api/v1/feed) and sends a heartbeat every
// heartbeat_seconds; it asks for its ballot sheet only when the open
// items change.
"use strict";

// ----- the bytes (docs/ledger-format.md §1) ---------------------------------

const utf8 = new TextEncoder();
const hexOf = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
function bytesOf(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}
function concat(parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}
const u8 = (v) => Uint8Array.of(v);
const u16 = (v) => { const b = new Uint8Array(2); new DataView(b.buffer).setUint16(0, v); return b; };
const u32 = (v) => { const b = new Uint8Array(4); new DataView(b.buffer).setUint32(0, v); return b; };
const u64 = (v) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, BigInt(v)); return b; };
const str = (s) => { const b = utf8.encode(s); return concat([u32(b.length), b]); };
// Ids are ordered by their UTF-8 bytes (§1), which is not JavaScript's order.
function byBytes(a, b) {
  const x = utf8.encode(a), y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

const KINDS = { 0x0b: "ballot", 0x1f: "checked-in-remote", 0x20: "checked-out-remote", 0x21: "remote-registration",
  0x22: "remote-heartbeat", 0x24: "remote-submission" };

// §3.28: who this browser registers for, with the key it made.
function encodeRegistration(key, person, name) {
  return concat([u8(0x21), u8(2), key, str(person), str(name)]);
}
// §3.9: votes [{holder, option}] or [{holder, split: [{option, shares}]}].
function encodeBallot(nonce, item, credential, votes) {
  const sorted = votes.slice().sort((a, b) => byBytes(a.holder, b.holder));
  const parts = [u8(0x0b), u8(2), nonce, str(item), u32(credential), u32(sorted.length)];
  for (const v of sorted) {
    parts.push(str(v.holder));
    if (v.split) {
      parts.push(u8(2), u32(v.split.length));
      for (const p of v.split.slice().sort((a, b) => a.option - b.option)) parts.push(u16(p.option), u64(p.shares));
    } else {
      parts.push(u8(1), u16(v.option));
    }
  }
  return concat(parts);
}
// §3.27.
function encodeArrival(nonce, credential, principals) {
  const sorted = principals.slice().sort(byBytes);
  return concat([u8(0x1f), u8(2), nonce, u32(credential), u32(sorted.length), ...sorted.map(str)]);
}
function encodeDeparture(nonce, credential) {
  return concat([u8(0x20), u8(2), nonce, u32(credential)]);
}
// §3.29: a sign of life; the counter is this browser's clock, in ms.
function encodeHeartbeat(key, counter) {
  return concat([u8(0x22), u8(2), key, u64(counter)]);
}
// §3.31: kind 1 question, 2 written statement; item "" for none.
function encodeSubmission(nonce, credential, kind, item, text) {
  const about = item ? concat([u32(1), str(item)]) : u32(0);
  return concat([u8(0x24), u8(2), nonce, u32(credential), u8(kind), about, str(text)]);
}
// §4: domain ‖ 0x00 ‖ meeting ‖ message.
function signingInput(meeting, message) {
  return concat([utf8.encode("asamblea/" + KINDS[message[0]] + "/v2"), u8(0), meeting, message]);
}
async function signWith(privateKey, meeting, message) {
  return new Uint8Array(await crypto.subtle.sign({ name: "Ed25519" }, privateKey, signingInput(meeting, message)));
}
// §3.28: the first 8 bytes of SHA-256 of the key, in four groups.
async function fingerprint(key) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", key));
  return hexOf(digest.slice(0, 8)).toUpperCase().match(/.{4}/g).join(" ");
}
const nonce = () => crypto.getRandomValues(new Uint8Array(16));

window.asambleaRemote = { hexOf, bytesOf, encodeRegistration, encodeBallot, encodeArrival, encodeDeparture,
  encodeHeartbeat, encodeSubmission, signingInput, signWith, fingerprint };

// ----- the key, kept on this device -----------------------------------------

const root = document.getElementById("remoto");
const meetingHex = root ? root.dataset.meeting : "";
const meeting = bytesOf(meetingHex || "");

function store(mode, act) {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open("asamblea-remoto", 1);
    open.onupgradeneeded = () => open.result.createObjectStore("claves");
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const tx = open.result.transaction("claves", mode);
      const request = act(tx.objectStore("claves"));
      tx.oncomplete = () => resolve(request && request.result);
      tx.onerror = () => reject(tx.error);
    };
  });
}
const loadKey = () => store("readonly", (s) => s.get(meetingHex));
const saveKey = (record) => store("readwrite", (s) => s.put(record, meetingHex));
const forgetKey = () => store("readwrite", (s) => s.delete(meetingHex));

// ----- talking to the daemon --------------------------------------------------

async function call(method, path, body) {
  try {
    const response = await fetch(path, {
      method, headers: body ? { "content-type": "application/json" } : {}, body: body ? JSON.stringify(body) : undefined,
    });
    let data = null;
    try { data = await response.json(); } catch (_) { data = null; }
    return { ok: response.ok, status: response.status, data };
  } catch (_) {
    return { ok: false, status: 0, data: null };
  }
}
function failure(r) {
  if (r.status === 0) return "Sin conexión: revise su internet y vuelva a intentarlo. / No connection.";
  const e = r.data && r.data.error;
  return e ? e.message + " / " + e.message_en : "Error " + r.status;
}
const el = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};
const n = (v) => Number(v).toLocaleString("es-CO");
function say(text, good) {
  sayAs(text, good ? "ok" : "no");
}
// `kind`: ok (green), no (red: something to do), leave (amber: to know).
function sayAs(text, kind) {
  const box = document.getElementById("aviso");
  box.textContent = text;
  box.className = "said " + kind;
}
function show(step) {
  for (const id of ["paso-inscripcion", "paso-espera", "paso-unirse", "paso-reunion", "paso-fin"]) {
    document.getElementById(id).hidden = id !== step;
  }
}

// ----- the page ---------------------------------------------------------------

let record = null;     // {privateKey, publicKey, person, name}
let current = null;    // the last RemoteStatus
const receipts = [];   // what was voted here, with its receipt

async function signed(message) {
  const signature = await signWith(record.privateKey, meeting, message);
  return { event: hexOf(message), signer: hexOf(record.publicKey), signature: hexOf(signature) };
}

async function register(person, name) {
  if (!record) {
    // Not extractable: the private key never leaves this browser.
    const pair = await crypto.subtle.generateKey({ name: "Ed25519" }, false, ["sign", "verify"]);
    const publicKey = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
    record = { privateKey: pair.privateKey, publicKey, person, name };
    await saveKey(record);
  }
  const message = encodeRegistration(record.publicKey, record.person, record.name);
  const proof = await signWith(record.privateKey, meeting, message);
  return call("POST", "/api/v1/remote/registrations", { registration: hexOf(message), proof: hexOf(proof) });
}

async function refresh() {
  if (!record) { show("paso-inscripcion"); return; }
  const r = await call("GET", "/api/v1/remote/registrations/" + hexOf(record.publicKey));
  if (r.status === 404) { await register(record.person, record.name); return; }
  if (!r.ok) { say(failure(r), false); return; }
  current = r.data;
  document.querySelectorAll(".huella").forEach((node) => { node.textContent = current.fingerprint; });
  if (current.state === "pending") show("paso-espera");
  else if (current.state === "revoked") { stopMeeting(); show("paso-fin"); }
  else if (current.attending === "remote") { show("paso-reunion"); startMeeting(); }
  else if (current.lapsed && !leftHere) { await join(true); }
  else {
    stopMeeting();
    show("paso-unirse");
    document.getElementById("en-sala").hidden = current.attending !== "room";
  }
}

// `back`: the daemon ended the stay for want of heartbeats (the phone was
// off the network) and the page records the return by itself.
async function join(back) {
  const r = await call("POST", "/api/v1/remote/presence", await signed(encodeArrival(nonce(), current.credential, current.principals)));
  if (r.ok) {
    leftHere = false;
    const at = new Date().toLocaleTimeString("es-CO", { hour: "2-digit", minute: "2-digit", hour12: false });
    // A return is good news, told in amber: nothing is to be done, but
    // the minutes record the interruption.
    if (back) {
      sayAs("Volvió a la reunión a las " + at + ". Mientras su conexión estuvo caída su presencia se interrumpió, y el acta lo dice. / "
        + "You are back in the meeting; while your connection was down your presence was interrupted, as the minutes say.", "leave");
    } else say("Usted ya está en la reunión, a distancia. / You are in the meeting, remotely.", true);
    await refresh();
  } else say(failure(r), false);
}

let leftHere = false; // left from this page: never brought back by itself
async function leave() {
  const r = await call("POST", "/api/v1/remote/presence", await signed(encodeDeparture(nonce(), current.credential)));
  if (r.ok) { leftHere = true; say("Su salida quedó registrada. / Your departure was recorded.", true); await refresh(); }
  else say(failure(r), false);
}

// ----- in the meeting: the live feed and the heartbeat ------------------------

let feed = null;       // the EventSource while in the meeting
let beating = null;    // the heartbeat's timer
let lastCounter = 0;
let shownOpen = null;  // the open items' ids the sheet was last asked for

function startMeeting() {
  if (!feed) {
    feed = new EventSource("/api/v1/feed");
    // The banner goes only when a heartbeat gets through: a feed still
    // open says nothing of whether this phone's presence is held.
    feed.onmessage = (e) => {
      const m = JSON.parse(e.data);
      if (m.type === "status") onStatus(m.status);
      if (m.type === "result") onResult(m.item, m.result);
    };
    feed.onerror = () => { document.getElementById("sin-conexion").hidden = false; };
  }
  if (!beating) {
    beat();
    beating = setInterval(beat, Math.max(1, current.heartbeat_seconds) * 1000);
  }
}

function stopMeeting() {
  if (feed) { feed.close(); feed = null; }
  if (beating) { clearInterval(beating); beating = null; }
  shownOpen = null;
}

async function beat() {
  const counter = Math.max(Date.now(), lastCounter + 1);
  lastCounter = counter;
  const message = encodeHeartbeat(record.publicKey, counter);
  const proof = await signWith(record.privateKey, meeting, message);
  const r = await call("POST", "/api/v1/remote/heartbeat", { heartbeat: hexOf(message), proof: hexOf(proof) });
  if (r.status === 0) { document.getElementById("sin-conexion").hidden = false; return; }
  document.getElementById("sin-conexion").hidden = true;
  if (!r.ok || r.data.attending !== "remote") await refresh();
}

// The status from the feed: the quorum, the results, and the ballot sheet
// when the open items change (asked a moment later on each phone, so that
// thousands do not ask at the same instant).
function onStatus(status) {
  const q = status.quorum;
  document.getElementById("quorum").textContent = (q.met ? "Hay quórum: " : "No hay quórum: ") + n(q.present_shares) +
    " acciones presentes (" + q.percent + "). / " + (q.met ? "Quorum met." : "No quorum.");
  agendaChoices(status.agenda || []);
  results(status.items.filter((item) => item.state === "closed"));
  // The open items and any close announced: either change asks for the
  // sheet again (it says how long each countdown has left).
  const open = status.items.filter((item) => item.state === "open")
    .map((item) => item.id + "@" + (item.close_announced_at_ms || "")).join("|");
  if (open !== shownOpen) {
    shownOpen = open;
    setTimeout(sheetNow, Math.floor(Math.random() * 1500));
  }
}

async function sheetNow() {
  const sheet = await call("GET", "/api/v1/remote/sheet/" + hexOf(record.publicKey));
  if (!sheet.ok) { say(failure(sheet), false); return; }
  const list = document.getElementById("puntos");
  const open = sheet.data.open_items.filter((item) => !receipts.some((x) => x.item === item.id));
  for (const item of open) {
    if (item.close_in_ms !== null && item.close_in_ms !== undefined) closing.set(item.id, Date.now() + item.close_in_ms);
  }
  const shown = Array.from(list.children).map((c) => c.dataset.item).join("|");
  if (shown !== open.map((i) => i.id).join("|")) { // else keep what the person chose
    list.replaceChildren(...open.map(itemCard));
    document.getElementById("sin-puntos").hidden = open.length > 0;
  }
  countdowns();
}

// The close the chair announced, counted down on each card (as every
// screen does) from what the daemon said was left when it answered.
const closing = new Map();
function countdowns() {
  for (const card of document.querySelectorAll("#puntos form.punto")) {
    const until = closing.get(card.dataset.item);
    if (until === undefined) continue;
    let box = card.querySelector(".cierre");
    if (!box) {
      box = el("p", undefined, "cierre");
      box.setAttribute("role", "timer");
      card.querySelector("h3").after(box);
    }
    const seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    const m = Math.floor(seconds / 60), sec = seconds % 60;
    const left = (m > 0 ? m + " min " : "") + String(sec).padStart(m > 0 ? 2 : 1, "0") + " s";
    box.textContent = seconds > 0
      ? "La presidencia anunció el cierre: vote ahora; puede cerrarse en " + left + ". / The chair announced the close: it may close in " + left + "."
      : "La presidencia anunció el cierre: vote ahora, puede cerrarse en cualquier momento. / It may close at any moment.";
  }
}
setInterval(countdowns, 1000);

// The result of each closed item, read once as it closes.
const OUTCOMES = { pass: "Aprobado / passed", fail: "No aprobado / not passed", elected: "Elegidos / elected",
  "all-impeded": "Todas las acciones impedidas / all shares impeded", "lot-required": "Pendiente de sorteo / lot required" };
const outcomes = new Map();
function onResult(item, result) {
  const title = (outcomes.get(item) || {}).title || item;
  outcomes.set(item, { title, outcome: result.outcome });
  showResults();
}
async function results(closed) {
  for (const item of closed) {
    const known = outcomes.get(item.id);
    if (known && known.outcome) { known.title = item.title; continue; }
    const r = await call("GET", "/api/v1/results/" + encodeURIComponent(item.id));
    if (r.ok && r.data) outcomes.set(item.id, { title: item.title, outcome: r.data.outcome });
  }
  showResults();
}
function showResults() {
  const list = document.getElementById("resultados");
  list.replaceChildren(...Array.from(outcomes.values()).map((x) => {
    const li = el("li", x.title + ": ");
    li.append(el("strong", OUTCOMES[x.outcome] || x.outcome));
    return li;
  }));
  document.getElementById("seccion-resultados").hidden = outcomes.size === 0;
}

// ----- the floor from afar (§3.31): a question or a written statement ------

function agendaChoices(agenda) {
  const select = document.getElementById("sobre");
  const ids = agenda.map((a) => a.id).join("|");
  if (select.dataset.ids === ids) return;
  select.dataset.ids = ids;
  const general = el("option", "La reunión en general / the meeting as a whole");
  general.value = "";
  select.replaceChildren(general, ...agenda.map((a) => {
    const option = el("option", a.title);
    option.value = a.id;
    return option;
  }));
}

const sent = []; // what was sent from here, with its record's number
async function submit(e) {
  e.preventDefault();
  const text = document.getElementById("texto").value.trim();
  if (!text) { say("Escriba su pregunta o constancia antes de enviarla. / Write it first.", false); return; }
  const kind = document.querySelector("input[name=clase]:checked").value === "constancia" ? 2 : 1;
  const item = document.getElementById("sobre").value;
  const r = await call("POST", "/api/v1/remote/submissions", await signed(encodeSubmission(nonce(), current.credential, kind, item, text)));
  if (!r.ok) { say(failure(r), false); return; }
  document.getElementById("texto").value = "";
  sent.push({ seq: r.data.seq, kind, text });
  const what = kind === 2 ? "Su constancia" : "Su pregunta";
  say(what + " quedó registrada con el n.º " + n(r.data.seq) + "; la presidencia la ve en su lista. / Recorded as record " + r.data.seq + ".", true);
  document.getElementById("enviadas").replaceChildren(...sent.map((x) =>
    el("li", (x.kind === 2 ? "Constancia" : "Pregunta") + " n.º " + n(x.seq) + ": " + x.text)));
  document.getElementById("seccion-enviadas").hidden = false;
}

function itemCard(item) {
  const card = el("form", undefined, "punto");
  card.dataset.item = item.id;
  const titleId = "t-" + item.id;
  card.setAttribute("aria-labelledby", titleId);
  const h = el("h3", item.title);
  h.id = titleId;
  card.append(h, el("p", item.matter_es + " / " + item.matter_en, "en"));
  item.holders.forEach((holder, i) => {
    const set = el("fieldset");
    set.append(el("legend", holder.name + " (" + holder.holder + ") — " + n(holder.shares) + " acciones"));
    if (!holder.may_vote) {
      set.append(el("p", (holder.reason_es || "No vota en este punto.") + " / " + (holder.reason_en || "")));
    } else {
      for (const option of item.options) {
        const id = "o-" + item.id + "-" + i + "-" + option.index;
        const input = el("input");
        Object.assign(input, { type: "radio", id, name: "h-" + i, value: String(option.index) });
        input.dataset.holder = holder.holder;
        const label = el("label", option.es + " ");
        label.htmlFor = id;
        label.append(el("span", option.en, "en"));
        const row = el("div", undefined, "opcion");
        row.append(input, label);
        set.append(row);
      }
    }
    card.append(set);
  });
  if (!item.holders.some((holder) => holder.may_vote)) {
    card.append(el("p", "Nadie a quien usted representa vota en este punto. / No one you represent votes on this item."));
    return card;
  }
  const button = el("button", "Firmar y enviar mi voto ");
  button.type = "submit";
  button.append(el("span", "sign and send my vote", "en"));
  card.append(button);
  card.addEventListener("submit", (e) => { e.preventDefault(); vote(item, card); });
  return card;
}

async function vote(item, card) {
  const votes = Array.from(card.querySelectorAll("input:checked"))
    .map((input) => ({ holder: input.dataset.holder, option: Number(input.value) }));
  if (votes.length === 0) { say("Elija una opción antes de enviar. / Choose an option first.", false); return; }
  const message = encodeBallot(nonce(), item.id, current.credential, votes);
  const body = await signed(message);
  // The same bytes again until the daemon answers (a lost answer is not a lost vote).
  let r;
  for (let attempt = 0; attempt < 5; attempt++) {
    r = await call("POST", "/api/v1/remote/ballots", body);
    if (r.status !== 0 && r.status !== 409 && r.status !== 503) break;
    await new Promise((ok) => setTimeout(ok, 2000));
  }
  if (!r.ok) { say(failure(r), false); return; }
  const hash = r.data.receipt.event;
  receipts.push({ item: item.id, title: item.title, seq: r.data.receipt.seq, hash,
    line: [r.data.receipt.seq, r.data.receipt.head, hash, r.data.signature].join(":") });
  say("Su voto en «" + item.title + "» quedó registrado. / Your vote was recorded.", true);
  showReceipts();
  await sheetNow();
}

function showReceipts() {
  const list = document.getElementById("recibos");
  list.replaceChildren(...receipts.map((x) => {
    const li = el("li");
    const code = x.hash.toUpperCase();
    li.append(el("p", x.title + ": recibo n.º " + n(x.seq)));
    const p = el("p", "Código de su voto: ");
    p.append(el("strong", code.slice(0, 4) + "-" + code.slice(4, 8) + "-" + code.slice(8, 12), "codigo"));
    const link = el("a", "Comprobar en el tablero público / check on the public board");
    link.href = "/recibo?resumen=" + x.hash;
    li.append(p, link, el("p", x.line, "hash"));
    return li;
  }));
  document.getElementById("seccion-recibos").hidden = receipts.length === 0;
}

if (root) {
  document.getElementById("sin-script").hidden = true;
  document.getElementById("form-inscripcion").addEventListener("submit", async (e) => {
    e.preventDefault();
    const person = document.getElementById("documento").value.trim();
    const name = document.getElementById("nombre").value.trim();
    if (!person || !name) { say("Escriba su documento y su nombre. / Type your id and your name.", false); return; }
    const r = await register(person, name);
    if (!r.ok) { say(failure(r), false); return; }
    say("Inscripción enviada: espere la verificación de la mesa. / Registration sent.", true);
    await refresh();
  });
  document.getElementById("unirse").addEventListener("click", () => join(false));
  document.getElementById("salir").addEventListener("click", leave);
  document.getElementById("form-intervencion").addEventListener("submit", submit);
  document.getElementById("de-nuevo").addEventListener("click", async () => { await forgetKey(); record = null; show("paso-inscripcion"); });
  loadKey().then((found) => { record = found || null; return refresh(); });
  // Until the person is in the meeting (waiting for the desk, or to
  // join), the page asks where it stands; in the meeting, the feed and
  // the heartbeat's answers say it.
  setInterval(() => { if (!feed) refresh(); }, 4000);
}
