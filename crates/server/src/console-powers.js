// The registration desk's admissions and lodged powers (/registro): a
// scanned letter, an id or the bare number of a card brings up the person
// with everything lodged for them; one button admits them with every
// principal and then issues the badge. Below, the powers lodged before
// the meeting, their figures and a form to lodge one by hand. Loaded
// after console-desk.js, before console.js, whose helpers (api, el, n,
// failure, status, deskFigures, issueBadge, sharesText, whoIs) it calls
// and which starts it. No field takes a voting instruction (SFC
// 2015060395-003).
"use strict";

// ----- registro: admission by one scan -----
// Where each principal stands for the person, from the API's status
// codes: carried on admission, carried now, or no longer carried (told to
// the agent, in amber, above everything else).
const NO_LONGER = ["principal-arrived", "withdrawn", "carried-by", "in-person", "not-covered"];
const plural = (count, one, many) => n(count) + " " + (count === 1 ? one : many);
const sumShares = (list) => list.reduce((t, s) => ({ ORD: t.ORD + (s.ORD || 0), PREF: t.PREF + (s.PREF || 0) }), { ORD: 0, PREF: 0 });
// The words the API gave a status, with who carries them where it says.
const standing = (p) => p.words.es + (p.by ? " (" + p.by + ")" : "") + " / " + p.words.en;
// A principal's line: name (id), shares.
const principalLine = (p) => whoIs(p.name, p.id) + " — " + sharesText(p.shares);

// A message in a region: the API's Spanish first, then what to do next.
function alertIn(box, text, next) {
  box.replaceChildren();
  if (!text) return;
  box.append(el("p", text, "said no"));
  if (next) box.append(el("p", next, "next"));
}

