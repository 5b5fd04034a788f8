"use strict";
// Create-a-table form: POST /api/tables, then go to the table page.
(function () {
  const form = document.getElementById("create");
  const err = document.getElementById("create-error");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const data = { house: {} };
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === "number" && (el.value.trim() === "" || !Number.isFinite(Number(el.value)))) {
        const label = el.closest("label");
        const what = label ? label.textContent.trim() : el.name;
        err.textContent = what + ": enter a number" + (el.min !== "" ? " (at least " + el.min + ")" : "");
        el.focus();
        return;
      }
      let value = el.type === "checkbox" ? el.checked : el.value;
      if (el.type === "number") value = Number(value);
      if (el.name.startsWith("house.")) data.house[el.name.slice(6)] = value;
      else data[el.name] = value;
    }
    try {
      const resp = await fetch("/api/tables", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(data), credentials: "same-origin",
      });
      const body = await resp.json();
      if (!resp.ok) { err.textContent = body.message || "could not create the table"; return; }
      // The table page shows the invite link at once, before its websocket is up.
      try { sessionStorage.setItem("rollem_invite_" + body.id, body.invite || ""); } catch (e) { /* private mode */ }
      window.location.href = body.url;
    } catch (e) {
      err.textContent = "the server cannot be reached";
    }
  });
})();
