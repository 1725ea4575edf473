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
  const body = document.getElementById("items");
  body.replaceChildren();
  for (const item of status.items) {
    const row = document.createElement("tr");
    const cells = [item.title, item.matter_es];
    let state = { pending: "pendiente", open: "en votación (" + n(item.ballots) + (item.ballots === 1 ? " papeleta)" : " papeletas)") }[item.state];
    const r = item.result || {};
    if (item.state === "closed") state = item.outcome_es || r.outcome;
    cells.push(state, n(r.for), n(r.against), n(r.blank), n(r.base));
    cells.forEach((value, i) => {
      const td = text(document.createElement("td"), value ?? "");
      if (i >= 3) td.className = "num";
      if (i === 2 && item.state === "closed") td.className = r.outcome;
      row.append(td);
    });
    body.append(row);
  }
  showHead(status.head);
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
