// A replicated meeting's pages follow the node that serves (nodes.rs,
// docs/replication.md). The page keeps the list of nodes from
// /api/v1/nodes; when the node it was opened at stops answering, it asks
// every other node whether it serves (only the leader does: a standby
// does not listen) and goes on there: the board at the same page, a
// console signed in at the same console, by posting its session's pass
// (passes.rs: asked for every minute, kept in this page's memory only),
// else at the sign-in. A meeting on one machine names no node (and the
// internet listener has no such route): the page stops asking at the
// first answer.
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
  // The session's pass, for a console signed in (never stored).
  let pass = null;
  let passAsked = 0;
  // A console that just went on here with its pass (`?siguio=1`, from
  // /personal/continuar) says so once it knows this node's name.
  let followed = new URLSearchParams(location.search).get("siguio") === "1";
  if (followed) history.replaceState(null, "", location.pathname);

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
        const carried = staff && pass !== null && pass.until > Date.now();
        const again = staff && !carried;
        notice("La reunión sigue en el nodo " + node.name + " (" + node.address + "): abriendo allí"
          + (carried ? " su consola" : "") + (again ? "; entre de nuevo con su clave" : "")
          + "… / the meeting goes on at node " + node.name + ": opening " + (carried ? "your console " : "it ")
          + "there" + (again ? "; sign in again" : "") + "…");
        setTimeout(() => {
          if (carried) carry(origin);
          else location.href = origin + (staff ? "/personal" : location.pathname + location.search);
        }, 1500);
        return;
      }
    }
  }

  // Posts the pass to the node at `origin`, which opens a session of its
  // own and goes on to this console.
  function carry(origin) {
    const form = document.createElement("form");
    form.method = "post";
    form.action = origin + "/personal/continuar";
    form.hidden = true;
    for (const [name, value] of [["pase", pass.text], ["destino", location.pathname]]) {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = name;
      field.value = value;
      form.append(field);
    }
    // The node checks that the form comes from a page of a node: under
    // the daemon's `Referrer-Policy: no-referrer` a browser would send
    // `Origin: null`; for this last step the page's origin goes (no path).
    const policy = document.createElement("meta");
    policy.name = "referrer";
    policy.content = "strict-origin";
    document.head.append(policy);
    document.body.append(form);
    form.submit();
  }

  // A console signed in at a replicated meeting holds a pass for its
  // session, asked for again every minute (good for five).
  async function renew() {
    const csrf = document.querySelector('meta[name="csrf"]');
    if (!csrf || !known || !known.nodes || known.nodes.length === 0) return;
    if (Date.now() - passAsked < 60000) return;
    passAsked = Date.now();
    try {
      const r = await fetch("/api/v1/session/pass", {
        method: "POST",
        cache: "no-store",
        credentials: "same-origin",
        headers: { "x-asamblea-csrf": csrf.content },
      });
      if (!r.ok) return;
      const answer = await r.json();
      // Trusted for a little less than it lasts: the nodes' clocks differ.
      pass = { text: answer.pass, until: Date.now() + answer.expires_in_ms - 30000 };
      // Only that there is one (the browser tests wait for it).
      document.body.dataset.pase = "1";
    } catch (_) {
      // Asked again at the next minute.
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
    if (r.status === 404) return stop();
    if (!r.ok) return;
    let nodes = null;
    try { nodes = await r.json(); } catch (_) { nodes = null; }
    if (nodes && !nodes.this) return stop();
    if (nodes && nodes.nodes && nodes.nodes.length > 0) {
      known = nodes;
      sessionStorage.setItem(KEY, JSON.stringify(known));
      renew();
      if (followed) {
        followed = false;
        notice("Su sesión siguió en el nodo " + nodes.this + ", que lleva la reunión ahora. / "
          + "Your session went on at node " + nodes.this + ", which holds the meeting now.");
      }
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

  const every = setInterval(check, 2000);
  function stop() { clearInterval(every); }
  check();
})();