function admission() {
  const form = document.getElementById("admision");
  if (!form) return;
  const scan = document.getElementById("escanear");
  const error = document.getElementById("admision-error");
  const card = document.getElementById("ficha");
  const done = document.getElementById("admitido");
  const name = document.getElementById("admision-nombre");
  const admit = document.getElementById("admitir");
  let shown = null;
  let asked = 0;

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const q = scan.value.trim();
    if (!q) { scan.focus(); return; }
    const mine = ++asked;
    alertIn(error, "");
    done.replaceChildren();
    say("", "ok"); // the last person's message goes with them
    const r = await api("GET", "/api/v1/expected?q=" + encodeURIComponent(q));
    if (mine !== asked) return; // a later scan is on its way
    if (!r.ok) {
      shown = null;
      card.hidden = true;
      alertIn(error, failure(r), r.status === 404
        ? "Qué hacer: búsquelo por nombre en «Registrar una llegada», más abajo, o escriba el documento completo (CC-…). / Next: search by name below."
        : "Qué hacer: vuelva a escanear o escriba el documento completo. / Next: scan again.");
      scan.select();
      return;
    }
    shown = r.data;
    showCard(shown);
    // The next scan replaces this one's text, never adds to it.
    scan.select();
  });

  // The person's card: what the admission carries first (and the button
  // right after it), then what they no longer carry, refused powers, and
  // each accepted power's principals.
  function showCard(a) {
    const head = document.getElementById("ficha-datos");
    head.replaceChildren();
    head.append(el("h3", a.name ? a.name + " · " + a.person : a.person, "who"));
    const carries = el("p", "", "carries");
    carries.append(a.to_carry > 0
      ? "Al admitir, vota por " + plural(a.to_carry, "accionista", "accionistas") + ": " + sharesText(a.to_carry_shares) + ". "
      : "Nada que admitir: ya está presente, o sus poderdantes llegaron o los lleva otra persona. ",
    el("span", a.to_carry > 0 ? "Carries " + a.to_carry + (a.to_carry === 1 ? " holder" : " holders") + " on admission." : "Nothing to admit.", "en"));
    head.append(carries);
    // A substitute comes instead of the agent: said first, as it is
    // recorded.
    for (const p of a.powers.filter((x) => x.as_substitute && x.verdict.accepted)) {
      head.append(el("p", "Viene como sustituto de " + whoIs(p.agent_name, p.agent) + ", por el poder " + p.verdict.reference
        + ". / Comes as the substitute of the agent.", "notice"));
    }
    if (a.own) {
      const where = !a.present ? "ausente / absent"
        : a.carried_by ? "presente, las lleva " + a.carried_by + " / carried by an agent" : "presente en persona / present in person";
      head.append(el("p", "Acciones propias: " + sharesText(a.own) + " — " + where, "own"));
    }
    if (a.badge) {
      head.append(el("p", "Ya tiene la credencial n.º " + a.badge + ": al admitirlo, esa misma vota por todos los que lleve. / Their live badge " + a.badge + " votes for everyone they carry."));
    }
    if (a.covered_by) {
      head.append(el("p", "Al admitirlo en persona se revoca el poder " + a.covered_by + " que lo cubre"
        + (a.covered_by_agent ? ", otorgado a " + a.covered_by_agent : "")
        + (a.carried_by ? ", y sus acciones dejan de estar con " + a.carried_by + ", que las lleva ahora" : "")
        + ". / Admitting them revokes power " + a.covered_by + (a.carried_by ? " and takes their shares from " + a.carried_by : "") + ".", "warning"));
    }
    const accepted = a.powers.filter((p) => p.verdict.accepted);
    const gone = accepted.flatMap((p) => p.principals.filter((q) => NO_LONGER.includes(q.status)));
    if (gone.length > 0) {
      const box = el("div", undefined, "warning");
      box.append(el("h4", "Ya no lleva " + plural(gone.length, "accionista", "accionistas") + " de sus poderes: dígaselo. / No longer carried: tell them."));
      const list = el("ul");
      for (const q of gone) list.append(el("li", principalLine(q) + ": " + standing(q)));
      box.append(list);
      head.append(box);
    }
    for (const p of a.powers.filter((x) => !x.verdict.accepted)) {
      const box = el("div", undefined, "refused");
      const why = p.verdict.reason_words || { es: p.verdict.reason || "", en: "" };
      box.append(el("h4", "Poder " + p.verdict.reference + " rechazado: " + why.es + " / refused: " + why.en));
      box.append(el("p", "No lleva a sus " + plural(p.principals.length, "poderdante", "poderdantes") + ": " + p.principals.map((q) => whoIs(q.name, q.id)).join(", ") + "."));
      head.append(box);
    }
    const company = isCompany(a.person);
    document.getElementById("admision-nombre-etiqueta").firstChild.textContent = company
      ? "Nombre de quien asiste por la sociedad, como en su cédula " : "Nombre de quien asiste, como en su cédula ";
    name.value = company ? "" : a.name;
    admit.disabled = a.to_carry === 0;
    showPowers(accepted);
    card.hidden = false;
  }

  // Each accepted power with its principals; a long list folded, opened
  // with a key.
  function showPowers(accepted) {
    const box = document.getElementById("ficha-poderes");
    box.replaceChildren();
    for (const p of accepted) {
      const details = el("details");
      details.open = p.principals.length <= 12;
      const carry = p.principals.filter((q) => q.status === "to-carry").length;
      const as = p.as_substitute ? " — como sustituto de " + whoIs(p.agent_name, p.agent) + " / as substitute" : "";
      details.append(el("summary", "Poder " + p.verdict.reference + " (aceptado" + as + "): "
        + plural(p.principals.length, "poderdante", "poderdantes") + ", " + n(carry) + " por llevar / to carry"));
      const table = el("table");
      const head = el("tr");
      for (const [es, en, cls] of [["Documento", "id"], ["Nombre", "name"], ["Acciones", "shares", "num"], ["Estado", "state"]]) {
        const th = el("th", es + " ", cls);
        th.append(el("span", en, "en"));
        head.append(th);
      }
      const thead = el("thead");
      thead.append(head);
      const body = el("tbody");
      for (const q of p.principals) {
        const tr = el("tr", undefined, NO_LONGER.includes(q.status) ? "gone" : "");
        tr.append(el("td", q.id, "id"), el("td", q.name), labelled(el("td", sharesText(q.shares), "num"), "Acciones"),
          el("td", standing(q), q.status === "to-carry" || q.status === "carried" ? "ok" : "no"));
        body.append(tr);
      }
      table.append(thead, body);
      const wrap = el("div", undefined, "table-wrap");
      wrap.append(table);
      details.append(wrap);
      box.append(details);
    }
  }

  admit.addEventListener("click", async () => {
    const a = shown;
    if (!a) return;
    const attending = name.value.trim();
    // A company's attendee, or a person the powers do not name (a
    // substitute): their name is typed, for the badge and the acta.
    if (!attending && (isCompany(a.person) || !a.name)) {
      alertIn(error, "Escriba el nombre de quien asiste" + (isCompany(a.person) ? " por " + whoIs(a.name, a.person) : "") + ", como en su cédula. / Type the attending person's name.",
        "Va en la credencial y en el acta. / It goes on the badge and in the minutes.");
      name.focus();
      return;
    }
    alertIn(error, "");
    admit.disabled = true;
    const body = { person: a.person };
    if (attending) body.attendee_name = attending;
    const r = await api("POST", "/api/v1/admissions", body);
    if (!r.ok) {
      admit.disabled = false;
      alertIn(error, failure(r), r.status === 422
        ? "Qué hacer: vuelva a escanear para ver la ficha como está ahora; si falta un poder, regístrelo en «Registrar un apoderado». / Next: scan again to see the card now."
        : "Qué hacer: vuelva a escanear y pruebe otra vez; si sigue, avise al soporte. / Next: scan again and retry.");
      return;
    }
    const got = r.data;
    // The shares of those carried now, from the card just shown.
    const known = new Map(a.powers.flatMap((p) => p.principals).map((q) => [q.id, q.shares]));
    if (a.own) known.set(a.person, a.own);
    const shares = sumShares(got.carried.map((id) => known.get(id) || {}));
    const who = whoIs(attending || a.name, a.person);
    const lines = [
      "Admitido: " + who + (got.as_substitute ? ", como sustituto" : "") + ", con " + plural(got.carried.length, "accionista", "accionistas")
        + " (" + sharesText(shares) + "). / Admitted with " + got.carried.length + " holders.",
    ];
    if (got.revoked) lines.push("Poder " + got.revoked + " revocado: llegó en persona. / Power revoked.");
    lines.push("Quórum: " + n(got.quorum.present_shares) + " acciones, " + n(got.quorum.holders) + " accionistas"
      + (got.quorum.met ? " — hay quórum." : " — sin quórum todavía."));
    done.replaceChildren(...lines.map((line) => el("p", line)));
    done.className = "confirmation said ok";
    card.hidden = true;
    shown = null;
    scan.value = "";
    scan.focus();
    document.dispatchEvent(new Event("admitted"));
    status();
    powerFigures();
    // The badge, as the search's button issues it; the keyboard stays in
    // the scan field for the next person.
    const badge = await issueBadge(a.person, null, who, "escanear");
    if (badge.ok) {
      const print = el("button", "Imprimir la credencial n.º " + badge.data.credential + " ");
      print.type = "button";
      print.append(el("span", "print the badge", "en"));
      print.addEventListener("click", () => document.getElementById("imprimir").click());
      const line = el("p", "Credencial n.º " + badge.data.credential + " emitida: imprímala (se ve abajo). / Badge issued: print it. ");
      done.append(line, print);
    } else if (badge.data && badge.data.error && badge.data.error.code === "badge-held") {
      done.append(el("p", "Ya tenía una credencial vigente: la misma vota ahora por todos. / Their live badge now votes for all of them."));
    } else if (badge.status !== undefined) {
      done.append(el("p", "Sin credencial: " + failure(badge) + " Emítala con «Credencial» en su fila de la búsqueda. / No badge issued.", "said no"));
    }
    scan.focus();
  });

  scan.focus();
}

