"use strict";
// The table page: one websocket, the server sends the full state this seat may
// see after every change; we render it and send actions carrying the hand id
// and the sequence number we last saw.
(function () {
  const tid = location.pathname.split("/").filter(Boolean)[1];
  const $ = (id) => document.getElementById(id);
  let ws = null, state = null, clockSkew = 0, selected = [], retry = 500, lastHand = null;
  let replay = null;
  // Practice odds (a table option): asked for after each change while the toggle is on.
  let oddsOn = false, oddsAsked = null, oddsBusy = false;
  try { oddsOn = localStorage.getItem("rollem_odds_" + tid) === "1"; } catch (e) { /* private mode */ }

  // ---------------------------------------------------------------- socket
  function connect() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(proto + "//" + location.host + "/ws/" + tid);
    ws.onopen = () => {
      $("conn").textContent = "connected"; $("conn").className = "conn ok"; retry = 500;
      oddsBusy = false; oddsAsked = null;
    };
    ws.onclose = () => {
      $("conn").textContent = "reconnecting…"; $("conn").className = "conn bad";
      setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "state") {
        clockSkew = msg.table.now - Date.now() / 1000;
        const handNo = msg.hand ? msg.hand.hand_no : null;
        if (!state || !state.you.decision_seq || msg.you.decision_seq !== state.you.decision_seq
            || handNo !== lastHand) selected = [];
        lastHand = handNo;
        state = msg;
        render();
      } else if (msg.type === "odds") {
        oddsBusy = false;
        if (state && state.hand && msg.hand === state.hand.hand_no && oddsWanted()) {
          $("odds-line").textContent = oddsText(msg.odds);
        }
        askOdds();
      } else if (msg.type === "error") {
        if (msg.ref && msg.ref.type === "odds") {
          oddsBusy = false;
          if (oddsOn) $("odds-line").textContent = msg.message;
        } else toast(msg.message);
      }
    };
  }
  function send(obj) {
    if (ws && ws.readyState === 1) ws.send(JSON.stringify(obj));
  }
  function act(action) {
    send({ type: "action", hand: state.hand.hand_no, seq: state.seq, action: action });
  }
  function toast(text) {
    const t = $("toast"); t.textContent = text; t.classList.remove("hidden");
    clearTimeout(toast.timer); toast.timer = setTimeout(() => t.classList.add("hidden"), 4000);
  }

  // ------------------------------------------------------------- rendering
  function render() {
    const t = state.table, me = state.you;
    document.title = t.name + " — rollem";
    $("table-name").textContent = t.name + " · " + GAME_NAME[t.config.game] + " · "
      + t.config.structure + " · ante " + t.config.ante + ", bets " + t.config.small_bet + "/" + t.config.big_bet;
    $("invite").classList.toggle("hidden", !me.host);
    $("invite-link").value = location.origin + "/t/" + t.id;
    renderJoin(t, me);
    $("host").classList.toggle("hidden", !(me.host && !t.started));
    renderStatus(t, state.hand, me);
    renderSeats($("seats"), t, state.hand, me.seat, t.last_result);
    renderCenter($("center"), state.hand);
    renderMe(t, state.hand, me);
    renderControls(t, state.hand, me);
    renderResult(t);
    renderLedger(t);
    renderLog(state.hand);
    renderOdds(t, me);
  }

  // ---------------------------------------------------------- practice odds
  function oddsWanted() {
    if (!state || !oddsOn || !state.table.config.practice_odds || state.you.seat === null) return null;
    const hand = state.hand;
    if (!hand || hand.result) return null;
    const hs = hand.seats[state.you.seat];
    if (!hs || !hs.dealt || hs.folded) return null;
    return hand.hand_no + ":" + state.seq;
  }
  function askOdds() {
    const key = oddsWanted();
    if (!key || oddsBusy || key === oddsAsked) return;
    oddsAsked = key;
    oddsBusy = true;
    send({ type: "odds", hand: state.hand.hand_no, seq: state.seq });
  }
  function pct(x) { return Math.round(100 * x) + "%"; }
  function oddsText(o) {
    if (o.text) { $("odds-line").style.whiteSpace = "pre-line"; return o.text; }
    let text = "Your odds: win " + pct(o.win) + " · tie " + pct(o.tie) + " · equity " + pct(o.equity);
    if (o.best_declare) {
      const shares = ["high", "low", "both"].map((k) => k + " " + pct((o.declare || {})[k] || 0)).join(", ");
      text += o.declared ? " · you declared " + o.declared : " · best declaration: " + o.best_declare;
      text += " (share if declared: " + shares + ")";
    }
    if (o.categories) {
      const top = Object.entries(o.categories).sort((a, b) => b[1] - a[1])[0];
      if (top) text += " · most likely " + top[0] + " " + pct(top[1]);
    }
    const n = Number(o.samples).toLocaleString("en-US");
    text += o.method === "exact" ? " (exact, " + n + " outcomes)" : " (Monte Carlo, " + n + " samples)";
    return text;
  }
  function renderOdds(t, me) {
    const allowed = !!t.config.practice_odds && me.seat !== null;
    $("odds-box").classList.toggle("hidden", !allowed);
    $("odds-toggle").checked = oddsOn;
    const line = $("odds-line");
    if (!allowed || !oddsOn) { line.textContent = ""; return; }
    const hand = state.hand, hs = hand ? hand.seats[me.seat] : null;
    if (!hand || hand.result || !hs || !hs.dealt) line.textContent = "Your odds show during a hand you are dealt into.";
    else if (hs.folded) line.textContent = "You have folded this hand.";
    else if (!line.textContent || line.dataset.hand !== String(hand.hand_no)) line.textContent = "Your odds: computing…";
    line.dataset.hand = hand ? String(hand.hand_no) : "";
    askOdds();
  }
  $("odds-toggle").onchange = () => {
    oddsOn = $("odds-toggle").checked;
    try { localStorage.setItem("rollem_odds_" + tid, oddsOn ? "1" : "0"); } catch (e) { /* private mode */ }
    oddsAsked = null;
    $("odds-line").textContent = "";
    if (state) render();
  };

  function renderJoin(t, me) {
    const box = $("join");
    const free = t.seats.filter((s) => s.free);
    box.classList.toggle("hidden", me.seat !== null || free.length === 0);
    const watch = $("watching");
    watch.classList.toggle("hidden", me.seat !== null);
    watch.textContent = free.length === 0
      ? "You are watching — the table is full (every seat is taken)."
      : "You are watching — pick a free seat below to play.";
    const sel = $("join-seat");
    const want = free.map((s) => String(s.seat)).join(",");
    if (sel.dataset.free !== want) {
      sel.innerHTML = "";
      for (const s of free) { const o = el("option", null, "Seat " + s.seat); o.value = s.seat; sel.appendChild(o); }
      sel.dataset.free = want;
    }
  }

  function seatName(t, n) {
    const s = t.seats[n];
    return s && !s.free ? s.name : "seat " + n;
  }

  function renderStatus(t, hand, me) {
    const box = $("status");
    box.innerHTML = "";
    if (t.paused) {  // saving failed: the server says so in plain words
      box.appendChild(el("b", "paused", t.paused));
      return;
    }
    let text = "";
    if (!t.started) text = "Waiting for the host to deal.";
    else if (t.choice) text = seatName(t, t.choice.seat) + " names the game (dealer's choice)…";
    else if (!hand) text = "Waiting for the next hand…";
    else if (hand.result) text = "Hand " + hand.hand_no + " is over.";
    else {
      const who = hand.to_act.map((s) => seatName(t, s)).join(", ");
      text = GAME_NAME[hand.game] + " · hand " + hand.hand_no + " · " + (hand.pending && hand.pending !== "bet" ? hand.pending : hand.round || "")
        + " · " + (hand.simultaneous ? "everyone chooses at once: " : "to act: ") + who;
    }
    box.appendChild(el("span", null, text));
    if (hand && !hand.result && me.seat !== null && hand.to_act.includes(me.seat)) {
      box.appendChild(el("b", "your-turn", " — your turn"));
    } else if (me.choose_game) {
      box.appendChild(el("b", "your-turn", " — name the game"));
    }
  }

  function winnersOf(result) {
    const out = {};
    if (!result) return out;
    for (const pot of result.pots || []) for (const s of Object.keys(pot.winners || {})) out[s] = true;
    return out;
  }

  function renderSeats(box, t, hand, mySeat, result) {
    box.innerHTML = "";
    const winners = hand && hand.result ? winnersOf(hand.result) : {};
    const shown = hand && hand.result ? hand.result.shown || {} : {};
    for (const s of t.seats) {
      if (s.free && !(hand && hand.seats[s.seat] && hand.seats[s.seat].dealt)) {
        if (s.seat === mySeat) continue;
        const empty = el("div", "seat empty", "Seat " + s.seat + " — free");
        box.appendChild(empty);
        continue;
      }
      if (s.seat === mySeat) continue;
      box.appendChild(seatEl(t, hand, s, winners, shown));
    }
  }

  function seatEl(t, hand, s, winners, shown) {
    const hs = hand ? hand.seats[s.seat] : null;
    const box = el("div", "seat");
    box.dataset.seat = s.seat;
    if (hand && hand.to_act.includes(s.seat) && !hand.result) box.classList.add("acting");
    if (hs && hs.folded) box.classList.add("folded");
    if (winners[s.seat]) box.classList.add("winner");
    const head = el("div", "seat-head");
    head.appendChild(el("b", "name", s.name || "seat " + s.seat));
    if (s.bot) head.appendChild(el("span", "tag", "computer"));
    if (s.away) head.appendChild(el("span", "tag away", "away"));
    if (hand && hand.button === s.seat) head.appendChild(el("span", "button-chip", "D"));
    box.appendChild(head);
    // Once the hand is over the table's stacks include what the pot paid.
    const stack = hs && !(hand.result && s.stack !== undefined) ? hs.stack : s.stack;
    const line = el("div", "chips", "stack " + stack);
    if (hs && hs.bet && !hand.result) line.appendChild(el("span", "bet", " bet " + hs.bet));
    if (hs && hs.all_in) line.appendChild(el("span", "tag", "all-in"));
    if (hs && hs.folded) line.appendChild(el("span", "tag", "folded"));
    const side = declaredBy(hand)[s.seat];
    if (side) line.appendChild(el("span", "tag declared", "declared " + side));
    box.appendChild(line);
    if (hs && hs.cards.length) {
      const row = el("span", "cards");
      hs.cards.forEach((c, i) => row.appendChild(cardEl(c, { up: hs.up[i], small: true, wild: isWild(hand, c) })));
      box.appendChild(row);
    }
    if (shown[s.seat]) box.appendChild(el("div", "described", shown[s.seat]));
    if (s.acting && s.deadline) box.appendChild(clockEl(s));
    return box;
  }

  function declaredBy(hand) {
    const out = {};
    if (!hand) return out;
    for (const e of hand.events) if (e.kind === "declare" && e.side) out[e.seat] = e.side;
    return out;
  }

  function isWild(hand, card) {
    return !!(card && hand && hand.wild_ranks && hand.wild_ranks.includes(card[0]));
  }

  function clockEl(s) {
    const c = el("div", "clock");
    c.dataset.deadline = s.deadline;
    c.dataset.bank = s.bank;
    updateClock(c);
    return c;
  }
  function updateClock(c) {
    const now = Date.now() / 1000 + clockSkew;
    const left = Number(c.dataset.deadline) - now;
    const bank = Number(c.dataset.bank);
    if (left > 0) c.textContent = "clock " + Math.ceil(left) + "s" + (bank > 0 ? " (+" + Math.round(bank) + "s bank)" : "");
    else c.textContent = "time bank " + Math.max(0, Math.ceil(bank + left)) + "s";
    c.classList.toggle("low", left < 10);
  }
  setInterval(() => document.querySelectorAll(".clock").forEach(updateClock), 250);

  function renderCenter(box, hand) {
    box.innerHTML = "";
    if (!hand) return;
    const dead = hand.dead || [];
    if (hand.game === "sdr") {
      const names = ["Stop", "Drop"];
      const row = el("div", "dead-cards");
      dead.forEach((c, i) => {
        const slot = el("div", "slot");
        slot.appendChild(el("div", "label", names[i] || "dead"));
        slot.appendChild(cardEl(c, { up: true }));
        row.appendChild(slot);
      });
      if (dead.length) box.appendChild(row);
      if (hand.board.length) {
        const slot = el("div", "slot roll");
        slot.appendChild(el("div", "label", "the Roll"));
        slot.appendChild(cardsRow(hand.board, { up: true }));
        box.appendChild(slot);
      }
    } else {
      if (dead.length) {
        const slot = el("div", "slot");
        // In Roll Your Own the only card turned up is the wild card (R-RYO-7).
        const label = hand.game === "rollyourown" && hand.wild_ranks && hand.wild_ranks.length
          ? "wild card" : "dead";
        slot.appendChild(el("div", "label", label));
        slot.appendChild(cardsRow(dead, { up: true }));
        box.appendChild(slot);
      }
      if (hand.board.length) box.appendChild(cardsRow(hand.board, { up: true }));
    }
    if (hand.pool) {
      const slot = el("div", "slot pool");
      slot.appendChild(el("div", "label", "pool: " + hand.pool + " cards"));
      const backs = el("span", "cards");
      for (let i = 0; i < Math.min(hand.pool, 18); i++) backs.appendChild(cardEl(null, { small: true }));
      slot.appendChild(backs);
      // Only your discards that may still be in the pool: not those seen
      // since (drawn back, turned as the wild card, face up anywhere).
      const seen = new Set([...(hand.dead || []), ...(hand.board || [])]);
      (hand.seats || []).forEach((st) => (st.cards || []).forEach((c) => c && seen.add(c)));
      const mine = (hand.my_pool || []).filter((c) => !seen.has(c));
      if (mine.length) {
        slot.appendChild(el("div", "label", "yours maybe still in the pool:"));
        slot.appendChild(cardsRow(mine, { small: true }));
      }
      box.appendChild(slot);
    }
    if (hand.wild_ranks && hand.wild_ranks.length) {
      box.appendChild(el("div", "wild-rank", "Wild: " + hand.wild_ranks.map((r) => RANK_TEXT[r] || r).join(", ")));
    }
    const pots = el("div", "pots");
    if (hand.result) {
      // The hand is over: the pot has been paid out (bets cleared), say so.
      const paid = (hand.result.pots || []).reduce((n, p) => n + (p.amount || 0), 0);
      pots.appendChild(el("span", "pot", "pot " + paid + " awarded"));
      if (hand.result.carried) pots.appendChild(el("span", null, " · " + hand.result.carried + " carried to the next hand"));
    } else if (hand.pots && hand.pots.length > 1) {
      hand.pots.forEach((p, i) => pots.appendChild(el("span", "pot", (i ? "side pot " : "main pot ") + p.amount)));
    } else {
      pots.appendChild(el("span", "pot", "pot " + hand.pot));
    }
    if (hand.current_bet && !hand.result) pots.appendChild(el("span", null, " · bet to call: " + hand.current_bet));
    box.appendChild(pots);
  }

  function renderMe(t, hand, me) {
    const box = $("me");
    box.innerHTML = "";
    if (me.seat === null) return;
    const s = t.seats[me.seat];
    const hs = hand ? hand.seats[me.seat] : null;
    box.classList.toggle("acting", !!(hand && hand.to_act.includes(me.seat) && !hand.result));
    const winners = hand && hand.result ? winnersOf(hand.result) : {};
    box.classList.toggle("winner", !!winners[me.seat]);
    const head = el("div", "seat-head");
    head.appendChild(el("b", "name", (s.name || "you") + " (you, seat " + me.seat + ")"));
    if (hand && hand.button === me.seat) head.appendChild(el("span", "button-chip", "D"));
    head.appendChild(el("span", "chips", " stack " + (hs && !hand.result ? hs.stack : s.stack)));
    if (hs && hs.bet && !hand.result) head.appendChild(el("span", "bet", " bet " + hs.bet));
    if (hs && hs.all_in) head.appendChild(el("span", "tag", "all-in"));
    if (hs && hs.folded) head.appendChild(el("span", "tag", "folded"));
    const side = declaredBy(hand)[me.seat];
    if (side) head.appendChild(el("span", "tag declared", "declared " + side));
    box.appendChild(head);
    if (s.acting && s.deadline) box.appendChild(clockEl(s));
    if (hs && hs.cards.length) {
      const legal = hand.legal;
      const picking = legal && legal.cards && legal.cards.length && legal.actions.some((a) => PICK[a]);
      const row = el("div", "cards mine");
      hs.cards.forEach((c, i) => {
        const e = cardEl(c, { up: hs.up[i], wild: isWild(hand, c) });
        e.classList.add(hs.up[i] ? "face-up" : "face-down");
        if (picking && legal.cards.includes(c)) {
          e.classList.add("pickable");
          const k = selected.indexOf(c);
          if (k >= 0) { e.classList.add("selected"); e.appendChild(el("span", "order", String(k + 1))); }
          e.addEventListener("click", () => {
            const j = selected.indexOf(c);
            if (j >= 0) selected.splice(j, 1); else selected.push(c);
            render();
          });
        }
        row.appendChild(e);
      });
      box.appendChild(row);
      box.appendChild(el("div", "hint", "face-up cards are raised; the others only you can see"));
    }
    if (hand && hand.result && hand.result.shown && hand.result.shown[me.seat]) {
      box.appendChild(el("div", "described", hand.result.shown[me.seat]));
    }
    if (s.stack === 0 && t.config.rebuys && !(hand && hs && hs.dealt && !hand.result)) {
      const b = el("button", "rebuy", "Rebuy " + t.config.stack);
      b.dataset.action = "rebuy";
      b.onclick = () => send({ type: "rebuy", seq: state.seq });
      box.appendChild(b);
    }
  }

  const PICK = { discard: "Discard to the pool", expose: "Turn face up", draw: "Draw", stack: "Stack in this order" };

  function renderControls(t, hand, me) {
    const box = $("controls");
    box.innerHTML = "";
    if (me.choose_game && t.choice) {
      box.appendChild(el("div", "prompt", "You have the button: name the game."));
      for (const g of t.choice.games) {
        const b = el("button", "game-choice", GAME_NAME[g]);
        b.dataset.game = g;
        b.onclick = () => send({ type: "choose_game", hand: t.choice.hand, seq: state.seq, game: g });
        box.appendChild(b);
      }
      return;
    }
    if (!hand || hand.result || !hand.legal || !hand.legal.actions.length) return;
    const legal = hand.legal;
    const row = el("div", "actions");
    for (const a of legal.actions) {
      if (a === "fold" || a === "check") row.appendChild(btn(a, cap(a), () => act({ kind: a })));
      else if (a === "call") row.appendChild(btn(a, "Call " + legal.call_amount, () => act({ kind: "call" })));
      else if (a === "bet" || a === "raise") row.appendChild(betControl(a, legal));
      else if (a === "wild") row.appendChild(wildControl(legal));
      else if (a === "declare") {
        for (const side of legal.sides) row.appendChild(btn("declare-" + side, "Declare " + side, () => act({ kind: "declare", side: side })));
      } else if (PICK[a]) row.appendChild(pickControl(a, legal));
    }
    box.appendChild(row);
  }

  function btn(action, text, onclick) {
    const b = el("button", "act", text);
    b.dataset.action = action;
    b.type = "button";
    b.onclick = onclick;
    return b;
  }
  function cap(s) { return s[0].toUpperCase() + s.slice(1); }

  function betControl(a, legal) {
    const word = a === "bet" ? "Bet" : "Raise to";
    const key = a === "bet" ? "amount" : "to";
    if (legal.min_to === legal.max_to) {
      return btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: legal.min_to }));
    }
    const wrap = el("span", "bet-control");
    const slider = el("input"); slider.type = "range"; slider.min = legal.min_to; slider.max = legal.max_to;
    slider.value = legal.min_to; slider.dataset.slider = a;
    const num = el("input"); num.type = "number"; num.min = legal.min_to; num.max = legal.max_to; num.value = legal.min_to;
    num.dataset.amount = a;
    const b = btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: Number(num.value) }));
    const sync = (v) => { slider.value = v; num.value = v; b.textContent = word + " " + v; };
    slider.oninput = () => sync(slider.value);
    num.oninput = () => sync(num.value);
    const all = el("button", "small", "max"); all.type = "button"; all.onclick = () => sync(legal.max_to);
    wrap.append(slider, num, all, b);
    return wrap;
  }

  function wildControl(legal) {
    const wrap = el("span", "wild-pick");
    wrap.appendChild(el("span", "prompt", "Pick a pool card to set the wild rank: "));
    for (let i = 0; i < legal.positions; i++) {
      const c = cardEl(null, { small: true });
      c.classList.add("pickable");
      c.dataset.position = i;
      c.onclick = () => act({ kind: "wild", position: i });
      wrap.appendChild(c);
    }
    return wrap;
  }

  function pickControl(a, legal) {
    const wrap = el("span", "pick");
    const lo = legal.min_count, hi = legal.max_count;
    const need = lo === hi ? String(lo) : lo + "–" + hi;
    const tips = {
      discard: "Tap " + need + " cards to put in the pool",
      expose: "Tap the card to turn face up",
      draw: "Tap up to " + hi + " cards to replace (none: stand pat)",
      stack: "Tap your cards in the order to roll them up (first = first up)",
    };
    wrap.appendChild(el("span", "prompt", tips[a] + " — chosen: " + selected.length));
    const ok = selected.length >= lo && selected.length <= hi && selected.every((c) => legal.cards.includes(c));
    const label = a === "draw" && selected.length === 0 ? "Stand pat" : PICK[a] + (selected.length ? " (" + selected.length + ")" : "");
    const b = btn(a, label, () => {
      if (a === "expose") act({ kind: "expose", card: selected[0] });
      else act({ kind: a, cards: selected.slice() });
    });
    b.id = "confirm";
    b.dataset.min = lo;
    b.dataset.max = hi;
    b.disabled = !ok;
    wrap.appendChild(b);
    if (a === "stack" && !selected.length && state.hand) {
      // The order the cards are in now is a legal choice too (R-521-6).
      const hs = state.hand.seats[state.you.seat];
      const order = (hs ? hs.cards : []).filter((c) => legal.cards.includes(c));
      if (order.length >= lo && order.length <= hi) {
        wrap.appendChild(btn("stack-keep", "Keep this order", () => act({ kind: "stack", cards: order })));
      }
    }
    if (selected.length) {
      const clr = el("button", "small", "clear"); clr.type = "button";
      clr.onclick = () => { selected = []; render(); };
      wrap.appendChild(clr);
    }
    return wrap;
  }

  function describeResult(t, result) {
    const box = el("div");
    const winners = {};
    for (const pot of result.pots || []) for (const [s, c] of Object.entries(pot.winners || {})) winners[s] = (winners[s] || 0) + c;
    for (const [s, c] of Object.entries(winners)) {
      const line = el("div", "winner-line", seatName(t, Number(s)) + " wins " + c);
      if (result.shown && result.shown[s]) line.textContent += " with " + result.shown[s];
      const cards = result.shown_cards && result.shown_cards[s];
      if (cards) line.appendChild(cardsRow(cards, { small: true }));
      box.appendChild(line);
    }
    for (const [s, d] of Object.entries(result.shown || {})) {
      if (winners[s]) continue;
      const line = el("div", "shown-line", seatName(t, Number(s)) + " shows " + d);
      const cards = result.shown_cards && result.shown_cards[s];
      if (cards) line.appendChild(cardsRow(cards, { small: true }));
      box.appendChild(line);
    }
    if (result.carried) box.appendChild(el("div", null, result.carried + " chips carry to the next hand"));
    return box;
  }

  function renderResult(t) {
    const box = $("result");
    const r = t.last_result;
    box.classList.toggle("hidden", !r);
    box.innerHTML = "";
    if (!r) return;
    box.appendChild(el("h3", null, "Hand " + r.hand + " (" + GAME_NAME[r.game] + ")"));
    box.appendChild(describeResult(t, r));
  }

  function renderLedger(t) {
    const tbl = $("ledger");
    const done = t.last_result ? t.last_result.hand : 0;
    const live = state.hand && !state.hand.result;
    const cap = el("caption", "ledger-when", done ? "after hand " + done : "before the first hand");
    if (live) cap.textContent += " (hand " + state.hand.hand_no + " in play is not counted yet)";
    tbl.innerHTML = "";
    tbl.appendChild(cap);
    tbl.insertAdjacentHTML("beforeend", "<tr><th>Player</th><th>Brought</th><th>Stack</th><th>Net</th></tr>");
    for (const l of t.ledger) {
      const tr = el("tr");
      tr.append(el("td", null, l.name + (l.left ? " (left)" : "")), el("td", null, l.brought),
        el("td", null, l.stack), el("td", l.net >= 0 ? "plus" : "minus", (l.net > 0 ? "+" : "") + l.net));
      tbl.appendChild(tr);
    }
    const finished = t.last_result ? t.last_result.hand : 0;
    if (finished !== renderLedger.hands) { renderLedger.hands = finished; loadHistory(); }
  }

  function eventText(e, t) {
    const who = e.seat !== null && e.seat !== undefined ? seatName(t, e.seat) : "";
    const cards = e.cards ? " " + e.cards.join(" ") : e.card ? " " + e.card : "";
    const amount = e.amount !== undefined ? " " + e.amount : e.to !== undefined ? " to " + e.to : "";
    return (who ? who + ": " : "") + e.kind.replace(/_/g, " ") + amount + cards;
  }

  function renderLog(hand) {
    const box = $("log");
    box.innerHTML = "";
    if (!hand) return;
    for (const e of hand.events.slice(-60)) box.appendChild(el("li", null, eventText(e, state.table)));
  }

  // --------------------------------------------------------------- history
  async function loadHistory() {
    try {
      const resp = await fetch("/api/tables/" + tid + "/hands", { credentials: "same-origin" });
      const body = await resp.json();
      const list = $("history");
      list.innerHTML = "";
      for (const h of body.hands.slice().reverse()) {
        const li = el("li");
        const b = el("button", "link", "Hand " + h.hand + " · " + GAME_NAME[h.game]
          + (h.net !== null && h.net !== undefined ? " · " + (h.net > 0 ? "+" : "") + h.net : ""));
        b.dataset.hand = h.hand;
        b.onclick = () => openReplay(h.hand);
        li.appendChild(b);
        list.appendChild(li);
      }
    } catch (e) { /* the next state will retry */ }
  }

  async function openReplay(n) {
    const resp = await fetch("/api/tables/" + tid + "/hands/" + n, { credentials: "same-origin" });
    const body = await resp.json();
    if (!resp.ok) { toast(body.message); return; }
    replay = { data: body, i: 0 };
    const dl = $("replay-download");
    dl.href = "/api/tables/" + tid + "/hands/" + n + "/history.toml";
    dl.classList.toggle("hidden", body.seat === null);
    $("replay").classList.remove("hidden");
    showFrame();
  }
  function showFrame() {
    const f = replay.data.frames[replay.i];
    const t = state.table;
    $("replay-pos").textContent = "Hand " + replay.data.hand + " · step " + replay.i + " of " + (replay.data.frames.length - 1);
    const la = f.last_action;
    $("replay-what").textContent = la ? seatName(t, la.seat) + ": " + la.kind
      + (la.amount !== undefined ? " " + la.amount : "") + (la.to !== undefined ? " to " + la.to : "")
      + (la.cards ? " " + la.cards.join(" ") : "") + (la.card ? " " + la.card : "")
      + (la.side ? " " + la.side : "") + (la.count !== undefined ? " " + la.count + " cards" : "")
      : "the deal";
    const seatsInfo = { ...t, seats: t.seats.map((s) => ({ ...s, acting: false, deadline: null })) };
    const fake = seatsInfo.seats.map((s, i) => (f.seats[i] && f.seats[i].dealt ? { ...s, free: false, name: s.name || "seat " + i } : s));
    renderSeats($("replay-seats"), { ...seatsInfo, seats: fake }, f, -1, null);
    renderCenter($("replay-center"), f);
    const res = $("replay-result");
    res.innerHTML = "";
    if (f.result) res.appendChild(describeResult(t, f.result));
  }
  // ----------------------------------------------------------- how to play
  const DECISION_OF = { bet: "bet", raise: "bet", call: "bet", check: "bet", fold: "bet",
    discard: "discard_to_pool", expose: "expose", draw: "draw", wild: "pick_wild",
    stack: "stack", declare: "declare" };
  function currentDecision() {
    if (!state) return null;
    if (state.you.choose_game && state.table.choice) return "choose_game";
    const h = state.hand;
    if (!h || h.result || !h.legal || !h.legal.actions.length) return null;
    return DECISION_OF[h.legal.actions[0]] || null;
  }
  function optionRows(c) {
    const yes = (v) => (v ? "yes" : "no");
    const h = c.house || {};
    const dflt = (k, d) => (h[k] === undefined ? d : h[k]);
    return [
      ["Game", GAME_NAME[c.game] || c.game],
      ["Betting", c.structure],
      ["Ante", c.ante], ["Small bet", c.small_bet], ["Big bet", c.big_bet],
      ["Starting stack", c.stack], ["Rebuys", yes(c.rebuys)],
      ["Practice: players may show their own odds (practice_odds)", yes(c.practice_odds)],
      ["Raise cap holds heads-up (cap_heads_up)", yes(dflt("cap_heads_up", true))],
      ["SDR: burn before the Roll (burn_before_roll)", yes(dflt("burn_before_roll", false))],
      ["Roll Your Own: wild cards may duplicate (wild_duplicates)", yes(dflt("wild_duplicates", false))],
      ["Roll Your Own: natural beats wild (natural_beats_wild)", yes(dflt("natural_beats_wild", false))],
      ["5-2-1: betting after the declare (bet_after_declare)", yes(dflt("bet_after_declare", false))],
      ["5-2-1: when every \"both\" fails (failed_both_rule)",
        dflt("failed_both_rule", "carry") === "split" ? "split high-low" : "pot carries over"],
      ["Seconds per decision", c.decision_seconds], ["Time bank (s)", c.time_bank_seconds],
      ["Reconnect grace (s)", c.grace_seconds],
    ];
  }
  async function openRules() {
    const game = state && state.hand ? state.hand.game : "";
    const decision = currentDecision();
    const q = "?game=" + encodeURIComponent(game || "") + (decision ? "&decision=" + decision : "");
    $("rules").classList.remove("hidden");
    try {
      const resp = await fetch("/api/tables/" + tid + "/rules" + q, { credentials: "same-origin" });
      const body = await resp.json();
      if (!resp.ok) { toast(body.message); return; }
      const d = $("rules-decision");
      d.classList.toggle("hidden", !body.decision_help);
      // The HTML comes from our own renderer, which escapes all text (server/markdown.py).
      d.innerHTML = body.decision_help ? "<h3>Your decision now</h3>" + body.decision_help : "";
      const tbl = $("rules-options");
      tbl.innerHTML = "";
      for (const [k, v] of optionRows(body.config)) {
        const tr = el("tr"); tr.append(el("th", null, k), el("td", null, String(v))); tbl.appendChild(tr);
      }
      $("rules-text").innerHTML = body.sections.map((x) => x.html).join("\n<hr>\n");
    } catch (e) { toast("the server cannot be reached"); }
  }
  $("rules-btn").onclick = openRules;
  (function showInviteNow() {
    let invite = null;
    try { invite = sessionStorage.getItem("rollem_invite_" + tid); } catch (e) { /* private mode */ }
    if (invite) { $("invite-link").value = invite; $("invite").classList.remove("hidden"); }
  })();
  $("rules-close").onclick = () => $("rules").classList.add("hidden");
  $("rules").onclick = (ev) => { if (ev.target === $("rules")) $("rules").classList.add("hidden"); };
  $("replay").onclick = (ev) => { if (ev.target === $("replay")) $("replay").classList.add("hidden"); };

  $("replay-prev").onclick = () => { if (replay.i > 0) { replay.i--; showFrame(); } };
  $("replay-next").onclick = () => { if (replay.i < replay.data.frames.length - 1) { replay.i++; showFrame(); } };
  $("replay-close").onclick = () => $("replay").classList.add("hidden");

  // ------------------------------------------------------------ join/host
  $("join-btn").onclick = async () => {
    $("join-error").textContent = "";
    const resp = await fetch("/api/tables/" + tid + "/join", {
      method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
      body: JSON.stringify({ name: $("join-name").value, seat: Number($("join-seat").value) }),
    });
    const body = await resp.json();
    if (!resp.ok) { $("join-error").textContent = body.message; return; }
    ws.onclose = null; ws.close(); connect();   // reconnect as the seat (cookie)
  };
  $("start-btn").onclick = () => send({ type: "start", seq: state ? state.seq : 0 });
  $("copy-invite").onclick = () => { $("invite-link").select(); navigator.clipboard && navigator.clipboard.writeText($("invite-link").value); };
  connect();
})();
