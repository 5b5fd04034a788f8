// Animations and sounds.
import { $, store } from "./state.js";

let alertsOn = store.get("rollem_alerts") === "1";
export function turnAlert() {
  if (!alertsOn) return;
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (Ctx) {
      const ctx = turnAlert.ctx || (turnAlert.ctx = new Ctx());
      const o = ctx.createOscillator(), g = ctx.createGain();
      o.frequency.value = 880; g.gain.value = 0.08;
      o.connect(g); g.connect(ctx.destination); o.start(); o.stop(ctx.currentTime + 0.15);
    }
  } catch (e) { /* no sound here */ }
  if (navigator.vibrate) navigator.vibrate(150);
}
function renderAlertsBtn() {
  const b = $("alerts-btn");
  b.textContent = alertsOn ? "sound on" : "sound off";
  b.setAttribute("aria-pressed", String(alertsOn));
  b.title = alertsOn ? "Sound and vibration on your turn: on" : "Sound and vibration on your turn: off";
}
export function initMotion() {
$("alerts-btn").onclick = () => { alertsOn = !alertsOn; store.set("rollem_alerts", alertsOn ? "1" : "0"); renderAlertsBtn(); };
renderAlertsBtn();
}