// ----- registro: the powers lodged before the meeting -----
async function powerFigures() {
  const body = document.getElementById("poderes-cifras");
  if (!body) return;
  const r = await api("GET", "/api/v1/powers");
  if (r.ok) showPowerFigures(r.data);
}

function showPowerFigures(f) {
  const row = (es, en, value) => {
    const tr = el("tr");
    const th = el("th", es + " ");
    th.scope = "row";
    th.append(el("span", en, "en"));
    tr.append(th, labelled(el("td", value, "num"), "Cantidad"));
    return tr;
  };
  document.getElementById("poderes-cifras").replaceChildren(
    row("Radicados", "lodged", n(f.lodged)),
    row("Aceptados", "accepted", n(f.accepted)),
    row("Rechazados", "refused", n(f.refused)),
    row("Poderdantes cubiertos hoy", "principals covered", n(f.principals_covered) + " (" + sharesText(f.shares_covered) + ")"),
    row("Poderdantes ya llevados por su apoderado", "principals carried", n(f.principals_carried)),
    row("Poderdantes que revocaron (llegaron en persona)", "principals who revoked", n(f.revoked)));
  const reasons = document.getElementById("poderes-motivos");
  reasons.replaceChildren(...f.refused_by_reason.map((x) => {
    const li = el("li", x.words.es + ": " + plural(x.powers, "poder", "poderes") + " ");
    li.append(el("span", x.words.en, "en"));
    return li;
  }));
  if (f.refused_by_reason.length === 0) reasons.append(el("li", "Ninguno. / None."));
  const state = document.getElementById("poderes-estado");
  state.textContent = f.open
    ? "Radicación abierta: se radican poderes hasta que se instale la reunión. / Lodging is open until the installation."
    : "Radicación cerrada: la reunión ya se instaló. Ahora el apoderado presenta su poder en la mesa («Registrar un apoderado»). / Lodging closed: the meeting is installed.";
  state.className = "lead " + (f.open ? "ok" : "closed");
  document.getElementById("radicar-boton").disabled = !f.open;
}

