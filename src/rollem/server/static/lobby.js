"use strict";
// Create-a-table form: POST /api/tables, then go to the table page.
(function () {
  const form = document.getElementById("create");
  const err = document.getElementById("create-error");
  // The dealer's choice boxes only when the game is the dealer's choice (issue 26).
  const choices = document.getElementById("choices");
  const showChoices = () => choices.classList.toggle("hidden", form.elements.game.value !== "dealers-choice");
  form.elements.game.addEventListener("change", showChoices);
  const tourney = document.getElementById("tournament-box");  // issue 28 (not "tournament": a field's name)
  // A tournament's schedule sets the stack and the stakes, its rebuy levels the
  // rebuys: the cash game's fields, ignored then, are hidden (stop 53: "Starting
  // stack 200" above a tournament of 60 chips).
  const showTourney = () => {
    const cash = form.elements.tournament.value === "";
    tourney.classList.toggle("hidden", cash);
    for (const e of form.querySelectorAll(".cash-only")) e.classList.toggle("hidden", !cash);
    for (const e of form.querySelectorAll(".tourney-only")) e.classList.toggle("hidden", cash);
  };
  form.elements.tournament.addEventListener("change", showTourney);
  showTourney();
  showChoices();
  // How it works says how long a closed tab keeps its seat (s64-table): the reconnect
  // grace set under More timing (the server's default, 120 s, to begin with).
  const graceTold = document.getElementById("grace-told");
  const tellGrace = () => {
    const s = Number(form.elements.grace_seconds.value);
    if (!(s > 0)) return;   // (being typed: the last words stand)
    const m = s / 60;
    graceTold.textContent = Number.isInteger(m) ? m + (m === 1 ? " minute" : " minutes")
      : s + (s === 1 ? " second" : " seconds");
  };
  form.elements.grace_seconds.addEventListener("input", tellGrace);
  tellGrace();
  // Every shipped game, from the server: the game list and the dealer's choice boxes.
  fetch("/api/info").then((r) => r.json()).then((info) => {
    const select = form.elements.game, box = document.getElementById("choices");
    for (const g of info.games) {
      if (!select.querySelector('option[value="' + g + '"]')) {
        const o = document.createElement("option"); o.value = g; o.textContent = info.names[g];
        select.appendChild(o);
      }
      if (!form.elements["choice." + g]) {
        const l = document.createElement("label"); l.className = "check";
        const i = document.createElement("input"); i.type = "checkbox"; i.name = "choice." + g;
        i.checked = info.dealers_choice.includes(g);
        l.appendChild(i); l.appendChild(document.createTextNode(" " + info.names[g]));
        box.appendChild(l);
      }
    }
    select.appendChild(select.querySelector('option[value="own-file"]'));  // last
    // The decision clock's bounds: those the server allows a new table.
    if (info.decision_seconds) {
      const clock = form.elements.decision_seconds;
      clock.min = String(info.decision_seconds[0]);
      clock.max = String(info.decision_seconds[1]);
    }
    // The computer players' levels, each with its one line, as the server describes them.
    if (info.bot_levels) {
      document.getElementById("bot-levels").textContent = Object.entries(info.bot_levels)
        .map(([level, hint]) => level + ": " + hint).join(" · ");
    }
  }).catch(() => { /* the three games of the page stay */ });
  // A game file chosen: its id (to deal it alone) and its house options (the [house]
  // table's lines: true/false as boxes, whole numbers, texts from [choices]) to set.
  let ownId = null;
  const fileInput = form.elements.game_file, ownHouse = document.getElementById("own-house");
  fileInput.addEventListener("change", async () => {
    ownId = null;
    for (const l of ownHouse.querySelectorAll("label")) l.remove();
    for (const note of form.querySelectorAll(".also-own")) note.remove();
    ownHouse.classList.add("hidden");
    if (!fileInput.files.length || fileInput.files[0].size > 65536) return;
    const text = await fileInput.files[0].text();
    const id = text.match(/^\s*id\s*=\s*["']([^"'\n]*)["']/m);
    ownId = id ? id[1] : null;
    const section = (name) => text.split(/^\s*\[/m).find((part) => part.startsWith(name + "]")) || "";
    const allowed = {};  // [choices]: the values a text option may take
    for (const m of section("choices").matchAll(/^\s*([a-z][a-z0-9_]*)\s*=\s*\[([^\]\n]*)\]/gm)) {
      allowed[m[1]] = [...m[2].matchAll(/["']([^"'\n]*)["']/g)].map((v) => v[1]);
    }
    const line = /^\s*([a-z][a-z0-9_]*)\s*=\s*(true|false|-?\d+|"[^"\n]*"|'[^'\n]*')\s*(?:#.*)?$/gm;
    for (const m of section("house").matchAll(line)) {
      const [key, raw] = [m[1], m[2]];
      const kind = raw === "true" || raw === "false" ? "bool" : /^-?\d/.test(raw) ? "int" : "text";
      const value = kind === "text" ? raw.slice(1, -1) : raw;
      const same = form.elements["house." + key];
      if (same) {
        // One option of the table by that name (the server keeps one value a name):
        // the table's own input takes the file's default and says it is the file's too.
        if (same.type === "checkbox") same.checked = value === "true"; else same.value = value;
        const note = document.createElement("span"); note.className = "also-own";
        note.textContent = " (also your game's option)";
        same.closest("label").appendChild(note);
        continue;
      }
      const l = document.createElement("label");
      let input;
      if (kind === "bool") {
        l.className = "check";
        input = document.createElement("input"); input.type = "checkbox";
        input.checked = value === "true";
      } else if (kind === "text" && allowed[key]) {
        input = document.createElement("select");
        for (const v of allowed[key]) {
          const o = document.createElement("option"); o.value = v; o.textContent = v;
          input.appendChild(o);
        }
        input.value = value;
      } else {
        input = document.createElement("input");
        input.type = kind === "int" ? "number" : "text";
        if (kind === "int") input.step = "1";
        input.value = value;
      }
      input.name = "house." + key;
      const words = " " + key.replace(/_/g, " ");
      if (kind === "bool") { l.appendChild(input); l.appendChild(document.createTextNode(words)); }
      else { l.appendChild(document.createTextNode(words + " ")); l.appendChild(input); }
      ownHouse.appendChild(l);
      ownHouse.classList.remove("hidden");
    }
  });
  // While the table is made and its page loads (a second or more on a loaded server,
  // a phone, a slow link) the button says so and takes no second press (which made a
  // second table), and the invite link shows at once (stop 56: the lobby stayed as it
  // was, its button live, until the table page came).
  const btn = document.getElementById("create-btn");
  const status = document.getElementById("create-status");
  const label = btn.textContent;
  let busy = false;
  const idle = () => {
    busy = false; btn.disabled = false; btn.textContent = label;
    btn.removeAttribute("aria-busy"); status.textContent = "";
  };
  // (Back from the table page may show this page as it was left: ready again)
  window.addEventListener("pageshow", (ev) => { if (ev.persisted) idle(); });
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (busy) return;
    busy = true; btn.disabled = true; btn.setAttribute("aria-busy", "true");
    btn.textContent = "Creating the table…";
    err.textContent = "";
    try {
      if (!await create()) idle();
    } catch (e) {
      idle();
      err.textContent = "the server cannot be reached";
    }
    // A refusal is said under the form's last field, below the floating button:
    // brought into view, or a phone (or a desktop's long form) showed nothing
    // happen when the button was pressed (s60-fresh).
    if (err.textContent) err.scrollIntoView({ block: "nearest" });
  });
  // The form sent: true once the table is made and its page is on its way.
  async function create() {
    const data = { house: {}, choices: [] };
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.name.startsWith("choice.")) { if (el.checked) data.choices.push(el.name.slice(7)); continue; }
      if (el.type === "file") {
        if (el.files.length) {
          if (el.files[0].size > 65536) { err.textContent = "the " + (el.name === "game_file" ? "game" : "schedule") + " file is larger than 64 KB"; return false; }
          data[el.name] = await el.files[0].text();
        }
        continue;
      }
      if (el.type === "number" && (el.value.trim() === "" || !Number.isFinite(Number(el.value)))) {
        const label = el.closest("label");
        const what = label ? label.textContent.trim() : el.name;
        err.textContent = what + ": enter a number" + (el.min !== "" ? " (at least " + el.min + ")" : "");
        el.focus({ preventScroll: true });  // (the refusal, which names it, is scrolled to)
        return false;
      }
      if (el.name === "payouts") {  // "65/35" -> [65, 35] (the server checks them)
        const text = el.value.trim();
        data.payouts = text === "" ? [] : text.split(/[\s\/,]+/).map(Number);
        continue;
      }
      let value = el.type === "checkbox" ? el.checked : el.value;
      if (el.type === "number") value = Number(value);
      if (el.name.startsWith("house.")) data.house[el.name.slice(6)] = value;
      else data[el.name] = value;
    }
    if (data.game === "own-file") {  // the uploaded game alone
      if (!data.game_file || !ownId) {
        err.textContent = "Game: choose your game file below (it names its game's id)";
        return false;
      }
      data.game = ownId;
    }
    const resp = await fetch("/api/tables", {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data), credentials: "same-origin",
    });
    const body = await resp.json();
    if (!resp.ok) { err.textContent = body.form_message || body.message || "could not create the table"; return false; }
    // The table page shows the invite link at once, before its websocket is up.
    try { sessionStorage.setItem("rollem_invite_" + body.id, body.invite || ""); } catch (e) { /* private mode */ }
    btn.textContent = "Opening your table…";
    status.textContent = "Table created. Invite link: ";
    const a = document.createElement("a");
    a.href = body.url; a.textContent = body.invite || (location.origin + body.url);
    status.appendChild(a);
    status.scrollIntoView({ block: "nearest" });
    window.location.href = body.url;
    return true;
  }
})();
