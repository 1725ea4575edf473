// The kiosk's touch page. It shows what the kiosk process says
// (/api/estado, long-polled) and sends what the attendee touches; the
// choices are held here only until "Revisar", and nothing is signed or
// sent from the page: the kiosk process does that.
"use strict";

const screenEl = document.getElementById("pantalla");
const noticeEl = document.getElementById("aviso");
const reader = document.getElementById("lector");
let state = null;
let picks = {}; // "item\u0000holder" -> option index, or null for an abstention

const fmt = (n) => Number(n).toLocaleString("es-CO");

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, f] of Object.entries(v)) node.addEventListener(ev, f);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat(Infinity)) if (c !== null && c !== undefined) node.append(c.nodeType ? c : document.createTextNode(String(c)));
  return node;
}

// Spanish, then English under it.
// Spanish, then English in smaller type; a name that is the same in both
// (an election's list) once.
const both = (es, en, tag = "span") => es === en ? el(tag, {}, es) : el(tag, {}, es, el("span", { class: "en", lang: "en" }, en));

async function send(path, body, type) {
  const headers = { "X-Quiosco": "1" };
  if (type) headers["Content-Type"] = type;
  await fetch(path, { method: "POST", headers, body });
}

function touched() { send("/api/tocar"); }

async function poll() {
  let since = 0;
  for (;;) {
    try {
      const r = await fetch("/api/estado?desde=" + since, { cache: "no-store" });
      const next = await r.json();
      since = next.generation;
      show(next);
    } catch (_) {
      noticeEl.hidden = false;
      noticeEl.className = "error";
      noticeEl.replaceChildren(both("El programa del quiosco no responde: avise al personal.", "The kiosk program does not answer: tell the staff."));
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

// Seconds as a person reads them: «9 min 05 s», «42 s».
function duration(seconds) {
  const m = Math.floor(seconds / 60), s = seconds % 60;
  return (m > 0 ? m + " min " : "") + String(s).padStart(m > 0 ? 2 : 1, "0") + " s";
}

// When this page received the sheet on screen: a poll's countdown runs
// from it (the daemon said how long remained when it answered).
let sheetAt = Date.now();
function closingText(box) {
  const seconds = Math.max(0, Math.ceil((Number(box.dataset.until) - Date.now()) / 1000));
  const left = duration(seconds);
  box.replaceChildren(seconds > 0
    ? both("La presidencia anunció el cierre: vote ahora; puede cerrarse en " + left, "The chair announced the close: vote now; it may close in " + left)
    : both("La presidencia anunció el cierre: vote ahora, puede cerrarse en cualquier momento", "The chair announced the close: vote now, it may close at any moment"));
}
setInterval(() => { for (const box of document.querySelectorAll("[data-until]")) closingText(box); }, 1000);

function show(next) {
  if (!state || JSON.stringify(state.sheet) !== JSON.stringify(next.sheet)) sheetAt = Date.now();
  const screenChanged = !state || state.screen !== next.screen || JSON.stringify(state.sheet) !== JSON.stringify(next.sheet)
    || JSON.stringify(state.service) !== JSON.stringify(next.service);
  state = next;
  shownAt = Date.now();
  document.getElementById("quiosco").textContent = "Quiosco " + next.kiosk;
  if (next.notice) {
    noticeEl.hidden = false;
    noticeEl.className = next.notice.error ? "error" : "";
    noticeEl.replaceChildren(both(next.notice.es, next.notice.en));
  } else {
    noticeEl.hidden = true;
  }
  if (next.screen === "eleccion" && screenChanged) {
    picks = {};
    for (const p of next.picks) picks[p.item + "\u0000" + p.holder] = p.choice;
  }
  if (screenChanged || next.screen === "envio" || next.screen === "recibo") render();
  countdown();
  if (next.screen === "espera") reader.focus();
}

// The seconds left before inactivity clears the screen, as the kiosk gave
// them, counted down here every second between its answers.
let shownAt = 0;
function countdown() {
  const c = document.getElementById("cuenta");
  if (!c || !state) return;
  if (state.idle_in === null || state.idle_in === undefined) {
    c.textContent = "";
    return;
  }
  const left = duration(Math.max(0, state.idle_in - Math.floor((Date.now() - shownAt) / 1000)));
  c.textContent = "Se cerrará en " + left + " sin actividad · closes in " + left;
}
setInterval(countdown, 1000);

function render() {
  const s = state.screen;
  if (s === "espera") screenEl.replaceChildren(idle());
  else if (s === "eleccion") screenEl.replaceChildren(choose());
  else if (s === "revision") screenEl.replaceChildren(review());
  else if (s === "envio") screenEl.replaceChildren(sending());
  else if (s === "recibo") screenEl.replaceChildren(receipts());
  countdown();
}

function idle() {
  // The voting service unreachable: said first, for the staff, so that no
  // attendee scans in vain.
  if (state.service) {
    return el("section", { "aria-labelledby": "t" }, el("h2", { id: "t", class: "lector" }, "Inicio"),
      el("div", { class: "aviso error", role: "alert" },
        el("p", { class: "grande" }, "Este quiosco no puede recibir votos ahora / this kiosk cannot take votes now"),
        both(state.service.es, state.service.en, "p")));
  }
  const parts = [
    el("p", { class: "grande centro" }, "Acerque su credencial al lector"),
    el("p", { class: "centro en", lang: "en" }, "Hold your badge's QR code to the reader"),
    el("p", { class: "centro" }, both("Votará aquí cada punto abierto; al final recibirá un recibo para comprobar su voto en el tablero público.",
      "You will vote on each open item here and get a receipt to check your vote on the public board.")),
  ];
  if (navigator.mediaDevices && navigator.mediaDevices.getUserMedia) {
    parts.push(el("p", { class: "centro" }, el("button", { type: "button", id: "usar-camara", on: { click: camera } },
      both("Usar la cámara", "Use the camera"))));
  }
  return el("section", { "aria-labelledby": "t" }, el("h2", { id: "t", class: "lector" }, "Inicio"), parts);
}

function optionButtons(item, key, current, onPick, label) {
  const group = el("div", { class: "opciones", role: "radiogroup", "aria-label": label });
  const options = item.options.map((o) => ({ index: o.index, es: o.es, en: o.en, candidates: o.candidates || [] }));
  options.push({ index: null, es: "Abstención", en: "Abstain", candidates: [] });
  for (const o of options) {
    const checked = current !== undefined && current === o.index;
    // A list shows whom it carries, in its order, principal and suplente.
    const people = o.candidates.length
      ? el("span", { class: "candidatos" }, o.candidates.map((c, i) => el("span", { class: "candidato" }, (i + 1) + ". " + c)))
      : null;
    group.append(el("button", {
      type: "button", role: "radio", "aria-checked": checked ? "true" : "false",
      "data-option": o.index === null ? "abstencion" : String(o.index),
      on: { click: () => { onPick(o.index); touched(); } },
    }, both(o.es, o.en), people));
  }
  return group;
}

function complete() {
  for (const item of state.sheet.open_items)
    for (const h of item.holders)
      if (h.may_vote && !((item.id + "\u0000" + h.holder) in picks)) return false;
  return true;
}

function choose() {
  const sheet = state.sheet;
  const parts = [el("h2", {}, both("Hola, " + sheet.name, "Hello"))];
  const carried = sheet.holders.length;
  if (carried > 1 || (carried === 1 && sheet.holders[0].holder !== sheet.person)) {
    parts.push(el("p", {}, both("Vota por " + carried + (carried === 1 ? " accionista" : " accionistas") + ": elija por cada uno, o la misma opción para todos.",
      "You vote for " + carried + " holder(s): choose for each, or the same for all.")));
  }
  for (const item of sheet.open_items) {
    const card = el("section", { class: "tarjeta", "aria-label": item.title, "data-item": item.id });
    card.append(el("h3", {}, item.title), el("p", { class: "acciones" }, both(item.matter_es, item.matter_en || "")));
    // The close the chair announced: the countdown every screen shows.
    if (item.close_in_ms !== undefined && item.close_in_ms !== null) {
      const box = el("p", { class: "cierre", role: "timer", "data-until": sheetAt + item.close_in_ms });
      closingText(box);
      card.append(box);
    }
    const voters = item.holders.filter((h) => h.may_vote);
    if (voters.length > 1) {
      const same = voters.map((h) => picks[item.id + "\u0000" + h.holder]);
      const all = same.every((v) => v !== undefined && v === same[0]) ? same[0] : undefined;
      card.append(el("div", { class: "accionista todos" },
        both("La misma opción para todos mis representados", "Same choice for all I represent", "p"),
        optionButtons(item, "todos", all, (v) => { for (const h of voters) picks[item.id + "\u0000" + h.holder] = v; render(); },
          "La misma opción para todos en " + item.title)));
    }
    for (const h of item.holders) {
      const row = el("div", { class: "accionista", "data-holder": h.holder });
      row.append(el("p", {}, el("strong", {}, h.name), " ", el("span", { class: "acciones" }, "(" + h.holder + ")")));
      if (h.may_vote) {
        row.append(el("p", { class: "acciones" }, both("Vota " + fmt(h.shares) + " acciones en este punto", "Votes " + fmt(h.shares) + " shares on this item")));
        // Preferred shares that do not vote on this matter, said plainly.
        const held = sheet.holders.find((x) => x.holder === h.holder);
        const idle = held ? held.shares.ORD + held.shares.PREF - h.shares : 0;
        if (idle > 0) {
          row.append(el("p", { class: "acciones" }, both("Sus " + fmt(idle) + " acciones preferenciales no votan este punto.", "Your " + fmt(idle) + " preferred shares do not vote on this item.")));
        }
        const key = item.id + "\u0000" + h.holder;
        row.append(optionButtons(item, key, picks[key], (v) => { picks[key] = v; render(); }, h.name + ": " + item.title));
      } else {
        row.append(el("p", { class: "motivo" }, both("No vota en este punto. " + (h.reason_es || ""), "Does not vote on this item. " + (h.reason_en || ""))));
      }
      card.append(row);
    }
    parts.push(card);
  }
  const ready = complete();
  parts.push(el("div", { class: "barra" },
    el("button", { type: "button", id: "cancelar", on: { click: () => send("/api/cancelar") } }, both("Cancelar", "Cancel")),
    el("span", { id: "cuenta", class: "cuenta" }),
    el("button", { type: "button", id: "revisar", class: "principal", disabled: !ready, on: { click: reviewPicks } },
      both(ready ? "Revisar mi voto" : "Elija en cada punto", ready ? "Review my vote" : "Choose on every item"))));
  return el("div", {}, parts);
}

function reviewPicks() {
  const list = [];
  for (const [key, choice] of Object.entries(picks)) {
    const [item, holder] = key.split("\u0000");
    list.push({ item, holder, choice });
  }
  send("/api/revisar", JSON.stringify({ picks: list }), "application/json");
}

function wordsOf(item, choice) {
  if (choice === null) return ["Abstención (no se envía voto)", "Abstain (no vote is sent)"];
  const o = item.options.find((x) => x.index === choice);
  return o ? [o.es, o.en] : ["?", "?"];
}

function review() {
  const parts = [el("h2", {}, both("Revise su voto", "Review your vote"))];
  for (const item of state.sheet.open_items) {
    const card = el("section", { class: "tarjeta", "aria-label": item.title }, el("h3", {}, item.title));
    const mine = state.picks.filter((p) => p.item === item.id);
    for (const p of mine) {
      const h = item.holders.find((x) => x.holder === p.holder);
      const [es, en] = wordsOf(item, p.choice);
      card.append(el("p", { class: "accionista" }, el("strong", {}, h ? h.name : p.holder), ": ", both(es, en)));
    }
    if (mine.length === 0) {
      card.append(el("p", { class: "motivo" }, both("Con esta credencial nadie vota este punto; no se envía nada.", "No one votes on this item with this badge; nothing is sent.")));
    }
    parts.push(card);
  }
  parts.push(el("p", { class: "final" }, both("Su voto es definitivo: una vez confirmado no se puede cambiar.", "Your vote is final: once confirmed it cannot be changed.")));
  parts.push(el("div", { class: "barra" },
    el("button", { type: "button", id: "volver", on: { click: () => send("/api/volver") } }, both("Volver a elegir", "Change")),
    el("span", { id: "cuenta", class: "cuenta" }),
    el("button", { type: "button", id: "confirmar", class: "principal", on: { click: () => send("/api/confirmar") } }, both("Confirmar y votar", "Confirm and vote"))));
  return el("div", {}, parts);
}

function sending() {
  const waiting = state.outbox.filter((o) => o.state === "esperando").length;
  return el("div", { class: "centro" },
    el("p", { class: "grande" }, "Enviando su voto…"),
    el("p", { class: "en", lang: "en" }, "Sending your vote…"),
    el("p", {}, both((waiting === 1 ? "Falta " : "Faltan ") + waiting + " de " + state.outbox.length + ". No se retire: el recibo aparecerá aquí.",
      waiting + " of " + state.outbox.length + " to go. Please wait: your receipt will appear here.")));
}

function receipts() {
  // The heading says what the daemon answered: every ballot counted, some,
  // or none (an item closed before the confirm, say).
  const counted = state.outbox.filter((o) => o.state === "registrado").length;
  const heading = state.outbox.length === 0
    ? both("No envió ningún voto (abstención en todo)", "You sent no vote (abstained on everything)")
    : counted === state.outbox.length
      ? both("Su voto quedó registrado", "Your vote was recorded")
      : counted === 0
        ? both("Su voto NO se contó: vea el motivo abajo y avise al personal", "Your vote was NOT counted: see why below and tell the staff")
        : both("Parte de su voto NO se contó: vea abajo en qué punto y por qué", "Part of your vote was NOT counted: see below which item and why");
  const parts = [el("h2", {}, heading)];
  for (const o of state.outbox) {
    const card = el("section", { class: "tarjeta", "aria-label": o.title }, el("h3", {}, o.title));
    const votes = el("p", { class: "votos" }, o.votes.map((v, i) => [i ? " · " : "", el("strong", {}, v.name), ": " + v.choice]));
    if (o.state === "registrado") {
      const qr = el("div", { class: "qr" });
      qr.innerHTML = o.qr;
      card.append(el("div", { class: "recibo" },
        el("div", {},
          el("p", { class: "registrado" }, both("Registrado: recibo n.º " + fmt(o.seq), "Recorded: receipt no. " + o.seq)),
          el("p", {}, both("Código de su voto: anótelo", "Your vote's code: note it down"), " ", el("span", { class: "codigo" }, o.short)),
          votes,
          el("p", { class: "acciones" }, both("Con ese código, o con el QR desde su teléfono, compruebe en el tablero público (página «recibo») que su voto se contó, también después de la reunión.",
            "With that code, or the QR from your phone, check on the public board (\"recibo\" page) that your vote was counted, after the meeting too.")),
          el("p", { class: "hash", "aria-label": "Recibo firmado completo / whole signed receipt" }, o.line)),
        qr));
    } else if (o.state === "rechazado") {
      card.append(votes, el("p", { class: "rechazado" }, both(o.es, o.en)));
    } else {
      card.append(votes, el("p", {}, both("Enviando…", "Sending…")));
    }
    parts.push(card);
  }
  parts.push(el("div", { class: "barra" }, el("span", { id: "cuenta", class: "cuenta" }),
    el("button", { type: "button", id: "terminar", class: "principal", on: { click: () => send("/api/cancelar") } }, both("Terminar", "Finish"))));
  return el("div", {}, parts);
}

// A scanner that types: the text, then Enter.
reader.addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  e.preventDefault();
  const text = reader.value;
  reader.value = "";
  if (text.trim()) send("/api/escaneo", text, "text/plain");
});
// Any touch or scroll keeps a half-made vote alive (told to the kiosk at
// most every 5 s), and a touch brings the focus back to the reader on the
// idle screen.
let lastTouch = 0;
function alive() {
  if (!state || state.screen === "espera" || Date.now() - lastTouch < 5000) return;
  lastTouch = Date.now();
  touched();
}
document.addEventListener("pointerdown", () => {
  if (state && state.screen === "espera") setTimeout(() => reader.focus(), 0);
  alive();
});
document.addEventListener("scroll", alive, { passive: true });

// A badge's picture dropped on the idle screen (the PNG the desk printed,
// on a laptop running the demo or a rehearsal) is read as a camera frame
// is: decoded by the kiosk, which says so when a file is not a PNG. A
// locked-down kiosk has nothing to drag from.
document.addEventListener("dragover", (e) => e.preventDefault());
document.addEventListener("drop", (e) => {
  e.preventDefault();
  const file = e.dataTransfer && e.dataTransfer.files[0];
  if (file && state && state.screen === "espera") send("/api/escaneo/imagen", file, "image/png");
});

// The camera as a reader: a frame every half second, decoded by the kiosk.
async function camera() {
  const video = document.getElementById("camara");
  try {
    video.srcObject = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "user" } });
  } catch (_) {
    noticeEl.hidden = false;
    noticeEl.className = "error";
    noticeEl.replaceChildren(both("No hay cámara disponible: use el lector.", "No camera available: use the reader."));
    return;
  }
  await video.play();
  const canvas = document.createElement("canvas");
  const tick = async () => {
    if (!state || state.screen !== "espera" || !video.srcObject) return;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext("2d").drawImage(video, 0, 0);
    const blob = await new Promise((r) => canvas.toBlob(r, "image/png"));
    if (blob) await send("/api/escaneo/imagen", blob, "image/png");
    setTimeout(tick, 500);
  };
  tick();
}

poll();
