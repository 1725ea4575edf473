// The public board (board.html): served by the daemon, no inline script (CSP).
// Colombian number format: 1.234.567
const n = (v) => (v === undefined || v === null) ? "" : Number(v).toLocaleString("es-CO");
const text = (el, value) => { el.textContent = value; return el; };
function render(status) {
  text(document.getElementById("company"), status.meeting.company);
  text(document.getElementById("when"), status.meeting.date + " " + status.meeting.time + " · " + status.meeting.place);
  const q = status.quorum;
  const quorum = document.getElementById("quorum");
  quorum.replaceChildren();
  const verdict = document.createElement("span");
  verdict.className = q.met ? "ok" : "no";
  verdict.textContent = q.met ? "HAY QUÓRUM" : "SIN QUÓRUM";
  quorum.append(verdict, " · " + n(q.present_shares) + " de " + n(q.voting_outstanding) + " acciones · " + n(q.holders) + " accionistas");
  quorum.append(classLine(q));
  const body = document.getElementById("items");
  body.replaceChildren();
  for (const item of status.items) {
    const row = document.createElement("tr");
    const r = item.result || {};
    // The agenda's title, and under it the kind of matter (which decides
    // the majority).
    const title = text(document.createElement("td"), item.title);
    title.className = "title";
    title.append(text(document.createElement("div"), item.matter_es));
    title.lastChild.className = "matter";
    const state = document.createElement("td");
    if (item.state === "closed") {
      state.append(text(document.createElement("strong"), item.outcome_es || r.outcome));
      state.className = "outcome " + r.outcome;
      if (r.seats) state.append(seatsLine(r));
    } else {
      state.textContent = { pending: "pendiente", open: "en votación (" + n(item.ballots) + (item.ballots === 1 ? " papeleta)" : " papeletas)") }[item.state];
    }
    row.append(title, state);
    body.append(row);
    // An election's lists take the width of the figures.
    if (r.seats) { state.colSpan = 5; continue; }
    // For, against, blank: the shares and their share of the base.
    for (const key of ["for", "against", "blank"]) {
      const td = document.createElement("td");
      td.className = "num";
      td.dataset.label = { for: "Sí", against: "No", blank: "En blanco" }[key];
      if (r[key] !== undefined && r.base !== undefined) {
        td.append(text(document.createElement("span"), n(r[key])), percentOf(r[key], r.base, key));
      }
      row.append(td);
    }
    row.append(text(document.createElement("td"), n(r.base)));
    row.lastChild.className = "num";
    row.lastChild.dataset.label = "Base";
  }
  showHead(status.head);
}
// Each share class present, as the daemon counted it: shares, its
// percentage of the class outstanding, holders.
function classLine(q) {
  const line = document.createElement("div");
  line.className = "classes";
  line.textContent = (q.by_class || []).map((c) => "Acciones " + c.name_es + ": " + n(c.present) + " de " + n(c.outstanding)
    + " (" + c.percent.replace(" %", "\u00a0%") + "), " + n(c.holders) + " accionistas").join(" · ");
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
    .map(([list, seats]) => list + ": " + seats + (seats === 1 ? " puesto" : " puestos") + " (" + n(r.votes[list]) + " votos)")
    .join(" · ");
  return line;
}
// The chain's head, signed by the daemon while a poll is open: anyone may
// note it (or save it from the feed) and check the audit bundle against it
// later with `asamblea verify --witness`.
function showHead(head) {
  if (!head) return;
  text(document.getElementById("head"),
    "Cabeza de la cadena firmada / signed chain head: " + head.seq + ":" + head.head + " (firma / signature " + head.signature.slice(0, 16) + "…)");
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
