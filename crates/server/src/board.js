// The public board (board.html, also served as the projector view):
// served by the daemon, no inline script (CSP).
// Colombian number format, 1.234.567: reading.js's, loaded before.
const n = readingNumber;
const text = (el, value) => { el.textContent = value; return el; };
// Spanish first; the English switch (kept in this browser) changes every
// word the script writes. The figures and their format stay Colombian.
let english = localStorage.getItem("asamblea-lang") === "en";
const words = {
  es: { met: "HAY QUÓRUM", notMet: "SIN QUÓRUM", of: " de ", shares: " acciones", holders: " accionistas", pending: "pendiente",
    open: (b) => "en votación (" + n(b) + (b === 1 ? " voto)" : " votos)"), seat: " puesto", seats: " puestos", votes: " votos",
    klass: (c) => "Acciones " + c.name_es, switchTo: "English", head: "Cabeza de la cadena firmada / signed chain head: " },
  en: { met: "QUORUM", notMet: "NO QUORUM", of: " of ", shares: " shares", holders: " holders", pending: "pending",
    open: (b) => "voting (" + n(b) + (b === 1 ? " vote)" : " votes)"), seat: " seat", seats: " seats", votes: " votes",
    klass: (c) => (c.class === "ORD" ? "Ordinary" : "Preferred") + " shares", switchTo: "Español", head: "Signed chain head / cabeza de la cadena: " },
};
const outcomesEn = { pass: "PASSED", fail: "NOT PASSED", elected: "ELECTED", "no-quorum": "NO QUORUM", "lot-required": "LOT PENDING", "all-impeded": "ALL SHARES IMPEDED" };
const w = () => english ? words.en : words.es;
let lastStatus = null;
// The figures' headings in the law's words (words.js, written once with
// the acta's): Spanish, and the English under them.
function figureHeadings() {
  for (const th of document.querySelectorAll("th[data-figure]")) {
    const figure = FIGURES[th.dataset.figure];
    const en = document.createElement("span");
    en.className = "en";
    en.textContent = figure.en.toLowerCase();
    th.replaceChildren(figure.es + " ", en);
  }
}
figureHeadings();
function languageSwitch() {
  const header = document.querySelector("header");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "language";
  button.lang = english ? "es" : "en";
  button.textContent = w().switchTo;
  button.addEventListener("click", () => {
    english = !english;
    localStorage.setItem("asamblea-lang", english ? "en" : "es");
    document.documentElement.lang = english ? "en" : "es";
    button.textContent = w().switchTo;
    button.lang = english ? "es" : "en";
    if (lastStatus) render(lastStatus);
  });
  document.documentElement.lang = english ? "en" : "es";
  header.append(button);
}
languageSwitch();
// `/proyeccion` is this page as the projector view: the agenda table
// gives way to the reading of one closed item (reading.js).
const projection = location.pathname === "/proyeccion";
if (projection) {
  document.body.classList.add("projection");
  document.title = "Asamblea — resultado en la sala";
  const section = document.createElement("section");
  section.className = "reading";
  section.id = "lectura";
  section.setAttribute("aria-live", "polite");
  section.append(text(document.createElement("p"), "Esperando la apertura o el cierre de una votación. / Waiting for a poll to open or close."));
  document.querySelector(".table-wrap").replaceWith(section);
  for (const id of ["head"]) document.getElementById(id).remove();
  document.querySelector(".receipt-link").remove();
}
// A mixed or non-presential meeting (Ley 222 art. 19): its modality and
// the remote channel as the notice stated it — the medium, the access,
// the identity check and who makes it, the floor (HY-1).
const modalityWords = {
  es: { mixta: "Reunión mixta: presencial y a distancia", "no-presencial": "Reunión no presencial: a distancia",
    medium: "Medio", access: "Acceso", identity: "Identidad", floor: "Palabra",
    delegated: "la verifica el personal de registro, por delegación del representante legal", own: "la verifica el representante legal" },
  en: { mixta: "Mixed meeting: in person and remote", "no-presencial": "Remote meeting",
    medium: "Medium", access: "Access", identity: "Identity", floor: "Floor",
    delegated: "checked by the registration staff, delegated by the legal representative", own: "checked by the legal representative" },
};
function renderModality(meeting) {
  const box = document.getElementById("modality");
  const remote = meeting.remote;
  box.hidden = !remote;
  if (!remote) return;
  const m = english ? modalityWords.en : modalityWords.es;
  const said = text(document.createElement("p"), m[meeting.modality] || meeting.modality);
  // The projector reads one result in large type on one screen: the
  // modality alone there; the channel's details are on the board.
  if (projection) {
    box.replaceChildren(said);
    return;
  }
  const list = document.createElement("dl");
  const row = (term, value) => list.append(text(document.createElement("dt"), term), text(document.createElement("dd"), value));
  row(m.medium, remote.medium);
  row(m.access, remote.access);
  row(m.identity, remote.identity_check + " (" + (remote.identity_delegated ? m.delegated : m.own) + ")");
  row(m.floor, remote.floor);
  box.replaceChildren(said, list);
}
function render(status) {
  lastStatus = status;
  text(document.getElementById("company"), status.meeting.company);
  text(document.getElementById("when"), longDate(status.meeting.date) + ", " + status.meeting.time + " · " + status.meeting.place);
  renderModality(status.meeting);
  const q = status.quorum;
  const quorum = document.getElementById("quorum");
  quorum.replaceChildren();
  const verdict = document.createElement("span");
  verdict.className = q.met ? "ok" : "no";
  verdict.textContent = q.met ? w().met : w().notMet;
  quorum.append(verdict, " · " + n(q.present_shares) + w().of + n(q.voting_outstanding) + w().shares + " · " + n(q.holders) + w().holders);
  quorum.append(classLine(q));
  // Where the meeting stands, when it is not simply in session.
  const session = (status.session || {}).state;
  const sessionWords = {
    "not-installed": ["Reunión aún sin instalar", "Meeting not yet installed"],
    suspended: ["Reunión suspendida", "Meeting suspended"],
    adjourned: ["Sesión levantada: la reunión terminó", "Meeting adjourned"],
  }[session];
  if (sessionWords) {
    const banner = text(document.createElement("strong"), english ? sessionWords[1] : sessionWords[0]);
    banner.className = "session " + session;
    quorum.append(document.createElement("br"), banner);
  }
  if (projection) { project(status); return; }
  const body = document.getElementById("items");
  body.replaceChildren();
  // The whole agenda in its order: informative items in their place.
  const voted = Object.fromEntries(status.items.map((item) => [item.id, item]));
  const places = status.agenda && status.agenda.length ? status.agenda : status.items.map((item) => ({ id: item.id }));
  for (const place of places) {
    const row = document.createElement("tr");
    if (place.informative) {
      const title = text(document.createElement("td"), place.title);
      title.className = "title";
      title.append(text(document.createElement("div"), english ? "informative item: not voted" : "punto informativo: no se vota"));
      title.lastChild.className = "matter";
      const none = text(document.createElement("td"), "—");
      none.colSpan = 5;
      row.append(title, none);
      body.append(row);
      continue;
    }
    const item = voted[place.id];
    const r = item.result || {};
    // The agenda's title, and under it the kind of matter (which decides
    // the majority).
    const title = text(document.createElement("td"), item.title);
    title.className = "title";
    title.append(text(document.createElement("div"), english ? item.matter_en : item.matter_es));
    title.lastChild.className = "matter";
    // An election's lists with whom they carry; once closed, who was
    // elected to each seat.
    if (item.elected && item.elected.length) {
      title.append(text(document.createElement("div"), (english ? "Elected: " : "Elegidos: ")
        + item.elected.map((seat) => seat.candidate ? seat.candidate.words : seat.list + (english ? ": seat without a candidate" : ": puesto sin candidato")).join("; ")));
      title.lastChild.className = "matter";
    } else if (item.candidates) {
      for (const list of item.candidates) {
        title.append(text(document.createElement("div"), list.list + ": " + list.candidates.map((c) => c.words).join("; ")));
        title.lastChild.className = "matter";
      }
    }
    const state = document.createElement("td");
    if (item.state === "closed") {
      state.append(text(document.createElement("strong"), english ? outcomesEn[r.outcome] || r.outcome : item.outcome_es || r.outcome));
      state.className = "outcome " + r.outcome;
      // The ballots counted on it, by their receipts' hashes.
      const link = document.createElement("a");
      link.href = "/papeletas?punto=" + encodeURIComponent(item.id);
      link.className = "ballots";
      link.textContent = english ? "ballots" : "papeletas";
      link.setAttribute("aria-label", (english ? "Ballots counted on " : "Papeletas contadas en ") + item.title);
      state.append(" ", link);
      if (r.seats) state.append(seatsLine(r));
    } else {
      state.textContent = item.state === "open" ? w().open(item.ballots) : w().pending;
    }
    row.append(title, state);
    body.append(row);
    // An election's lists take the width of the figures.
    if (r.seats) { state.colSpan = 5; continue; }
    // For, against, blank: the shares and their share of the base.
    for (const key of ["for", "against", "blank"]) {
      const td = document.createElement("td");
      td.className = "num";
      td.dataset.label = FIGURES[key].es;
      if (r[key] !== undefined && r.base !== undefined) {
        td.append(text(document.createElement("span"), n(r[key])), percentOf(r[key], r.base, key));
      }
      row.append(td);
    }
    row.append(text(document.createElement("td"), n(r.base)));
    row.lastChild.className = "num";
    row.lastChild.dataset.label = FIGURES.base.es;
  }
  showHead(status.head);
}
// Each share class present, as the daemon counted it: shares, its
// percentage of the class outstanding, holders.
function classLine(q) {
  const line = document.createElement("div");
  line.className = "classes";
  line.textContent = (q.by_class || []).map((c) => w().klass(c) + ": " + n(c.present) + w().of + n(c.outstanding)
    + " (" + c.percent.replace(" %", "\u00a0%") + "), " + n(c.holders) + w().holders).join(" · ");
  return line;
}
// "56,78 %" of the base, with a bar as long: integer arithmetic on the
// figures the daemon computed (exact below 9 × 10^11 shares).
function percentOf(value, base, key) {
  const box = document.createElement("div");
  box.className = "share " + key;
  const hundredths = base > 0 ? Math.floor(value * 10000 / base) : 0;
  const bar = document.createElement("span");
  bar.className = "bar";
  bar.style.width = (hundredths / 100) + "%";
  box.append(bar, text(document.createElement("span"), (hundredths / 100).toLocaleString("es-CO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "\u00a0%"));
  return box;
}
// An election: the seats each list won, and its votes.
function seatsLine(r) {
  const line = document.createElement("div");
  line.className = "seats";
  line.textContent = Object.entries(r.seats)
    .map(([list, seats]) => list + ": " + seats + (seats === 1 ? w().seat : w().seats) + " (" + n(r.votes[list]) + w().votes + ")")
    .join(" · ");
  return line;
}
// The chain's head, signed by the daemon while a poll is open: anyone may
// note it (or save it from the feed) and check the audit bundle against it
// later with `asamblea verify --witness`.
function showHead(head) {
  const line = document.getElementById("head");
  if (!head || !line) return;
  text(line, w().head + head.seq + ":" + head.head + " (firma / signature " + head.signature.slice(0, 16) + "…)");
}
// "17 de marzo de 2027" (or "17 March 2027"): the day convened as people
// write it, not as the file stores it.
function longDate(iso) {
  const day = new Date(iso + "T12:00:00");
  if (Number.isNaN(day.getTime())) return iso;
  return day.toLocaleDateString(english ? "en-GB" : "es-CO", { day: "numeric", month: "long", year: "numeric" });
}
// The daemon's clock less this screen's, from the answer's Date header:
// how long a poll has been open is counted on the daemon's clock.
let skew = 0;
fetch("/api/v1/status").then((r) => {
  const at = Date.parse(r.headers.get("date") || "");
  if (!Number.isNaN(at)) skew = at - Date.now();
}).catch(() => {});
// Seconds as a person reads them: «3 min 05 s», «42 s».
function duration(seconds) {
  const m = Math.floor(seconds / 60), s = seconds % 60;
  return (m > 0 ? m + " min " : "") + String(s).padStart(m > 0 ? 2 : 1, "0") + " s";
}
// "3 min 05 s" since `ms` (the daemon's clock).
function since(ms) {
  return duration(Math.max(0, Math.floor((Date.now() + skew - ms) / 1000)));
}
// A poll open now, as the room needs it: which item, that it is time to
// vote at the kiosks, how many have voted of those present, and for how
// long it has been open. Never how they voted.
function pollNow(item, q) {
  const nodes = [];
  const add = (tag, value, className) => { const node = text(document.createElement(tag), value); node.className = className; nodes.push(node); return node; };
  add("p", "VOTACIÓN ABIERTA / POLL OPEN", "poll-open");
  add("h2", item.title, "poll-title");
  // A mixed meeting's attendees vote from afar too: the room is told both.
  const remote = lastStatus && lastStatus.meeting.remote;
  add("p", remote
    ? "Vote ahora en los quioscos con su credencial, o a distancia en la página /remoto. / Vote now at the kiosks with your badge, or remotely at /remoto."
    : "Vote ahora en los quioscos con su credencial. / Vote now at the kiosks with your badge.", "poll-call");
  // An election's lists with whom each carries, as the kiosk shows them.
  for (const list of item.candidates || []) {
    add("p", list.list + ": " + list.candidates.map((c) => c.words).join("; "), "poll-list");
  }
  const shares = item.shares_voted || 0;
  const part = q.present_shares > 0 ? Math.floor(shares * 10000 / q.present_shares) : 0;
  add("p", n(item.ballots || 0) + (item.ballots === 1 ? " voto" : " votos") + " · " + n(shares) + " acciones: el "
    + (part / 100).toLocaleString("es-CO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "\u00a0% de las acciones presentes con voto / of the voting shares present", "poll-turnout");
  if (item.opened_at_ms) {
    const timer = add("p", "", "poll-time");
    timer.id = "abierta";
    timer.dataset.since = item.opened_at_ms;
    timer.textContent = "Abierta hace " + since(item.opened_at_ms) + " / open for";
  }
  // The chair's announced close, counted down (rules.md §11.5).
  if (item.close_announced_at_ms) {
    const closing = add("p", "", "poll-closing");
    closing.id = "cierre";
    closing.dataset.until = item.close_announced_at_ms + item.close_countdown_ms;
    closing.textContent = closingWords(Number(closing.dataset.until));
  }
  return nodes;
}
// "Cierre en 1 min 12 s": the time left until `until` (the daemon's
// clock), seconds rounded up; then that the chair may close.
function closingWords(until) {
  const seconds = Math.ceil((until - Date.now() - skew) / 1000);
  if (seconds <= 0) return "La votación puede cerrarse ya / the poll may close now";
  return "Cierre en " + duration(seconds) + " / closes in";
}
setInterval(() => {
  const timer = document.getElementById("abierta");
  if (timer) timer.textContent = "Abierta hace " + since(Number(timer.dataset.since)) + " / open for";
  const closing = document.getElementById("cierre");
  if (closing) closing.textContent = closingWords(Number(closing.dataset.until));
}, 1000);
// The projector view: the item asked for (`?punto=ID`); else a poll open
// now; else the last one closed, as the chair reads it (reading.js).
function project(status) {
  const wanted = new URLSearchParams(location.search).get("punto");
  const closed = status.items.filter((item) => item.state === "closed");
  const open = status.items.filter((item) => item.state === "open");
  const box = document.getElementById("lectura");
  box.classList.toggle("poll", !wanted && open.length > 0);
  if (!wanted && open.length > 0) {
    box.replaceChildren(...pollNow(open[open.length - 1], status.quorum));
    return;
  }
  const item = wanted ? closed.find((i) => i.id === wanted) : closed[closed.length - 1];
  if (!item) return;
  box.replaceChildren(...readingOf(item, status.head));
}
// `?once` renders the status once, without the live feed (printing, tests).
if (new URLSearchParams(location.search).has("once")) {
  fetch("/api/v1/status").then((r) => r.json()).then(render);
} else {
  // The moment the feed drops, the figures on screen are old: say so, with
  // the time they are from. The browser reconnects by itself; the banner
  // goes when the feed is back.
  let since = null;
  const banner = document.getElementById("offline");
  const feed = new EventSource("/api/v1/feed");
  feed.onmessage = (e) => {
    const m = JSON.parse(e.data);
    since = new Date();
    banner.hidden = true;
    if (m.type === "status") render(m.status);
    if (m.type === "head") showHead(m);
  };
  feed.onopen = () => { banner.hidden = true; };
  feed.onerror = () => {
    const at = since ? since.toLocaleTimeString("es-CO", { hour: "2-digit", minute: "2-digit", hour12: false }) : "—";
    banner.textContent = "SIN CONEXIÓN — datos de las " + at + " · reconectando… / offline — figures as of " + at + " · reconnecting…";
    banner.hidden = false;
  };
}
