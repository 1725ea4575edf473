// A replicated meeting's pages follow the node that serves (nodes.rs,
// docs/replication.md). The page keeps the list of nodes from
// /api/v1/nodes; when the node it was opened at stops answering, it asks
// every other node whether it serves (only the leader does: a standby
// does not listen) and goes on there: the board at the same page, a
// console at the sign-in (a session belongs to the node that opened it).
// A meeting on one machine has no nodes: nothing of this runs.
"use strict";
(function () {
  const KEY = "asamblea-nodos";
  let known = null;
  try { known = JSON.parse(sessionStorage.getItem(KEY) || "null"); } catch (_) { known = null; }
  let silent = 0;
  // The addresses of the first answer: those the page's Content Security
  // Policy names (it came with the page).
  let covered = null;
  let moving = false;

  async function ask(origin) {
    try {
      // An opaque answer is enough: the node answered, so it serves.
      await fetch(origin + "/api/v1/nodes", { mode: "no-cors", cache: "no-store", credentials: "omit" });
      return true;
    } catch (_) {
      return false;
    }
  }

  function notice(text) {
    let box = document.getElementById("otro-nodo");
    if (!box) {
      box = document.createElement("div");
      box.id = "otro-nodo";
      box.className = "following";
      box.setAttribute("role", "alert");
      const main = document.querySelector("main");
      if (!main) return;
      main.prepend(box);
    }
    box.textContent = text;
  }

  async function seek() {
    if (!known || !known.nodes) return;
    for (const node of known.nodes) {
      const origin = "https://" + node.address;
      if (origin === location.origin || node.name === known.this) continue;
      if (await ask(origin)) {
        moving = true;
        const staff = !!document.body.dataset.console;
        const target = origin + (staff ? "/personal" : location.pathname + location.search);
        notice("La reunión sigue en el nodo " + node.name + " (" + node.address + "): abriendo allí"
          + (staff ? "; entre de nuevo con su clave" : "") + "… / the meeting goes on at node "
          + node.name + ": opening it there" + (staff ? "; sign in again" : "") + "…");
        setTimeout(() => { location.href = target; }, 1500);
        return;
      }
    }
  }

  async function check() {
    if (moving) return;
    let r;
    try {
      r = await fetch("/api/v1/nodes", { cache: "no-store", credentials: "same-origin" });
    } catch (_) {
      // Two checks without an answer (some 4 s): the node is gone.
      silent += 1;
      if (silent >= 2) await seek();
      return;
    }
    // Any answer, even a refusal, says this node is there.
    silent = 0;
    if (!r.ok) return;
    let nodes = null;
    try { nodes = await r.json(); } catch (_) { nodes = null; }
    if (nodes && nodes.nodes && nodes.nodes.length > 0) {
      known = nodes;
      sessionStorage.setItem(KEY, JSON.stringify(known));
      const addresses = nodes.nodes.map((node) => node.address);
      if (covered === null) {
        covered = addresses;
      } else if (addresses.some((a) => !covered.includes(a)) && !typing()) {
        // A node this page's policy does not name yet (it published its
        // address after the page was loaded): loaded again, the policy
        // names it, and the page may ask it when its node is gone.
        location.reload();
      }
    }
  }

  // Whether a person has something typed on the page (a console's form):
  // it is not reloaded under them.
  function typing() {
    return [...document.querySelectorAll("input, textarea")].some((field) =>
      field.type !== "hidden" && field.type !== "submit" && field.value !== "");
  }

  check();
  setInterval(check, 2000);
})();