// A day as the desk types it in Colombia (10/03/2027: day first) or as
// the API takes it (2027-03-10); anything else goes as typed, for the
// API to name.
function isoDay(typed) {
  const m = typed.match(/^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/);
  return m ? m[3] + "-" + m[2].padStart(2, "0") + "-" + m[1].padStart(2, "0") : typed;
}

function lodging() {
  const form = document.getElementById("radicar-poder");
  if (!form) return;
  const value = (id) => document.getElementById(id).value.trim();
  const error = document.getElementById("radicar-error");
  const verdict = document.getElementById("radicar-veredicto");
  const tie = (id) => value(id) === "none" ? undefined : value(id);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const power = {
      reference: value("poder-referencia"),
      principals: value("poder-poderdantes").split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean),
      agent: value("poder-agente"),
      agent_name: value("poder-agente-nombre"),
      agent_tie: tie("poder-vinculo"),
      suggested: document.getElementById("poder-sugerido").checked,
      substitutes: [1, 2, 3, 4].filter((i) => value("sustituto-" + i))
        .map((i) => ({ id: value("sustituto-" + i), name: value("sustituto-" + i + "-nombre"), tie: tie("sustituto-" + i + "-vinculo") })),
      meeting_date: value("poder-fecha"),
      received_via: value("poder-via"),
      received_on: isoDay(value("poder-recibido")),
      document_sha256: value("poder-sha256").toLowerCase(),
      judgement: value("poder-juicio") || undefined,
    };
    verdict.replaceChildren();
    // What the form itself can tell: the fields every power has.
    const empty = [["poder-referencia", "la referencia"], ["poder-poderdantes", "los poderdantes"],
      ["poder-recibido", "la fecha de recibo"], ["poder-sha256", "el SHA-256 del documento"]].find(([id]) => !value(id));
    if (empty) {
      alertIn(error, "Falta " + empty[1] + ". / A required field is empty.", "Escríbalo y vuelva a radicar. / Fill it in and lodge again.");
      document.getElementById(empty[0]).focus();
      return;
    }
    alertIn(error, "");
    const r = await api("POST", "/api/v1/powers", { powers: [power] });
    if (!r.ok) {
      const next = { 400: "Corrija el campo que el mensaje nombra y vuelva a radicar. / Fix the field named.",
        409: "El apoderado presenta ahora su poder en la mesa: «Registrar un apoderado». / The agent now shows the power at the desk.",
        422: "Esa referencia ya se radicó con otro contenido: revise el poder, o use otra referencia. / Check the reference." }[r.status];
      alertIn(error, failure(r), next || "Vuelva a intentarlo. / Try again.");
      return;
    }
    showPowerFigures(r.data.figures);
    const lodged = r.data.lodged[0];
    if (!lodged) {
      verdict.textContent = "El poder " + power.reference + " ya estaba radicado igual: sigue como estaba. / Already lodged, unchanged.";
      verdict.className = "said ok";
    } else if (lodged.accepted) {
      verdict.textContent = "Poder " + lodged.reference + " radicado y ACEPTADO: cubre a " + plural(power.principals.length, "poderdante", "poderdantes") + ". / Lodged and accepted.";
      verdict.className = "said ok";
    } else {
      verdict.textContent = "Poder " + lodged.reference + " radicado y RECHAZADO: " + lodged.reason_words.es + ". / Refused: " + lodged.reason_words.en + ".";
      verdict.className = "said no";
    }
    // The next power starts from a clean form; how they arrive stays.
    const keep = { via: value("poder-via"), on: value("poder-recibido"), date: value("poder-fecha") };
    form.reset();
    document.getElementById("poder-via").value = keep.via;
    document.getElementById("poder-recibido").value = keep.on;
    document.getElementById("poder-fecha").value = keep.date;
    document.getElementById("poder-referencia").focus();
  });
}
