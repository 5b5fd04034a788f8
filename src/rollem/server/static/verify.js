// A deal every player can check (issue 32, docs/web-table.md, docs/verify.md).
//
// The table page (table.js) hands us each state it receives and its send():
//   window.rollemState = { state, send }; window.dispatchEvent(new Event("rollem:state"))
// From it this module
// - sends this browser's random client seed for the hand, once, when the table
//   announces the hand's commitment (table.deal) and this seat is dealt in: the
//   seed is fixed after the commitment and before the deal;
// - shows the commitment at the deal and through the hand (#verify), and, when the
//   game is to be picked at random after the seeds (a computer player's or a timed-out
//   dealer's choice), the games offered (table.deal.pick);
// - after the hand asks the server to run rollem verify on this seat's own copy
//   (/api/tables/<id>/hands/<n>/verify), shows the result, checks that the copy
//   carries the seed this browser sent, and links the copy for checking it
//   yourself (rollem verify hand-<n>.toml).

const tid = location.pathname.split("/").filter(Boolean)[1];
const sent = new Map();      // hand number -> the client seed this browser sent
const sentFor = new Map();   // hand number -> the commitment that seed was sent for
const checked = new Map();   // hand number -> the verify answer (or a promise of it)
let shown = "";              // what #verify shows now (redrawn only when it changes)

function newSeed() {         // 128 random bits as 32 hex digits (crypto.getRandomValues)
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// One seed a commitment: a deal that lapsed (a player left in the wait, leaving one)
// is committed again under the same hand number, a new deck, and takes new seeds;
// keyed by the hand alone, the page sent none to it and the hand was dealt with the
// empty seed for this seat, "too late" (s73-verify).
function sendSeed(deal, me, send) {
  if (me.seat === null || !deal.players.includes(me.seat)) return;
  if (sentFor.get(deal.hand) === deal.commitment) return;
  sent.delete(deal.hand);
  sentFor.delete(deal.hand);
  if (deal.seeded.includes(me.seat)) return;   // (sent from this seat's other tab)
  const seed = newSeed();
  if (send({ type: "client_seed", hand: deal.hand, seed: seed })) {
    sent.set(deal.hand, seed);
    sentFor.set(deal.hand, deal.commitment);
  }
}

function esc(text) {
  return String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]));
}

// Narrated words with their cards (short text such as "8d") drawn as on the felt and
// in the log ("8♦"): the verdict says where the check stopped in players' words.
const SUIT = { c: "♣", d: "♦", h: "♥", s: "♠" };
function withCards(text) {
  return esc(text).replace(/\b([2-9TJQKA])([cdhs])\b/g, (m, rank, suit) =>
    '<span class="inline-card ' + (suit === "h" || suit === "d" ? "red" : "black")
    + '" data-card="' + m + '">' + (rank === "T" ? "10" : rank) + SUIT[suit] + "</span>");
}

// The commitment and its notes fold away (<details id="verify-box">): on a phone
// (600px or narrower) closed by default, one line between the felt and the chat;
// on a wider screen open. The player's own open or close is kept for later hands.
const phone = window.matchMedia("(max-width: 600px)");
let opened = null;           // the player's choice (true: open), null until they make one

function commitmentLine(hand, commitment, note, more = "") {
  const open = opened === null ? !phone.matches : opened;
  return '<details id="verify-box" class="verify-box"' + (open ? " open" : "") + ">"
    + '<summary class="verify-head">Hand ' + hand + " · deck committed before the deal</summary>"
    + '<code id="verify-commitment" class="verify-hash">' + esc(commitment) + "</code>"
    + (note ? '<div class="hint">' + esc(note) + "</div>" : "") + more + "</details>";
}

