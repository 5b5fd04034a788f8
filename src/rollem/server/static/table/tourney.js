// A tournament table (issue 28): the level clock (counted down here from the
// server's seconds_left), the stakes now and next, the places of the busted, the
// prize pool and payouts, rebuys, and a deal among the final players.
import { $, el, S, send, sendOnce, seatName } from "./state.js";
import { betWords } from "./stakes.js";

export const ORDINAL = (n) => n + (n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd"
  : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th");
// a one-game table's level says the forced bets its hands post ("blinds 1/2"),
// a dealer's choice the level's ante and bets (each game takes what it takes)
const stakesText = (lv, structure) => (lv.forced !== undefined ? (lv.forced ? lv.forced + " · " : "")
  : (lv.ante ? "ante " + lv.ante + " · " : "")) + betWords(structure, lv.small_bet, lv.big_bet);
// A finishing place in words, "=6th" where two or more share it, as results tables
// write a tie (stop 59: "6th: Hal  6th: Amy", and no 7th, left a friend to guess
// that two busted together; "6th (tie)" was too long for a phone's two a line).
export function placeWords(tt, place) {
  const shared = Object.values(tt.places || {}).filter((p) => p === place).length > 1;
  return (shared ? "=" : "") + ORDINAL(place);
}
const andList = (xs) => (xs.length < 2 ? xs.join("") : xs.slice(0, -1).join(", ") + " and " + xs[xs.length - 1]);
let endsAt = null;  // page time the level ends (ms), or null
// The level (1-based) of the last hand dealt (the server's `played_to`; the clock's
// level from a server before it).
const playedTo = (tt) => tt.played_to || tt.level;

// The tournament's settings as rows of the How to play panel (issue 28): the
// schedule, its levels, the buy-in, rebuys, payouts and the games' rotation.
export function tournamentRows(t) {
  const tt = t && t.tournament;
  if (!tt) return [];
  const first = tt.levels[0], last = tt.levels[tt.levels.length - 1];
  const minutes = [...new Set(tt.levels.map((lv) => lv.minutes))];
  const breaks = tt.levels.map((lv, i) => (lv.break ? lv.break + " minutes after level " + (i + 1) : "")).filter(Boolean);
  const pays = (tt.percentages || []).map((p, i) => ORDINAL(i + 1) + " " + p + "%").join(" · ");
  const rows = [
    ["Tournament", tt.schedule + " schedule, starting stack " + t.config.stack],
    ["Levels", tt.levels.length + " of " + (minutes.length === 1 ? minutes[0] + " minutes" : minutes.join("/") + " minutes")
      + ", from " + stakesText(first, t.config.structure) + " to " + stakesText(last, t.config.structure)],
    ["Breaks", breaks.length ? breaks.join(", ") : "none (the host may pause the table)"],
    tt.over ? ["Played to", "level " + playedTo(tt) + ": " + stakesText(tt.levels[playedTo(tt) - 1], t.config.structure)]
      : ["Level now", tt.level + ": " + stakesText(tt.stakes, t.config.structure)],
    ["Buy-in", String(tt.buy_in) + " (the prize pool: the buy-ins and rebuys" + (tt.addon_chips ? " and add-ons" : "")
      + ", now " + tt.prize_pool + ")"],
    ["Rebuys", tt.rebuy_levels ? "in the first " + tt.rebuy_levels + " level" + (tt.rebuy_levels === 1 ? "" : "s")
      + ", a buy-in each" + (t.config.private || t.approve_joins ? ""
        : "; late registration as long, at a free seat") : "none"],
    ...(tt.addon_chips ? [["Add-on", "+" + tt.addon_chips + " chips for " + tt.addon_price + ", once, to every player still in"
      + " at the break after level " + tt.rebuy_levels + " (when the rebuys close)"]] : []),
    ["Payouts", pays || "the shipped table for the field"],
    ["Deal", "the players left may agree one when " + tt.deal_from + " or fewer are left"],
  ];
  if (t.config.game === "dealers-choice") {
    rows.push(["Games", tt.rotate ? "rotate by " + (t.config.rotate === "orbit" ? "orbit" : "level")
      + " in the host's order: " + (t.config.choices || []).map((g) => t.game_names[g] || g).join(", ")
      : "the button chooses each hand"]);
  }
  return rows;
}

function clockText() {
  const t = S.state && S.state.table.tournament;
  if (!t || !t.started || t.over || t.seconds_left === null) return "";
  const left = t.running && endsAt !== null ? Math.max(0, (endsAt - Date.now()) / 1000) : t.seconds_left;
  const m = Math.floor(left / 60), s = Math.floor(left % 60);
  return m + ":" + String(s).padStart(2, "0") + (t.running ? "" : " (clock stopped)");
}

// The last call for a rebuy (stop 51): who may rebuy and the whole seconds left,
// counted down here from the stored end (``until``, on the server's clock: the
// page's skew is allowed for) with no message a second; while its time stands
// (``held_by``: the host's pause, a rebuy waiting for the host) the seconds stand
// and it says why.  The words are the server's (Tourney.last_call_words).
const LAST_CALL_HELD = { pause: "held while the host pauses the table",
  request: "held until the host answers the rebuy" };
export function lastCallText(call) {
  const held = call.until === null || call.until === undefined;
  const left = held ? Number(call.held_left || 0) : Number(call.until) - (Date.now() / 1000 + S.clockSkew);
  const seconds = Math.max(0, Math.ceil(Math.max(0, left) - 0.001));  // (stored to the thousandth)
  const why = held && LAST_CALL_HELD[call.held_by] ? ", " + LAST_CALL_HELD[call.held_by] : "";
  const many = (call.seats || []).length > 1;   // ("Amy, Ben and Cat have 43 s")
  return "Last call for a rebuy: " + call.who + (many ? " have " : " has ") + seconds + " s to rebuy" + why
    + "; then the tournament ends.";
}
function tickLastCall() {
  const line = document.querySelector("#notice .last-call");
  const call = S.state && S.state.table.tournament && S.state.table.tournament.last_call;
  if (!line || !call) return;
  const text = lastCallText(call);
  if (line.textContent !== text) line.textContent = text;   // (once a second, not each tick)
}

// A scheduled break (s59-breaks): "Break: 4:32 left", counted down here from its
// stored end (``until``, the server's clock; ``left`` while the host's pause holds
// it), then the next level's stakes.  Drawn on the felt's status line and in the
// tournament panel (every element of class ``break-left``).
export function breakText(b, structure) {
  const held = b.until === null || b.until === undefined;
  const left = held ? Number(b.left || 0) : Number(b.until) - (Date.now() / 1000 + S.clockSkew);
  const secs = Math.max(0, Math.ceil(Math.max(0, left) - 0.001));
  return (b.addon ? "Break for the add-on: " : "Break: ") + Math.floor(secs / 60) + ":" + String(secs % 60).padStart(2, "0") + " left"
    + (held ? " (held while the host pauses)" : "") + " · next level " + (b.after + 1) + ": "
    + stakesText(b.next, structure);
}
// The countdown's words into an element (its text stays ``text``): a narrow line
// wraps after the countdown, the next level's words (class ``break-next``) start
// the next line whole where they fit on one, else wrap between their " · "
// phrases only (each unbroken, class ``nw``, its dot ending it: a dot ends a
// line, never starts one); s60-polish: a phone's felt read "… · fixed limit / 4/8".
export function putBreakText(box, text) {
  if (box.textContent === text) return;
  box.textContent = "";
  const [clock, ...next] = text.split(" · ");
  box.appendChild(el("span", "nw", clock + (next.length ? " ·" : "")));
  if (!next.length) return;
  const rest = el("span", "break-next");
  next.forEach((phrase, k) => {
    rest.append(el("span", "nw", phrase + (k < next.length - 1 ? " ·" : "")));
    if (k < next.length - 1) rest.append(" ");
  });
  box.append(" ", rest);
}
function tickBreak() {
  const t = S.state && S.state.table;
  const b = t && t.tournament && t.tournament.break;
  if (!b) return;
  const text = breakText(b, t.config.structure);
  for (const span of document.querySelectorAll(".break-left")) putBreakText(span, text);
}

export function startLevelClock() {
  setInterval(() => { const c = $("level-clock"); if (c) c.textContent = clockText(); }, 500);
  setInterval(tickLastCall, 250);
  setInterval(tickBreak, 250);
}

// How long rebuys stay open: to a level, or the whole tournament where its schedule
// has no level past the rebuy levels (after the last level its stakes stay, and so
// do the rebuys; stop 54: "until level 3" of a schedule of 2 levels).
export function rebuysUntil(tt) {
  return tt.rebuy_levels >= tt.levels.length ? "all tournament" : "until level " + (tt.rebuy_levels + 1);
}
// A phone's panel during play (s61-table2): folded to its head (the level and its
// clock, or the break's countdown; how many are left) with a "More" button that
// opens the rest (the add-on, the pool, the places, the levels); the add-on's offer
// is in the dock too.  At the break it was 343 px tall at 390x844 and put the
// felt's tiles under the dock until scrolled.  A wide screen (the side column)
// shows it whole: the fold's button and the folding are a narrow screen's only
// (style.css).  Opened, it stays open until folded again.
let tourneyOpen = false;
export function renderTournament(t, me) {
  const box = $("tourney"), tt = t.tournament;
  box.classList.toggle("hidden", !tt);
  if (!tt) return;
  const folds = !!(tt.started && !tt.over);
  box.classList.toggle("folded", folds && !tourneyOpen);
  endsAt = tt.seconds_left === null || tt.seconds_left === undefined ? null : Date.now() + tt.seconds_left * 1000;
  box.innerHTML = "";
  const head = el("div", "tourney-head");
  if (tt.started && !tt.over && tt.break) {
    // (the break's own line below says the next level and its stakes: s59, the head
    // read "Level 2 of 3 · ante 2 … · on a break" beside "next level 2: ante 2 …")
    head.append(el("b", "", "On a break after level " + tt.break.after + " of " + tt.levels.length));
  } else if (tt.over) {
    // (over: no stakes are played any more; s61-table saw "Level 3 of 3 · ante 5 ..."
    // above "The tournament is over."; the level of the last hand dealt, not the
    // clock's, and a settle in a break says so: s64-table read "played to level 2
    // of 2" where it ended in the break after level 1)
    head.append(el("b", "", "Tournament"), " · " + (tt.ended_in_break
      ? "ended in the break after level " + tt.ended_in_break
      : "played to level " + playedTo(tt)) + " of " + tt.levels.length);
  } else head.append(el("b", "", "Level " + tt.level + " of " + tt.levels.length), " · ",
    el("span", "tourney-stakes", stakesText(tt.stakes, t.config.structure)));
  if (tt.started && !tt.over && tt.break) {
    // (said above)
  } else if (tt.started && !tt.over && tt.next) {
    const clock = el("b", "level-clock", clockText());
    clock.id = "level-clock";
    head.append(" · next ", el("span", "", stakesText(tt.next, t.config.structure)), " in ", clock);
  } else if (tt.started && !tt.over) head.append(" · the last level");
  // (not on a break: no game is dealt then, and the head wrapped on a phone, "On a
  // break after level 1 of 3 · the games rotate by / level", s60-table; How to
  // play's Games row still says it)
  const onBreak = tt.started && !tt.over && tt.break;
  if (tt.rotate && !onBreak) head.append(" · the games rotate by " + (t.config.rotate === "orbit" ? "orbit" : "level"));
  if (folds) {
    // (folded, a phone's head says how many are left: the pool's line is hidden; not
    // on a break, whose head stays one line, s60-polish)
    if (!onBreak) head.append(el("span", "tourney-fold-left", " · " + tt.left.length + " of " + tt.entrants.length + " left"));
    const more = el("button", "small tourney-fold", tourneyOpen ? "Less" : "More");
    more.type = "button";
    more.setAttribute("aria-expanded", String(tourneyOpen));
    more.setAttribute("aria-label", tourneyOpen ? "Fold the tournament panel" : "Open the tournament panel: add-on, prize pool, places, levels");
    more.onclick = () => {
      tourneyOpen = !tourneyOpen;
      renderTournament(S.state.table, S.state.you);
      const again = box.querySelector(".tourney-fold");
      if (again) again.focus();
    };
    head.append(" ", more);
  }
  box.appendChild(head);
  if (tt.started && !tt.over && tt.break) {   // the break's countdown, and the host's "Resume now"
    const line = el("div", "tourney-break");
    const left = el("b", "break-left");
    putBreakText(left, breakText(tt.break, t.config.structure));
    line.appendChild(left);
    if (me.host) {
      const now = el("button", "small", "Resume now"); now.type = "button"; now.dataset.host = "end_break";
      now.onclick = () => send({ type: "host", op: "end_break" });
      line.append(" ", now);
    }
    box.appendChild(line);
  }
  renderAddon(box, t, tt, me);
  // A level that rose during a hand: the hand in play keeps the stakes it was
  // dealt at (its `level`), the new ones start with the next hand.
  const hand = S.state && S.state.hand;
  if (tt.started && !tt.over && hand && !hand.result && hand.level && hand.level < tt.level) {
    box.appendChild(el("div", "tourney-now", "This hand is still played at level " + hand.level
      + "'s stakes; level " + tt.level + "'s start with the next hand."));
  }
  const pool = tt.prize_pool;
  const pct = tt.percentages || [];
  const pays = pct.map((p, i) => ORDINAL(i + 1) + " " + p + "%").join(" · ");
  box.appendChild(el("div", "tourney-pool", "Prize pool " + pool + (pays ? " (" + pays + ")" : "")
    + (tt.started ? " · " + (tt.over ? tt.entrants.length + " entrants"  // (after a deal all may hold chips)
      : tt.left.length + " of " + tt.entrants.length + " left") : " · buy-in " + tt.buy_in)
    + (tt.rebuy_open ? " · rebuys " + (tt.entries_open ? "and late registration " : "") + "open " + rebuysUntil(tt) : "")));
  if (tt.over) {
    // (s63-table: every person out, the computer players left are placed by chips
    // at once instead of dealing on to nobody)
    box.appendChild(el("div", "tourney-over", tt.deal ? "Over by a deal among the final players."
      : tt.settled ? "Over: every person was out, so the computer players left were placed by their chips."
      : "The tournament is over."));
  }
  const places = Object.entries(tt.places || {}).map(([s, p]) => [Number(s), p]).sort((a, b) => a[1] - b[1]);
  if (places.length) {
    const list = el("ul", "tourney-places");
    list.setAttribute("aria-label", "Finishing places");
    for (const [seat, place] of places) {
      const won = tt.payouts ? tt.payouts[String(seat)] : null;
      // busted in one hand with the same chips: the place is shared ("=3rd"), its prizes split
      const li = el("li", "", placeWords(tt, place) + ": " + seatName(t, seat) + (won ? " wins " + won : ""));
      li.dataset.seat = String(seat);
      list.appendChild(li);
    }
    box.appendChild(list);
  }
  // Out, but placed only once the busted who may still rebuy have answered: a
  // rebuy takes its bust back and moves the places of those who busted with or
  // after it (stop 59: "3rd: Bot 2", a paid place, became "4th").
  const waiting = tt.may_rebuy || [];
  const unplaced = !tt.started || tt.over || !(waiting.length || tt.entries_open) ? []
    : tt.entrants.filter((s) => !tt.left.includes(s) && !waiting.includes(s) && !(String(s) in (tt.places || {})));
  if (unplaced.length) {
    // (late registration open: a late entrant adds a place below every bust)
    box.appendChild(el("div", "tourney-unplaced", "Out: " + andList(unplaced.map((s) => seatName(t, s)))
      + (tt.entries_open ? " (placed once late registration and the rebuys close)."
        : " (placed once " + andList(waiting.map((s) => seatName(t, s))) + (waiting.length > 1 ? " have" : " has")
      + " rebought or said no).")));
  }
  renderDeal(box, t, tt, me);
  const levels = el("details", "tourney-levels");
  levels.appendChild(el("summary", "", "Levels"));
  const table = el("table", "");
  table.appendChild(el("tr", "")).append(el("th", "", "Level"), el("th", "", "Ante"), el("th", "", t.config.structure === "fixed-limit" ? "Bets" : "Min bet"), el("th", "", "Minutes"));
  tt.levels.forEach((lv, i) => {
    const row = el("tr", i + 1 === (tt.over ? playedTo(tt) : tt.level) ? "current" : "");
    row.append(el("td", "", String(i + 1)), el("td", "", String(lv.ante)),
      el("td", "", lv.small_bet + "/" + lv.big_bet), el("td", "", String(lv.minutes)));
    table.appendChild(row);
    if (lv.break) {   // (a break after this level, in minutes)
      const pause = el("tr", "break-row" + (tt.break && tt.break.after === i + 1 ? " current" : ""));
      const cell = el("td", "", "Break: " + lv.break + " minutes");
      cell.colSpan = 4;
      pause.appendChild(cell);
      table.appendChild(pause);
    }
  });
  levels.appendChild(table);
  box.appendChild(levels);
}

// The add-on (stop 60): while its window is open (the break after the last rebuy
// level), the offer with Take / No thanks to a player still in who has not
// answered, and who took it; after, who took it.
export function addonOffer(t, tt, me) {
  const a = tt && tt.addon;
  if (!a || !a.open || me.seat === null || !(a.waiting || []).includes(me.seat)) return null;
  const row = el("div", "addon-offer");
  // (asked as a question: "... for 5 —" left its dash dangling at a phone's seat,
  // where the buttons wrap under the words, s62-look)
  row.append(el("span", "", "Add-on: +" + a.chips + " chips for " + a.price + "?"));
  const yes = el("button", "small addon-take", "Take"), no = el("button", "small addon-decline", "No thanks");
  yes.type = no.type = "button";
  yes.dataset.action = "addon-take"; no.dataset.action = "addon-decline";
  yes.onclick = () => sendOnce("addon", { type: "addon", take: true });
  no.onclick = () => sendOnce("addon", { type: "addon", take: false });
  // (the two buttons kept together, the words above them where the line is narrow:
  // a phone's seat wrapped "No thanks" alone onto a second line, s60-polish)
  const answers = el("span", "addon-answers");
  answers.append(yes, " ", no);
  row.append(answers);
  return row;
}
function renderAddon(box, t, tt, me) {
  const a = tt.addon;
  // (while its window is open only: after the break "Took the add-on: ..." stayed in
  // the panel for the rest of the tournament, s61-table; the chat keeps each line)
  if (!a || !tt.started || tt.over || !a.open) return;
  const line = el("div", "tourney-addon");
  const took = a.taken.map((s) => seatName(t, s));
  // (its Take and No thanks are your seat's, where your every decision is made and
  // in view at both sizes; s62-table2: a laptop showed the offer twice, panel and
  // seat, and a phone's folded panel showed it only when opened.  s63-table: the
  // seat's offer says its terms; here, yours to answer, the panel points to it)
  const yours = me.seat !== null && (a.waiting || []).includes(me.seat);
  line.append(el("span", "", (yours ? "Add-on open until play resumes."
    : "Add-on open: +" + a.chips + " chips for " + a.price + ", once, to every player still in until play resumes.")
    + " " + (took.length ? "Took the add-on: " + andList(took) + "." : "Nobody has taken it yet.")));
  if (yours) line.append(el("span", "addon-yours", " Yours to answer at your seat."));
  box.appendChild(line);
}

// When a proposal made during a hand is worked out: the server waits for the
// hand in play, or the one on its way (its game being named in a dealer's
// choice, or its deal waiting for the players' seeds), to end.
function dealWaitText(t, me) {
  const hand = S.state && S.state.hand;
  if (t.choice) {
    const game = t.choice.game ? (t.game_names || {})[t.choice.game] || t.choice.game : null;
    return game ? "Worked out when the next hand (" + game + ") ends."
      : "Worked out when the next hand ends: " + (t.choice.seat === me.seat ? "you are"
        : seatName(t, t.choice.seat) + " is") + " naming its game.";
  }
  if (hand && !hand.result) return "Worked out when the hand in play ends.";
  return "Worked out when the hand being dealt ends.";
}

function renderDeal(box, t, tt, me) {
  if (!tt.started || tt.over) return;
  const playing = me.seat !== null && tt.left.includes(me.seat);
  const p = tt.proposal;
  if (!p) {
    // (a deal is for the final players: from deal_from left, the places paid
    // plus one, once nobody busted may still rebuy; before, the server refuses
    // one, too_early)
    if (!playing || tt.left.length < 2 || tt.left.length > tt.deal_from) return;
    if (!tt.deal_open) {
      const who = (tt.may_rebuy || []).map((s) => seatName(t, s));
      if (who.length) {
        box.appendChild(el("div", "tourney-deal hint", "A deal waits until " + andList(who)
          + (who.length === 1 ? " has" : " have") + " rebought or said no."));
      }
      return;
    }
    const row = el("div", "tourney-deal");
    row.append(el("span", "", "Deal: "));
    // after a proposal of mine was declined or lapsed the server refuses another
    // (too_soon) until hand next_proposal: the buttons wait, saying why
    const again = (tt.next_proposal || {})[String(me.seat)];
    const wait = again === undefined ? 0 : again - (t.hand_no || 0);
    for (const [method, words] of [["icm", "Propose ICM"], ["chip_chop", "Propose chip-chop"]]) {
      const b = el("button", "small", words);
      b.type = "button";
      b.dataset.deal = method;
      if (wait > 0) {
        b.disabled = true;
        b.setAttribute("aria-describedby", "deal-wait");
      } else b.onclick = () => send({ type: "deal", op: "propose", method: method });
      row.appendChild(b);
    }
    if (wait > 0) {
      const why = el("div", "hint", "Your last deal was declined or lapsed: you may propose again after "
        + wait + " more hand" + (wait === 1 ? "" : "s") + ".");
      why.id = "deal-wait";
      row.appendChild(why);
    }
    box.appendChild(row);
    return;
  }
  const offer = el("div", "tourney-deal");
  offer.appendChild(el("b", "", (p.method === "icm" ? "ICM" : "Chip-chop") + " deal proposed by " + seatName(t, p.by)));
  if (!p.offer) {
    const why = el("div", "hint", dealWaitText(t, me));
    why.id = "deal-when";
    offer.appendChild(why);
  } else {
    const list = el("ul", "deal-shares");
    for (const [s, v] of Object.entries(p.offer)) {
      const agreed = p.agreed.includes(Number(s));
      list.appendChild(el("li", "", seatName(t, Number(s)) + ": " + v + (agreed ? " ✓ agrees" : " (deciding)")));
    }
    offer.appendChild(list);
    if (playing && !p.agreed.includes(me.seat)) {
      const yes = el("button", "small", "Agree"), no = el("button", "small", "Decline");
      yes.type = no.type = "button";
      yes.dataset.deal = "agree"; no.dataset.deal = "decline";
      // (the shares shown: a click that arrives after they changed is refused)
      yes.onclick = () => send({ type: "deal", op: "agree", offer: p.offer });
      no.onclick = () => send({ type: "deal", op: "decline", offer: p.offer });
      offer.append(yes, " ", no);
    } else if (playing) {
      const no = el("button", "small", "Withdraw");
      no.type = "button";
      no.dataset.deal = "decline";
      no.onclick = () => send({ type: "deal", op: "decline" });
      offer.appendChild(no);
    }
  }
  box.appendChild(offer);
}
