// The page's title (the browser tab's words): "● Your turn — Home game — rollem" on
// your turn, else "Home game — rollem". While your turn waits and the page is not
// in view (another tab, the phone's other app), the title blinks between that and
// "○ YOUR TURN — Home game" once a second, as Poker Now's tab does, so a friend in
// another tab sees it (s61-night: the title changed once, easily missed, and the
// sounds are off until tapped on). It stops when the page is seen again or the
// turn ends.
const BLINK_MS = 1000;
let base = "", turn = false, timer = null, lit = false;

function words() { return (turn ? "● Your turn — " : "") + base + " — rollem"; }
function blinkWords() { return "○ YOUR TURN — " + base; }
function put(text) { if (document.title !== text) document.title = text; }
function stop() {
  if (timer !== null) { clearInterval(timer); timer = null; }
  lit = false;
  put(words());
}
function start() {
  if (timer !== null) return;
  timer = setInterval(() => {
    lit = !lit;
    put(lit ? blinkWords() : words());
  }, BLINK_MS);
}
function update() {
  if (turn && document.hidden) start(); else stop();
}
document.addEventListener("visibilitychange", update);

// The title for table `name` (a string) and whether it is your turn (a boolean);
// called at each state (main.js render).
export function setTabTitle(name, yourTurn) {
  base = String(name);
  turn = !!yourTurn;
  if (timer === null) put(words());
  update();
}