async function askVerify(hand, render) {
  if (checked.has(hand)) return;
  checked.set(hand, null);
  let body;
  try {
    const resp = await fetch("/api/tables/" + tid + "/hands/" + hand + "/verify",
      { credentials: "same-origin" });
    body = await resp.json();
    if (!resp.ok && resp.status !== 403) { checked.delete(hand); return; }   // try again later
    if (resp.status === 403) body = null;   // not dealt in: nothing of ours to check
  } catch (e) { checked.delete(hand); return; }
  checked.set(hand, body);
  render();
}

// The seed the copy carries for this seat, against the one this browser sent: the
// same; empty (ours came after the wait: the deal does not wait longer); or another
// (the server dealt with a seed this browser never sent: the check fails).
function seedNote(mine, used) {
  if (mine === undefined || used === mine) return ["", true];
  if (used === "" || used === undefined) {
    // (s62-table2: "came after the wait ... the empty seed for you" read as a fault;
    // it is the rule for a silent seat, a computer player's every hand)
    return ["Your seed came too late for this deal, so it was left out (the empty seed,"
      + " as for a computer player); the deck is still the one committed before the deal,"
      + " and the hand checks the same.", true];
  }
  return ["your copy carries the seed " + used + ", not the one this browser sent (" + mine + ")", false];
}

function resultHtml(hand, v) {
  const [note, seedOk] = seedNote(sent.get(hand), (v.client_seeds || {})[String(v.seat)]);
  const ok = v.ok && seedOk;
  // the verdict in players' words (told); the file's terms (reason) are for rollem verify
  const what = !seedOk ? esc(note) : withCards(v.told || v.reason);
  const file = "hand-" + hand + ".toml";
  // the verdict stays in sight; the copy to check yourself is with the commitment
  return '<div id="verify-result" class="verify-result ' + (ok ? "ok" : "bad") + '" data-status="'
    + (ok ? "ok" : "failed") + '">' + (ok ? "✓ Verified: " : "✗ Not verified: ") + what + "</div>"
    + commitmentLine(hand, v.commitment || "", seedOk ? note : "",
      '<div class="hint"><a id="verify-copy" class="download" href="/api/tables/' + tid + "/hands/"
      + hand + '/history.toml" download="' + file + '">Your copy (TOML)</a>'
      + " · check it yourself: <code>rollem verify " + file + "</code></div>");
}

function render() {
  const got = window.rollemState;
  if (!got) return;
  const state = got.state, me = state.you, deal = state.table.deal, hand = state.hand;
  let html = "";
  if (deal) {
    sendSeed(deal, me, got.send);
    const mine = sent.get(deal.hand);
    html = commitmentLine(deal.hand, deal.commitment, (mine ? "Your seed for it: " + mine
      : "Waiting for the players' seeds.") + (deal.pick ? " The game is then picked at random"
      + " among " + deal.pick.join(", ") + " (in the commitment) from the seeds." : ""));
  } else if (hand && hand.deal) {
    if (hand.result && hand.seat !== null && hand.seat !== undefined) {
      const v = checked.get(hand.hand_no);
      if (v === undefined) askVerify(hand.hand_no, render);
      html = v ? resultHtml(hand.hand_no, v)
        : commitmentLine(hand.hand_no, hand.deal.commitment, "Checking your copy…");
    } else {
      const mine = sent.get(hand.hand_no);
      const [note] = seedNote(mine, hand.deal.client_seeds[String(me.seat)]);
      html = commitmentLine(hand.hand_no, hand.deal.commitment,
        mine ? "Your seed: " + mine + (note ? ". " + note : " (in the deal)") : "");
    }
  }
  if (html === shown) return;
  shown = html;
  const box = document.getElementById("verify");
  box.innerHTML = html;
  box.classList.toggle("hidden", html === "");
}

// a click on the summary (the keyboard's Enter and Space click it too) is the
// player's choice: the box is redrawn each hand with it
document.getElementById("verify").addEventListener("click", (e) => {
  const box = document.getElementById("verify-box");
  if (box && e.target instanceof Element && e.target.closest("#verify-box > summary")) {
    opened = !box.open;
  }
});
window.addEventListener("rollem:state", render);
render();   // a state that came before this module ran
