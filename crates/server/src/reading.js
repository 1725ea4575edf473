// A closed item as the chair reads it to the room: the decision in words,
// why it passed or failed (the figures and what was needed), the rule and
// its source, every figure with its share of the base, an election's seats
// per list with the quotient and remainders, a pending lot, and the
// chain's head. Written once for the chair's console (console.js) and the
// projector view (/proyeccion, board.js); every word and figure comes from
// the daemon's status (asamblea_documents::explain), none is computed here
// but the percentages shown beside the shares.
"use strict";
const readingText = (tag, value, className) => {
  const node = document.createElement(tag);
  if (value !== undefined) node.textContent = value;
  if (className) node.className = className;
  return node;
};
const readingNumber = (v) => (v === undefined || v === null) ? "" : Number(v).toLocaleString("es-CO");
// "56,78 %": hundredths truncated, integer arithmetic on the daemon's figures.
const readingPercent = (part, whole) => whole > 0
  ? (Math.floor(part * 10000 / whole) / 100).toLocaleString("es-CO", { minimumFractionDigits: 2, maximumFractionDigits: 2 }) + "\u00a0%"
  : "—";

// A figure's name as the room reads it: «A favor / for» (words.js).
const figureLabel = (key) => FIGURES[key].es + " / " + FIGURES[key].en.toLowerCase();

function readingOf(item, head) {
  const r = item.result || {};
  const nodes = [readingText("p", item.title + ": " + (item.outcome_es || r.outcome), "decision " + (r.outcome || ""))];
  if (item.why_es) {
    nodes.push(readingText("p", item.why_es.charAt(0).toUpperCase() + item.why_es.slice(1) + ".", "why"));
    nodes.push(readingText("p", item.why_en + ".", "en"));
  }
  nodes.push(readingText("p", "Regla aplicada: " + item.rule_es + " (" + item.rule_source + ").", "rule"));
  const table = document.createElement("table");
  const row = (cells, header) => {
    const tr = document.createElement("tr");
    cells.forEach((c, i) => tr.append(readingText(header ? "th" : "td", c, i > 0 ? "num" : "")));
    return tr;
  };
  if (item.lists && item.matter === "single-seat-election") {
    // One seat: no quotient; the votes of each candidate against the base
    // the rule names (why_es says how many were needed).
    const base = item.election_base;
    table.append(row(["Candidato / candidate", "Votos / votes", "% de la base", ""], true));
    for (const list of item.lists) {
      table.append(row([list.list, readingNumber(list.votes), readingPercent(list.votes, base), list.seats > 0 ? "ELEGIDO / elected" : ""]));
    }
    table.append(row([figureLabel("blank"), readingNumber(r.blank), readingPercent(r.blank, base), ""]));
    // Present and not voting for anyone: in the base all the same.
    if (base > r.valid) table.append(row(["Presentes sin votar (en la base) / present, not voting", readingNumber(base - r.valid), readingPercent(base - r.valid, base), ""]));
    table.append(row([FIGURES.base.es + " de la decisión / base", readingNumber(base), "100,00\u00a0%", ""]));
    nodes.push(table);
  } else if (item.lists) {
    table.append(row(["Lista / list", "Votos", "Por cuociente", "Residuo", "Por residuo", "Puestos"], true));
    for (const list of item.lists) {
      table.append(row([list.list, readingNumber(list.votes), readingNumber(list.by_quotient), list.remainder,
        readingNumber(list.by_remainder), readingNumber(list.seats)]));
    }
    table.append(row([figureLabel("blank") + " (solo para el cuociente)", readingNumber(r.blank), "", "", "", ""]));
    table.append(row(["Votos válidos / valid votes", readingNumber(r.valid), "", "", "", readingNumber(item.lists.reduce((sum, l) => sum + l.seats, 0))]));
    nodes.push(table);
    if (r.lot_between) nodes.push(readingText("p", "Sorteo pendiente entre " + r.lot_between.join(", ") + ": la presidencia lo realiza y queda en el registro. / A lot is pending.", "lot"));
    // Each lot drawn at the close, with the seed anyone can draw it again from.
    for (const lot of item.lots || []) {
      nodes.push(readingText("p", "Sorteo " + (lot.round + 1) + ": el puesto fue para " + lot.winner
        + " (semilla: la cabeza de la cadena tras el cierre, " + lot.seed.slice(0, 16) + "…). / Lot drawn.", "lot"));
    }
  } else {
    table.append(row(["", "Acciones / shares", "% de la base"], true));
    for (const key of ["for", "against", "blank", "abstain"]) {
      if (r[key] !== undefined) table.append(row([figureLabel(key), readingNumber(r[key]), readingPercent(r[key], r.base)]));
    }
    table.append(row([FIGURES.base.es + " de la decisión / base", readingNumber(r.base), "100,00\u00a0%"]));
    if (r.impeded !== undefined) table.append(row([FIGURES.impeded.es + " (fuera de la base) / impeded", readingNumber(r.impeded), ""]));
    nodes.push(table);
  }
  // Who takes each seat: each list's candidates in their order,
  // principal with suplente (when the meeting file named them).
  if (item.elected && item.elected.length) {
    const seats = document.createElement("table");
    const line = (cells, header) => {
      const tr = document.createElement("tr");
      cells.forEach((c) => tr.append(readingText(header ? "th" : "td", c)));
      return tr;
    };
    seats.append(line(["Elegidos / elected", "Suplente / alternate", "Lista, puesto / list, seat"], true));
    for (const seat of item.elected) {
      const c = seat.candidate;
      seats.append(line([c ? c.principal : "(sin candidato inscrito / no candidate)", c ? c.suplente : "", seat.list + ", " + seat.seat]));
    }
    nodes.push(seats);
  }
  if (head) nodes.push(readingText("p", "Cabeza de la cadena / chain head " + head.seq + ": " + head.head, "head"));
  return nodes;
}
