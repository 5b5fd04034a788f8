"use strict";
// The table page: one websocket, the server sends the full state this seat may
// see after every change; we render it and send actions carrying the hand id
// and the sequence number we last saw.  Layout: opponents around the felt (an
// oval on a wide screen, a compact grid on a phone); your cards, clock and
// action bar in the dock pinned to the bottom of the screen.
(function () {
  const tid = location.pathname.split("/").filter(Boolean)[1];
  const $ = (id) => document.getElementById(id);
  let ws = null, state = null, clockSkew = 0, selected = [], retry = 500, lastHand = null;
  let replay = null, online = false, confirmFold = false, chatLines = [], wasMyTurn = false;
  let clockSeen = null, showPick = [];
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
  };
  // Practice odds (a table option): asked for after each change while the toggle is on.
  let oddsOn = store.get("rollem_odds_" + tid) === "1", oddsAsked = null, oddsBusy = false;
  let alertsOn = store.get("rollem_alerts") === "1";
  let muted = new Set(JSON.parse(store.get("rollem_mute_" + tid) || "[]"));

  // ---------------------------------------------------------------- socket
  // A connection can die without a close event (a phone leaving its Wi-Fi): for
  // many seconds the page would say "connected" while taps went nowhere.  So the
  // page pings every PING_MS and right after each action, and a ping unanswered
  // for ANSWER_MS, or the browser going offline, ends the connection: the buttons
  // go off and the page reconnects.  (One ping in 5 s is far below the server's
  // message rate limit, ServerSettings.messages_per_second.)
  // A socket not open within CONNECT_MS (a handshake lost on the way) is tried again.
  const PING_MS = 5000, ANSWER_MS = 4000, CONNECT_MS = 10000;
  let answerTimer = null, reconnectTimer = null, pings = 0, pongs = 0;
  let tap = null, lostTap = null;  // an action not yet known to have reached the server
  function connect() {
    clearTimeout(reconnectTimer); reconnectTimer = null; elsewhere = false;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(proto + "//" + location.host + "/ws/" + tid);
    ws = sock; pings = 0; pongs = 0;
    clearTimeout(answerTimer); answerTimer = null;
    setTimeout(() => { if (ws === sock && sock.readyState === 0) lost(); }, CONNECT_MS);
    sock.onopen = () => {
      online = true;
      $("conn").textContent = "connected"; $("conn").className = "conn ok"; retry = 500;
      oddsBusy = false; oddsAsked = null;
      chatLines = [];
      renderChat();
    };
    sock.onclose = (ev) => (ev.code === REPLACED ? replaced(sock) : dropped(sock));
    sock.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "pong") {
        pongs++;
        clearTimeout(answerTimer); answerTimer = null;
        if (tap && pongs >= tap.ping) tap = null;   // answered after the action: it arrived
        if (pongs < pings) answerTimer = setTimeout(lost, ANSWER_MS);
      } else if (msg.type === "state") {
        clockSkew = msg.table.now - Date.now() / 1000;
        const handNo = msg.hand ? msg.hand.hand_no : null;
        if (!state || !state.you.decision_seq || msg.you.decision_seq !== state.you.decision_seq
            || handNo !== lastHand) { selected = []; confirmFold = false; }
        if (handNo !== lastHand) showPick = [];
        lastHand = handNo;
        if (lostTap !== null && msg.seq === lostTap) {
          toast("Your last tap did not reach the table: nothing has changed, make it again.");
        }
        lostTap = null;
        state = msg;
        render();
        window.rollemState = { state: msg, send }; window.dispatchEvent(new Event("rollem:state"));  // verify.js
      } else if (msg.type === "chat") {
        for (const line of msg.lines) if (!chatLines.some((l) => l.id === line.id)) chatLines.push(line);
        chatLines = chatLines.slice(-100);
        renderChat();
      } else if (msg.type === "odds") {
        oddsBusy = false;
        if (state && state.hand && msg.hand === state.hand.hand_no && oddsWanted()) showOdds(msg.odds);
        askOdds();
      } else if (msg.type === "error") {
        if (msg.ref && msg.ref.type === "odds") {
          oddsBusy = false;
          if (oddsOn) { $("odds-line").textContent = msg.message; showAdvice(null); }
          askOdds();   // the table moved on meanwhile (a new hand cancels a request): ask for now
        } else if (msg.ref && msg.ref.type === "chat") {
          $("chat-muted").textContent = msg.message;
          toast(msg.message);
        } else toast(msg.message);
      }
    };
  }
  // The socket in use is gone (closed, or given up on): buttons off, reconnect.
  function dropped(sock) {
    if (sock !== ws) return;   // one already given up on
    ws = null;
    clearTimeout(answerTimer); answerTimer = null;
    if (tap) { lostTap = tap.seq; tap = null; }
    online = false;
    $("conn").textContent = "reconnecting…"; $("conn").className = "conn bad";
    if (state) render();
    clearTimeout(reconnectTimer);
    reconnectTimer = setTimeout(connect, retry); retry = Math.min(retry * 2, 5000);
  }
  // Replaced by a newer connection of this seat (another tab or device; the server
  // keeps a few per seat, issue 34): no reconnecting on our own, or the tabs would
  // take the seat from each other for ever; a tap on the badge takes it back.
  const REPLACED = 4410;
  let elsewhere = false;
  function replaced(sock) {
    if (sock !== ws) return;
    ws = null; elsewhere = true; online = false;
    clearTimeout(answerTimer); answerTimer = null; tap = null;
    clearTimeout(reconnectTimer); reconnectTimer = null;
    $("conn").textContent = "play here"; $("conn").className = "conn bad";
    $("conn").style.cursor = "pointer";
    if (state) render();
  }
  $("conn").addEventListener("click", () => {
    if (!elsewhere) return;
    retry = 500;
    $("conn").textContent = "connecting…"; $("conn").className = "conn"; $("conn").style.cursor = "";
    connect();
  });
  // Give up on the socket in use without waiting for its close event.
  function abandon() {
    const sock = ws;
    if (!sock) return null;
    sock.onopen = null; sock.onclose = null; sock.onmessage = null;
    try { sock.close(); } catch (e) { /* already closing */ }
    return sock;
  }
  function lost() { const sock = abandon(); if (sock) dropped(sock); }
  function ping() {
    if (!ws || ws.readyState !== 1) return;
    ws.send('{"type":"ping"}');
    pings++;
    if (!answerTimer) answerTimer = setTimeout(lost, ANSWER_MS);
  }
  setInterval(ping, PING_MS);
  window.addEventListener("offline", lost);
  // Back on screen (a phone unlocked): find a connection that died meanwhile at once.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) ping(); });
  window.addEventListener("online", () => {
    if (online || elsewhere) { if (online) ping(); return; }
    abandon(); ws = null; retry = 500; connect();
  });
  function send(obj) {
    if (ws && ws.readyState === 1) { ws.send(JSON.stringify(obj)); return true; }
    toast("not connected: reconnecting…");
    return false;
  }
  function act(action) {
    confirmFold = false;
    if (send({ type: "action", hand: state.hand.hand_no, seq: state.seq, action: action })) {
      tap = { seq: state.seq, ping: pings + 1 };
      ping();   // its answer says the action arrived; none within ANSWER_MS: reconnect
    }
  }
  function toast(text) {
    const t = $("toast"); t.textContent = text; t.classList.remove("hidden");
    clearTimeout(toast.timer); toast.timer = setTimeout(() => t.classList.add("hidden"), 4000);
  }

  // ------------------------------------------------------------- rendering
  function myTurn() {
    if (!state) return false;
    const h = state.hand, me = state.you;
    if (me.choose_game) return true;
    return !!(h && !h.result && me.seat !== null && h.to_act.includes(me.seat) && h.legal
      && h.legal.actions.length);
  }

  function render() {
    const t = state.table, me = state.you;
    if (t.game_names) Object.assign(GAME_NAME, t.game_names);  // every game this table may deal
    const turn = myTurn();
    document.title = (turn ? "● Your turn — " : "") + t.name + " — rollem";
    // forced bets of the game in play (dealer's choice between hands: none named)
    const forced = (t.forced_bets || {})[state.hand ? state.hand.game : t.config.game];
    $("table-name").textContent = t.name + " · " + GAME_NAME[t.config.game] + " · "
      + t.config.structure + " · " + (forced ? forced + ", " : "") + "bets "
      + t.config.small_bet + "/" + t.config.big_bet;
    $("invite").classList.toggle("hidden", !me.host);
    $("invite-link").value = location.origin + "/t/" + t.id;
    document.body.classList.toggle("seated", me.seat !== null);
    document.body.dataset.seq = String(state.seq);   // tests wait on it
    renderJoin(t, me);
    $("host").classList.toggle("hidden", !(me.host && !t.started));
    renderNotice(t, me);
    renderStatus(t, state.hand, me);
    renderSeats($("seats"), t, state.hand, me.seat, false);
    renderCenter($("center"), state.hand);
    renderMe(t, state.hand, me);
    renderControls(t, state.hand, me);
    renderResult(t, state.hand, me);
    renderHostPanel(t, me);
    renderLedger(t);
    renderLog(state.hand);
    renderOdds(t, me);
    renderChatInput(me);
    if (turn && !wasMyTurn) turnAlert();
    wasMyTurn = turn;
    if (!render.linked) { render.linked = true; openLinkedHand(); }
  }

  // ------------------------------------------------------ notices and alerts
  function clockText(kind) {
    return { check: "checked", fold: "folded", call: "called", discard: "discarded for you",
      expose: "turned a card up", draw: "stood pat", wild: "picked the wild card",
      stack: "kept your order", declare: "declared high" }[kind] || "acted";
  }
  function renderNotice(t, me) {
    const box = $("notice");
    const parts = [];
    if (elsewhere) parts.push(["bad", "This seat is now played from another tab or device. Tap “play here” at the top to play it here again."]);
    else if (!online) parts.push(["bad", "Disconnected — reconnecting… your buttons are off until the table is back."]);
    if (t.host_paused) parts.push(["info", "The host has paused the table: no new hand is dealt until it resumes."]);
    if (t.waiting_for) parts.push(["info", t.waiting_for]);
    if (me.seat !== null && t.waiting.includes(me.seat)) parts.push(["info", "Waiting for the host to let you in."]);
    if (me.seat !== null && t.sitting_out.includes(me.seat)) parts.push(["info", "You are sitting out: you are not dealt in until you come back."]);
    if (me.seat !== null && state.hand && !state.hand.result && joinsNextHand(t, state.hand, me.seat)) {
      parts.push(["info", "You sat down during this hand: you are dealt in from the next one."]);
    }
    const mine = me.seat !== null ? t.clocked[String(me.seat)] : null;
    if (mine && (clockSeen === null || mine.seq > clockSeen) && mine.hand === (state.hand && state.hand.hand_no)) {
      parts.push(["clocked", "The clock " + clockText(mine.kind) + (mine.kind === "check" || mine.kind === "fold" ? " for you" : "") + " (hand " + mine.hand + ")."]);
    }
    box.innerHTML = "";
    for (const [cls, text] of parts) box.appendChild(el("div", "notice-line " + cls, text));
    if (mine && parts.some((p) => p[0] === "clocked")) {
      const ok = el("button", "small", "OK"); ok.type = "button"; ok.dataset.action = "clock-ok";
      ok.onclick = () => { clockSeen = mine.seq; render(); };
      box.lastChild.appendChild(ok);
    }
    box.classList.toggle("hidden", parts.length === 0);
  }
  function turnAlert() {
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
  $("alerts-btn").onclick = () => { alertsOn = !alertsOn; store.set("rollem_alerts", alertsOn ? "1" : "0"); renderAlertsBtn(); };
  renderAlertsBtn();

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
  // The odds in one line; the advice (every option of a card choice, one a line:
  // up to a dozen lines) folded behind its best option, in a box of bounded height,
  // so that it never pushes the cards or the buttons off a phone's screen.
  function showOdds(o) {
    const lines = o.text ? o.text.split("\n") : [oddsText(o)];
    $("odds-line").textContent = lines[0];
    showAdvice(lines.length > 1 ? { advice: o.advice || null, lines: lines.slice(1) } : null);
  }
  function showAdvice(a) {
    const box = $("odds-advice");
    box.classList.toggle("hidden", !a);
    if (!a) { box.dataset.decision = ""; return; }
    const best = a.advice && a.advice.choices && a.advice.choices[0];
    box.dataset.decision = a.advice ? a.advice.decision : "";
    $("odds-advice-head").textContent = best
      ? "Advice: best " + best.action + ", equity " + (100 * best.equity).toFixed(1) + "% (all "
        + a.advice.options + " options)"
      : "Advice";
    $("odds-advice-list").textContent = a.lines.join("\n");
  }
  function oddsText(o) {
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
    if (!allowed || !oddsOn) { line.textContent = ""; showAdvice(null); return; }
    const hand = state.hand, hs = hand ? hand.seats[me.seat] : null;
    const other = !hand || hand.result || !hs || !hs.dealt ? "Your odds show during a hand you are dealt into."
      : hs.folded ? "You have folded this hand."
      : !line.textContent || line.dataset.hand !== String(hand.hand_no) ? "Your odds: computing…" : null;
    if (other) { line.textContent = other; showAdvice(null); }
    line.dataset.hand = hand ? String(hand.hand_no) : "";
    askOdds();
  }
  $("odds-toggle").onchange = () => {
    oddsOn = $("odds-toggle").checked;
    store.set("rollem_odds_" + tid, oddsOn ? "1" : "0");
    oddsAsked = null;
    $("odds-line").textContent = "";
    showAdvice(null);
    if (state) render();
  };

  // ------------------------------------------------------------------ join
  function renderJoin(t, me) {
    const box = $("join");
    const free = t.seats.filter((s) => s.free);
    box.classList.toggle("hidden", me.seat !== null || free.length === 0);
    const watch = $("watching");
    watch.classList.toggle("hidden", me.seat !== null);
    watch.textContent = free.length === 0
      ? "You are watching — the table is full (every seat is taken)."
      : "You are watching — type your name and press Enter, or tap a free seat.";
    const sel = $("join-seat");
    const want = free.map((s) => String(s.seat)).join(",");
    if (sel.dataset.free !== want) {
      const keep = sel.value;
      sel.innerHTML = "";
      for (const s of free) { const o = el("option", null, "Seat " + s.seat); o.value = s.seat; sel.appendChild(o); }
      if (free.some((s) => String(s.seat) === keep)) sel.value = keep;
      sel.dataset.free = want;
    }
    const name = $("join-name");
    if (!name.value && !name.dataset.filled) { name.value = store.get("rollem_name") || ""; name.dataset.filled = "1"; }
  }
  async function joinSeat(seat) {
    $("join-error").textContent = "";
    const name = $("join-name").value.trim();
    if (!name) { $("join-error").textContent = "Type your name first, then tap the seat."; $("join-name").focus(); return; }
    const resp = await fetch("/api/tables/" + tid + "/join", {
      method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
      body: JSON.stringify({ name: name, seat: seat }),
    });
    const body = await resp.json();
    if (!resp.ok) { $("join-error").textContent = body.message; toast(body.message); return; }
    store.set("rollem_name", name);
    abandon(); ws = null; connect();   // reconnect as the seat (cookie)
  }
  $("join-btn").onclick = () => joinSeat(Number($("join-seat").value));
  $("join-name").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); joinSeat(Number($("join-seat").value)); }
  });

  function seatName(t, n) {
    const s = t.seats[n];
    return s && !s.free ? s.name : "seat " + n;
  }

  const DECISION_WORD = { bet: "betting", discard: "discard to the pool", expose: "turn a card up",
    draw: "draw from the pool", wild: "pick the wild card", stack: "roll-up order", declare: "declare" };
  function renderStatus(t, hand, me) {
    const box = $("status");
    box.innerHTML = "";
    if (t.paused) {  // saving failed: the server says so in plain words
      box.appendChild(el("b", "paused", t.paused));
      return;
    }
    let text = "";
    if (!t.started) text = "Waiting for the host to deal.";
    else if (t.choice && t.choice.game) text = "Paused by the host; the next hand (" + (GAME_NAME[t.choice.game] || t.choice.game) + ") is dealt at resume.";
    else if (t.choice) text = seatName(t, t.choice.seat) + " names the game (dealer's choice)…"
      + (t.host_paused ? " Paused by the host: their clock stands still until it resumes." : "");
    else if (!hand) text = t.host_paused ? "Paused by the host." : "Waiting for the next hand…";
    else if (hand.result) text = "Hand " + hand.hand_no + " is over.";
    else {
      const who = hand.to_act.map((s) => (s === me.seat ? "you" : seatName(t, s))).join(", ");
      const what = hand.pending && hand.pending !== "bet" ? DECISION_WORD[hand.pending] || hand.pending
        : (hand.round || "betting").replace(/_/g, " ");
      text = GAME_NAME[hand.game] + " · hand " + hand.hand_no + " · " + what + " · "
        + (hand.simultaneous ? "everyone at once: " : "to act: ") + who;
    }
    box.appendChild(el("span", null, text));
  }

  function winnersOf(result) {
    const out = {};
    if (!result) return out;
    for (const pot of result.pots || []) for (const s of Object.keys(pot.winners || {})) out[s] = true;
    return out;
  }

  // ------------------------------------------------------------- the seats
  function renderSeats(box, t, hand, mySeat, isReplay) {
    box.innerHTML = "";
    const n = t.seats.length;
    const winners = hand && hand.result ? winnersOf(hand.result) : {};
    const start = mySeat === null || mySeat < 0 ? 0 : mySeat + 1;
    const order = [];
    for (let k = 0; k < n; k++) {
      const i = (start + k) % n;
      if (i === mySeat) continue;
      order.push(i);
    }
    const tiles = [];
    for (const i of order) {
      const s = t.seats[i];
      const dealt = hand && hand.seats[i] && hand.seats[i].dealt;
      if (s.free && !dealt) {
        if (isReplay) continue;
        const empty = el(mySeat === null ? "button" : "div", "seat empty", "Seat " + i + (mySeat === null ? " — free: tap to sit" : " — free"));
        empty.dataset.seat = i;
        if (mySeat === null) {
          empty.type = "button";
          empty.dataset.action = "take-seat";
          empty.onclick = () => { $("join-seat").value = String(i); joinSeat(i); };
        }
        tiles.push(empty);
        continue;
      }
      tiles.push(seatEl(t, hand, s, winners, isReplay));
    }
    // A wide screen: around an oval, your seat at the bottom (in the dock).
    const total = tiles.length;
    tiles.forEach((tile, k) => {
      const a = Math.PI / 2 + (2 * Math.PI * (k + 1)) / (total + 1);
      tile.style.setProperty("--x", (50 + 44 * Math.cos(a)).toFixed(1) + "%");
      tile.style.setProperty("--y", (50 + 40 * Math.sin(a)).toFixed(1) + "%");
      box.appendChild(tile);
    });
    box.dataset.count = String(total);
  }

  function drewCount(hand, seat) {
    if (!hand) return null;
    let n = null;
    for (const e of hand.events) if (e.kind === "draw" && e.seat === seat) n = e.count !== undefined ? e.count : (e.cards || []).length;
    return n;
  }
  function faceUpCards(hand, seat) {
    const out = [];
    for (const e of hand.events || []) {
      if (e.seat !== seat) continue;
      if (e.kind === "deal_up" && e.cards) out.push(...e.cards);
      else if ((e.kind === "expose" || e.kind === "roll") && e.card) out.push(e.card);
    }
    return [...new Set(out)];
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
  // Someone who sat down during this hand: not dealt in, waiting for the next deal
  // (not one sitting out or waiting for the host's approval: those have their own
  // tag; nor one without chips, who is offered a rebuy).
  function joinsNextHand(t, hand, n) {
    const s = t.seats[n], hs = hand ? hand.seats[n] : null;
    return !!(hand && s && !s.free && s.stack > 0 && !(hs && hs.dealt)
      && !(t.sitting_out || []).includes(n) && !(t.waiting || []).includes(n));
  }
  // The stack to show: during a hand a dealt-in player's stack in it; otherwise (not
  // dealt in, or the hand is over and paid) the table's; a replay shows the hand's.
  function shownStack(s, hand, hs, isReplay) {
    if (isReplay) return hs.stack;
    return hs && hs.dealt && !(hand.result && s.stack !== undefined) ? hs.stack : s.stack;
  }
  function tagsFor(t, hand, seatInfo, n, isReplay) {
    const hs = hand ? hand.seats[n] : null;
    const tags = [];
    if (hs && hs.folded) tags.push(["folded", "folded"]);
    if (hs && hs.all_in && hs.dealt) tags.push(["allin", "all-in"]);
    if (!isReplay && seatInfo.away) tags.push(["away", "away"]);
    if (!isReplay && t.sitting_out && t.sitting_out.includes(n)) tags.push(["away", "sitting out"]);
    if (!isReplay && t.waiting && t.waiting.includes(n)) tags.push(["away", "waiting"]);
    if (!isReplay && joinsNextHand(t, hand, n)) tags.push(["away", "joins next hand"]);
    const side = declaredBy(hand)[n];
    if (side) tags.push(["declared", "declared " + side]);
    const drew = drewCount(hand, n);
    if (drew !== null) tags.push(["drew", drew ? "drew " + drew : "stood pat"]);
    if (!isReplay && t.host_seat === n) tags.push(["host", "host"]);
    return tags;
  }
  function cardsOf(hand, hs, small) {
    const row = el("span", "cards" + (small ? " mini" : ""));
    hs.cards.forEach((c, i) => row.appendChild(cardEl(c, { up: hs.up[i], small: small, wild: isWild(hand, c) })));
    return row;
  }

  function seatEl(t, hand, s, winners, isReplay) {
    const hs = hand ? hand.seats[s.seat] : null;
    const box = el("div", "seat");
    box.dataset.seat = s.seat;
    if (!isReplay && hand && hand.to_act.includes(s.seat) && !hand.result) box.classList.add("acting");
    if (hs && hs.folded) box.classList.add("folded");
    if (winners[s.seat]) box.classList.add("winner");
    const head = el("div", "seat-head");
    head.appendChild(el("b", "name", s.name || "seat " + s.seat));
    if (hand && hand.button === s.seat) head.appendChild(el("span", "button-chip", "D"));
    box.appendChild(head);
    // Once the hand is over the table's stacks include what the pot paid.
    const stack = shownStack(s, hand, hs, isReplay);
    const line = el("div", "chips");
    line.appendChild(el("span", "stack", String(stack)));
    if (hs && hs.bet && !hand.result) line.appendChild(el("span", "bet", "bet " + hs.bet));
    box.appendChild(line);
    const tags = tagsFor(t, hand, s, s.seat, isReplay);
    if (tags.length) {
      const tl = el("div", "tags");
      for (const [cls, text] of tags) tl.appendChild(el("span", "tag " + cls, text));
      box.appendChild(tl);
    }
    if (hs && hs.cards.length) box.appendChild(cardsOf(hand, hs, true));
    else if (hs && hs.folded) {
      // A folded player's face-up cards stay on the table, dimmed (from the public events).
      const up = faceUpCards(hand, s.seat);
      if (up.length) {
        const row = cardsOf(hand, { cards: up, up: up.map(() => true) }, true);
        row.classList.add("folded-cards");
        box.appendChild(row);
      }
    }
    const shown = hand && hand.result ? (hand.result.shown || {})[s.seat] : null;
    if (shown) box.appendChild(el("div", "described", shown));
    if (!isReplay && s.acting && s.deadline) box.appendChild(clockEl(s));
    return box;
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
    if (left > 0) c.textContent = "clock " + Math.ceil(left) + "s" + (bank > 0 ? " +" + Math.round(bank) + "s bank" : "");
    else c.textContent = "bank " + Math.max(0, Math.ceil(bank + left)) + "s";
    c.classList.toggle("low", left < 10);
  }
  setInterval(() => document.querySelectorAll(".clock").forEach(updateClock), 250);

  // ------------------------------------------------------------ the middle
  function renderCenter(box, hand) {
    box.innerHTML = "";
    if (!hand) return;
    const dead = hand.dead || [];
    const cardsRowW = (cards, small) => {
      const row = el("span", "cards");
      for (const c of cards) row.appendChild(cardEl(c, { up: true, small: small, wild: isWild(hand, c) }));
      return row;
    };
    const mid = el("div", "mid-cards");
    if (hand.game === "sdr") {
      const names = ["Stop", "Drop"];
      dead.forEach((c, i) => {
        const slot = el("div", "slot dead-slot");
        slot.appendChild(el("div", "label", names[i] || "dead"));
        slot.appendChild(cardsRowW([c], false));
        mid.appendChild(slot);
      });
      if (hand.board.length) {
        const slot = el("div", "slot roll");
        slot.appendChild(el("div", "label", "the Roll"));
        slot.appendChild(cardsRowW(hand.board, false));
        mid.appendChild(slot);
      }
    } else {
      if (dead.length) {
        const slot = el("div", "slot");
        // In Roll Your Own the only card turned up is the wild card (R-RYO-7).
        const label = hand.game === "rollyourown" && hand.wild_ranks && hand.wild_ranks.length
          ? "wild card" : "dead";
        slot.appendChild(el("div", "label", label));
        slot.appendChild(cardsRowW(dead, false));
        mid.appendChild(slot);
      }
      if (hand.board.length) mid.appendChild(cardsRowW(hand.board, false));
    }
    if (hand.pool) {
      const slot = el("div", "slot pool");
      slot.appendChild(el("div", "label", "pool: " + hand.pool + " cards"));
      const backs = el("span", "cards mini");
      for (let i = 0; i < Math.min(hand.pool, 12); i++) backs.appendChild(cardEl(null, { small: true }));
      slot.appendChild(backs);
      // Only your discards that may still be in the pool: not those seen
      // since (drawn back, turned as the wild card, face up anywhere).
      const seen = new Set([...(hand.dead || []), ...(hand.board || [])]);
      (hand.seats || []).forEach((st) => (st.cards || []).forEach((c) => c && seen.add(c)));
      const mine = (hand.my_pool || []).filter((c) => !seen.has(c));
      if (mine.length) {
        slot.appendChild(el("div", "label", "yours maybe in the pool:"));
        slot.appendChild(cardsRowW(mine, true));
      }
      mid.appendChild(slot);
    }
    if (mid.childNodes.length) box.appendChild(mid);
    if (hand.wild_ranks && hand.wild_ranks.length) {
      box.appendChild(el("div", "wild-rank", "Wild: " + hand.wild_ranks.map((r) => RANK_NAME[r] || r).join(", ")));
    }
    const pots = el("div", "pots");
    if (hand.result) {
      // The hand is over: the pot has been paid out (bets cleared), say so.
      const paid = (hand.result.pots || []).reduce((n, p) => n + (p.amount || 0), 0);
      pots.appendChild(el("span", "pot", "pot " + paid + " awarded"));
      if (hand.result.carried) pots.appendChild(el("span", null, " · " + hand.result.carried + " carried to the next hand"));
    } else if (hand.pots && hand.pots.length > 1) {
      hand.pots.forEach((p, i) => pots.appendChild(el("span", "pot", (i ? "side pot " + i + ": " : "main pot ") + p.amount)));
    } else {
      pots.appendChild(el("span", "pot", "pot " + hand.pot));
    }
    box.appendChild(pots);
  }

  // --------------------------------------------------------------- the dock
  function owed(hand) {
    const legal = hand && !hand.result ? hand.legal : null;
    if (!legal || !legal.actions.includes("call")) return 0;
    return legal.call_amount || 0;
  }
  function renderMe(t, hand, me) {
    const box = $("me");
    box.innerHTML = "";
    if (me.seat === null) { box.classList.add("hidden"); return; }
    box.classList.remove("hidden");
    const s = t.seats[me.seat];
    const hs = hand ? hand.seats[me.seat] : null;
    box.classList.toggle("acting", myTurn());
    const winners = hand && hand.result ? winnersOf(hand.result) : {};
    box.classList.toggle("winner", !!winners[me.seat]);
    box.classList.toggle("folded", !!(hs && hs.folded));
    const head = el("div", "me-head");
    head.appendChild(el("b", "name", (s.name || "you") + " (you)"));
    if (hand && hand.button === me.seat) head.appendChild(el("span", "button-chip", "D"));
    head.appendChild(el("span", "chips", "stack " + shownStack(s, hand, hs, false)));
    if (hs && hs.bet && !hand.result) head.appendChild(el("span", "bet", "bet " + hs.bet));
    for (const [cls, text] of tagsFor(t, hand, s, me.seat, false)) {
      if (cls !== "host") head.appendChild(el("span", "tag " + cls, text));
    }
    if (s.acting && s.deadline) head.appendChild(clockEl(s));
    const sit = el("button", "small sit", t.sitting_out.includes(me.seat) ? "I'm back" : "Sit out");
    sit.type = "button"; sit.dataset.action = t.sitting_out.includes(me.seat) ? "sit-in" : "sit-out";
    sit.title = "Sit out from the next hand, or come back";
    sit.disabled = !online;
    sit.onclick = () => send({ type: "sit_out", out: !t.sitting_out.includes(me.seat) });
    head.appendChild(sit);
    box.appendChild(head);
    if (hs && hs.cards.length) {
      const legal = hand.legal;
      const picking = legal && legal.cards && legal.cards.length && legal.actions.some((a) => PICK[a]);
      const showing = hand.result && !picking;
      const pending = myPendingChoice(hand, me.seat);
      const row = el("div", "cards mine");
      hs.cards.forEach((c, i) => {
        const e = cardEl(c, { up: hs.up[i], wild: isWild(hand, c) });
        e.classList.add(hs.up[i] ? "face-up" : "face-down");
        if (pending && pending.cards.includes(c)) e.classList.add("chosen");
        if (hs.up[i]) e.appendChild(el("span", "up-mark", "up"));
        if (picking && legal.cards.includes(c)) {
          e.classList.add("pickable");
          const k = selected.indexOf(c);
          if (k >= 0) { e.classList.add("selected"); e.appendChild(el("span", "order", String(k + 1))); }
          e.addEventListener("click", () => {
            const j = selected.indexOf(c);
            if (j >= 0) selected.splice(j, 1); else selected.push(c);
            render();
          });
        } else if (showing && c && hand.legal && (hand.legal.cards || []).includes(c) && hand.legal.actions.includes("show")) {
          e.classList.add("pickable");
          if (showPick.includes(c)) e.classList.add("selected");
          e.addEventListener("click", () => {
            const j = showPick.indexOf(c);
            if (j >= 0) showPick.splice(j, 1); else showPick.push(c);
            render();
          });
        }
        row.appendChild(e);
      });
      box.appendChild(row);
    }
    if (s.stack === 0 && t.config.rebuys && !(hand && hs && hs.dealt && !hand.result)) {
      const b = el("button", "rebuy", "Rebuy " + t.config.stack);
      b.dataset.action = "rebuy";
      b.onclick = () => send({ type: "rebuy", seq: state.seq });
      box.appendChild(b);
    }
  }

  const PICK = { discard: "Discard to the pool", expose: "Turn face up", draw: "Draw", stack: "Stack in this order" };
  const CHOSE_WORDS = { discard: "throw into the pool", expose: "turn up", draw: "throw",
    stack: "roll-up order", declare: "declare" };

  // Your choice in an all-at-once step, made while others still choose: the
  // 'chose' event of your seat after the step's 'choose' event (R-RYO-2, R-521-6).
  function myPendingChoice(hand, seat) {
    if (!hand || hand.result || !hand.simultaneous || !hand.to_act.length
        || hand.to_act.includes(seat)) return null;
    let mine = null;
    for (const e of hand.events) {
      if (e.kind === "choose") mine = null;
      else if (e.kind === "chose" && e.seat === seat && e.action) mine = e;
    }
    if (!mine) return null;
    const tokens = mine.action.split(/\s+/).slice(1);
    const cards = tokens.filter((x) => /^[2-9TJQKA][cdhs]$/.test(x));
    return { step: mine.step, cards: cards, words: CHOSE_WORDS[mine.step] || mine.step,
             rest: cards.length ? cards.join(" ") : tokens.join(" ") };
  }

  function renderControls(t, hand, me) {
    const box = $("controls");
    box.innerHTML = "";
    box.classList.toggle("offline", !online);
    if (me.seat === null) return;
    const prompt = el("div", "prompt-line");
    box.appendChild(prompt);
    if (me.choose_game && t.choice) {
      prompt.textContent = "You have the button: name the game.";
      const row = el("div", "actions");
      for (const g of t.choice.games) {
        const b = el("button", "act game-choice", GAME_NAME[g]);
        b.dataset.game = g; b.type = "button";
        b.onclick = () => send({ type: "choose_game", hand: t.choice.hand, seq: state.seq, game: g });
        row.appendChild(b);
      }
      box.appendChild(row);
      disableIfOffline(box);
      return;
    }
    if (!hand || hand.result || !hand.legal || !hand.legal.actions.length) {
      prompt.textContent = !hand ? "" : hand.result ? "" : hand.to_act.length ? "Waiting for " + hand.to_act.map((s) => seatName(t, s)).join(", ") + "…" : "";
      const chose = myPendingChoice(hand, me.seat);
      if (chose) prompt.textContent = "Your choice is in: " + chose.words + " " + chose.rest + ". " + prompt.textContent;
      if (!online) prompt.textContent = elsewhere ? "Played from another tab or device" : "Disconnected — reconnecting…";
      return;
    }
    const legal = hand.legal;
    const due = owed(hand);
    prompt.appendChild(el("b", "your-turn", "Your turn"));
    if (due > 0) prompt.appendChild(el("span", "owe", " · to call " + due));
    if (!online) prompt.appendChild(el("span", "offline-note", elsewhere ? " · played from another tab or device" : " · disconnected: wait for the table"));
    if (confirmFold) {
      prompt.appendChild(el("span", "confirm-fold", " · You can check for free. Fold anyway?"));
      const row = el("div", "actions");
      row.appendChild(btn("fold-confirm", "Fold anyway", () => act({ kind: "fold" })));
      row.appendChild(btn("check", "Check", () => act({ kind: "check" })));
      row.appendChild(btn("fold-cancel", "Cancel", () => { confirmFold = false; render(); }));
      box.appendChild(row);
      disableIfOffline(box);
      return;
    }
    const row = el("div", "actions");
    let betBox = null;
    for (const a of legal.actions) {
      if (a === "fold") {
        row.appendChild(btn("fold", "Fold", () => {
          if (legal.actions.includes("check")) { confirmFold = true; render(); } else act({ kind: "fold" });
        }));
      } else if (a === "check") row.appendChild(btn(a, "Check", () => act({ kind: a })));
      else if (a === "call") {
        // the stud bring-in: the call posts the bring-in (legal.forced, see engine Legal)
        const word = legal.forced === "bring-in" ? "Bring in for " : "Call ";
        row.appendChild(btn(a, word + legal.call_amount, () => act({ kind: "call" })));
      }
      else if (a === "bet" || a === "raise") betBox = betControl(a, legal, hand, t, row);
      else if (a === "wild") box.appendChild(wildControl(legal));
      else if (a === "declare") {
        for (const side of legal.sides) row.appendChild(btn("declare-" + side, "Declare " + side, () => act({ kind: "declare", side: side })));
      } else if (PICK[a]) box.appendChild(pickControl(a, legal));
    }
    if (row.childNodes.length) box.appendChild(row);
    if (betBox) box.appendChild(betBox);
    disableIfOffline(box);
  }
  function disableIfOffline(box) {
    if (online) return;
    box.querySelectorAll("button, input").forEach((b) => { b.disabled = true; });
  }

  function btn(action, text, onclick) {
    const b = el("button", "act", text);
    b.dataset.action = action;
    b.type = "button";
    b.onclick = onclick;
    return b;
  }

  // Pot-size arithmetic for the shortcuts: what a raise "to" amount is.
  function potSizes(legal, hand, me) {
    const onTable = (hand.pot || 0) + hand.seats.reduce((n, s) => n + (s.bet || 0), 0);
    const call = legal.call_amount || 0;
    const cur = hand.current_bet || 0;
    const potAfterCall = onTable + call;
    const clamp = (v) => Math.max(legal.min_to, Math.min(legal.max_to, Math.round(v)));
    return {
      min: legal.min_to,
      half: clamp(cur + potAfterCall / 2),
      pot: clamp(cur + potAfterCall),
      allin: legal.max_to,
    };
  }

  function betControl(a, legal, hand, t, row) {
    // at a stud bring-in the bet (or, facing the bring-in, the raise) completes it
    const word = legal.forced ? "Complete to" : (a === "bet" ? "Bet" : "Raise to");
    const key = a === "bet" ? "amount" : "to";
    if (legal.min_to === legal.max_to) {
      row.appendChild(btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: legal.min_to })));
      return null;
    }
    const b = btn(a, word + " " + legal.min_to, () => act({ kind: a, [key]: Number(num.value) }));
    row.appendChild(b);
    const wrap = el("div", "bet-control");
    const slider = el("input"); slider.type = "range"; slider.min = legal.min_to; slider.max = legal.max_to;
    slider.value = legal.min_to; slider.dataset.slider = a; slider.setAttribute("aria-label", "amount");
    const num = el("input"); num.type = "number"; num.min = legal.min_to; num.max = legal.max_to; num.value = legal.min_to;
    num.dataset.amount = a; num.setAttribute("aria-label", word + " amount"); num.inputMode = "numeric";
    const sync = (v) => { slider.value = v; num.value = v; b.textContent = word + " " + v; };
    slider.oninput = () => sync(slider.value);
    num.oninput = () => sync(num.value);
    const sizes = potSizes(legal, hand, t);
    const quick = el("span", "quick");
    const labels = t.config.structure === "fixed-limit" ? [["min", "min"], ["allin", "max"]]
      : [["min", "min"], ["half", "½ pot"], ["pot", "pot"], ["allin", t.config.structure === "no-limit" ? "all-in" : "max"]];
    for (const [k, label] of labels) {
      const q = el("button", "small quick-size", label); q.type = "button"; q.dataset.size = k;
      q.onclick = () => sync(sizes[k]);
      quick.appendChild(q);
    }
    wrap.append(quick, slider, num);
    return wrap;
  }

  function wildControl(legal) {
    const wrap = el("div", "wild-pick");
    wrap.appendChild(el("span", "prompt", "You pick the wild card: tap a pool card."));
    const cards = el("span", "cards");
    for (let i = 0; i < legal.positions; i++) {
      const c = cardEl(null, { small: true });
      c.classList.add("pickable");
      c.dataset.position = i;
      c.setAttribute("role", "button");
      c.onclick = () => act({ kind: "wild", position: i });
      cards.appendChild(c);
    }
    wrap.appendChild(cards);
    return wrap;
  }

  function pickControl(a, legal) {
    const wrap = el("div", "pick");
    const lo = legal.min_count, hi = legal.max_count;
    const need = lo === hi ? String(lo) : lo + "–" + hi;
    const tips = {
      discard: "Tap " + need + " of your cards to throw into the pool",
      expose: "Tap the card to turn face up",
      draw: "Tap up to " + hi + " cards to replace from the pool (none: stand pat)",
      stack: "Tap your cards in the order they roll up (first = first up)",
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
    const row = el("div", "actions");
    row.appendChild(b);
    if (a === "stack" && !selected.length && state.hand) {
      // The order the cards are in now is a legal choice too (R-521-6).
      const hs = state.hand.seats[state.you.seat];
      const order = (hs ? hs.cards : []).filter((c) => legal.cards.includes(c));
      if (order.length >= lo && order.length <= hi) {
        row.appendChild(btn("stack-keep", "Keep this order", () => act({ kind: "stack", cards: order })));
      }
    }
    if (selected.length) {
      const clr = el("button", "small", "clear"); clr.type = "button";
      clr.onclick = () => { selected = []; render(); };
      row.appendChild(clr);
    }
    wrap.appendChild(row);
    return wrap;
  }

  // ------------------------------------------------------------- the result
  function potLines(t, result) {
    // Used only when the server sends no narration: who won each pot or half.
    const out = [];
    (result.pots || []).forEach((pot, i) => {
      const name = (result.pots.length > 1 ? (i ? "side pot " + i : "main pot") : "the pot") + " (" + pot.amount + ")";
      const say = (part, map) => Object.entries(map || {}).map(([s, c]) => seatName(t, Number(s)) + " wins " + c + part
        + (result.shown && result.shown[s] ? " with " + result.shown[s] : "")).join("; ");
      if (pot.high || pot.low) {
        if (pot.high && Object.keys(pot.high).length) out.push(say(" of " + name + ", high half", pot.high));
        if (pot.low && Object.keys(pot.low).length) out.push(say(" of " + name + ", low half", pot.low));
      } else out.push(say(" of " + name, pot.winners));
    });
    if (result.carried) out.push(result.carried + " chips carry to the next hand");
    return out;
  }
  // Narration text with its cards (short text such as "Qh") drawn as rank and suit.
  function textWithCards(box, text) {
    const re = /\b([2-9TJQKA])([cdhs])\b/g;
    let at = 0, m;
    while ((m = re.exec(text)) !== null) {
      if (m.index > at) box.appendChild(document.createTextNode(text.slice(at, m.index)));
      const red = m[2] === "h" || m[2] === "d";
      const c = el("span", "inline-card " + (red ? "red" : "black"), (RANK_TEXT[m[1]] || m[1]) + SUIT_SYMBOL[m[2]]);
      c.dataset.card = m[0];
      box.appendChild(c);
      at = m.index + m[0].length;
    }
    if (at < text.length) box.appendChild(document.createTextNode(text.slice(at)));
  }
  function describeResult(t, result, hand, mySeat) {
    const box = el("div", "result-body");
    const told = hand && hand.narration && hand.narration.length ? hand.narration : null;
    const lines = told || potLines(t, result).map((text) => ({ text: text, mine: false }));
    const ul = el("ul", "narration");
    for (const l of lines) {
      const li = el("li", l.mine ? "mine" : null);
      li.dataset.kind = l.kind || "";
      textWithCards(li, l.text);
      ul.appendChild(li);
    }
    box.appendChild(ul);
    const winners = winnersOf(result);
    const shownCards = result.shown_cards || {};
    const seats = new Set([...Object.keys(result.shown || {}), ...Object.keys(shownCards)]);
    for (const s of seats) {
      const line = el("div", "shown-line" + (winners[s] ? " winner-line" : ""));
      line.dataset.seat = s;
      line.appendChild(el("span", "who", seatName(t, Number(s)) + (Number(s) === mySeat ? " (you)" : "")));
      const cards = shownCards[s];
      if (cards) {
        const row = el("span", "cards");
        for (const c of cards) row.appendChild(cardEl(c, { up: true, small: true, wild: isWild(hand, c) }));
        line.appendChild(row);
      }
      if (result.shown && result.shown[s]) line.appendChild(el("span", "desc", result.shown[s]));
      box.appendChild(line);
    }
    return box;
  }
  function renderResult(t, hand, me) {
    const box = $("result");
    const r = hand && hand.result ? hand.result : null;
    box.classList.toggle("hidden", !r);
    box.innerHTML = "";
    if (!r) return;
    box.appendChild(el("h3", null, "Hand " + hand.hand_no + " · " + GAME_NAME[hand.game]));
    box.appendChild(describeResult(t, r, hand, me.seat));
    const hs = me.seat !== null ? hand.seats[me.seat] : null;
    if (hs && hs.dealt) {
      // Showing by choice (R-C-11): the engine lists the cards still showable.
      const legal = hand.legal && hand.legal.actions.includes("show") ? hand.legal : null;
      const hidden = legal ? legal.cards.slice() : [];
      if (hidden.length) {
        const pick = showPick.filter((c) => hidden.includes(c));
        const b = el("button", "small show-btn", pick.length ? "Show " + pick.length + " chosen card" + (pick.length > 1 ? "s" : "") : "Show my cards");
        b.type = "button"; b.dataset.action = "show";
        b.title = "Everyone sees the cards you show (tap your cards below to show only some)";
        b.disabled = !online;
        b.onclick = () => send({ type: "show", hand: hand.hand_no, cards: pick.length ? pick : hidden });
        box.appendChild(b);
      }
    }
    for (const e of hand.events) {
      if (e.kind !== "show" || !e.by_choice) continue;
      const line = el("div", "shown-line by-choice");
      line.dataset.seat = e.seat;
      line.appendChild(el("span", "who", seatName(t, e.seat) + (e.seat === me.seat ? " (you)" : "") + " shows"));
      const row = el("span", "cards");
      for (const c of e.cards) row.appendChild(cardEl(c, { up: true, small: true, wild: isWild(hand, c) }));
      line.appendChild(row);
      line.appendChild(el("span", "desc", "by choice"));
      box.appendChild(line);
    }
    const link = el("a", "download", "Replay this hand");
    link.href = "#hand=" + hand.hand_no;
    link.dataset.action = "replay-last";
    link.onclick = (ev) => { ev.preventDefault(); openReplay(hand.hand_no); };
    box.appendChild(link);
  }

  // ---------------------------------------------------------- host controls
  function renderHostPanel(t, me) {
    const panel = $("host-panel");
    panel.classList.toggle("hidden", !me.host);
    if (!me.host) return;
    const box = $("host-controls");
    // Keep what the host is typing in the stakes form between states.
    const a = document.activeElement;
    const editing = box.contains(a) && (a.tagName === "SELECT" || (a.tagName === "INPUT" && a.type !== "checkbox"));
    if (editing) return;
    box.innerHTML = "";
    const row = el("div", "host-row");
    const pause = el("button", "small", t.host_paused ? "Resume" : "Pause");
    pause.type = "button"; pause.dataset.host = t.host_paused ? "resume" : "pause";
    pause.onclick = () => send({ type: "host", op: t.host_paused ? "resume" : "pause" });
    row.appendChild(pause);
    if (t.started && !t.host_paused && !t.choice && (!state.hand || state.hand.result)) {
      // Between hands: only the host ends the pause early (issue 34).
      const deal = el("button", "small", "Deal now");
      deal.type = "button"; deal.dataset.host = "deal_now";
      deal.onclick = () => send({ type: "host", op: "deal_now" });
      row.appendChild(deal);
    }
    const appr = el("label", "check");
    const cb = el("input"); cb.type = "checkbox"; cb.checked = !!t.approve_joins; cb.dataset.host = "approve_joins";
    cb.onchange = () => send({ type: "host", op: "approve_joins", on: cb.checked });
    appr.append(cb, document.createTextNode(" approve each join"));
    row.appendChild(appr);
    box.appendChild(row);
    const list = el("ul", "host-seats");
    for (const s of t.seats) {
      if (s.free) continue;
      const li = el("li");
      li.dataset.seat = s.seat;
      li.appendChild(el("span", null, s.name + (s.seat === me.seat ? " (you)" : "")
        + (s.away ? " · away" : "") + (t.sitting_out.includes(s.seat) ? " · sitting out" : "")));
      if (t.waiting.includes(s.seat)) {
        for (const op of ["approve", "reject"]) {
          const b = el("button", "small", op === "approve" ? "Let in" : "Turn away");
          b.type = "button"; b.dataset.host = op;
          b.onclick = () => send({ type: "host", op: op, seat: s.seat });
          li.appendChild(b);
        }
      }
      if (s.seat !== me.seat) {
        const idle = s.bot || s.away || t.sitting_out.includes(s.seat) || t.waiting.includes(s.seat);
        const rm = el("button", "small", "Remove");
        rm.type = "button"; rm.dataset.host = "remove"; rm.disabled = !idle;
        rm.title = idle ? "Remove this player from the table" : "Only an away or sitting-out player can be removed";
        rm.onclick = () => send({ type: "host", op: "remove", seat: s.seat });
        li.appendChild(rm);
        if (!s.bot) {
          const ho = el("button", "small", "Make host");
          ho.type = "button"; ho.dataset.host = "hand_over";
          ho.onclick = () => send({ type: "host", op: "hand_over", seat: s.seat });
          li.appendChild(ho);
        }
      }
      list.appendChild(li);
    }
    box.appendChild(list);
    const form = el("form", "host-config");
    const c = { ...t.config, ...(t.config_next || {}) };
    const field = (label, input) => { const l = el("label", null, label + " "); l.appendChild(input); form.appendChild(l); };
    const game = el("select"); game.name = "game";
    for (const g of ["dealers-choice", ...Object.keys(t.game_names || GAME_NAME).filter((g) => g !== "dealers-choice")]) { const o = el("option", null, GAME_NAME[g]); o.value = g; game.appendChild(o); }
    game.value = c.game; field("Game", game);
    const structure = el("select"); structure.name = "structure";
    for (const g of ["fixed-limit", "pot-limit", "no-limit"]) { const o = el("option", null, g); o.value = g; structure.appendChild(o); }
    structure.value = c.structure; field("Betting", structure);
    for (const [k, label] of [["ante", "Ante"], ["small_bet", "Small bet"], ["big_bet", "Big bet"]]) {
      const i = el("input"); i.type = "number"; i.name = k; i.min = 0; i.value = c[k]; i.inputMode = "numeric"; field(label, i);
    }
    const apply = el("button", "small", "Change"); apply.type = "submit"; apply.dataset.host = "config";
    form.appendChild(apply);
    if (t.config_next) form.appendChild(el("span", "hint", "Changes apply at the next deal."));
    form.onsubmit = (ev) => {
      ev.preventDefault();
      const changes = { game: game.value, structure: structure.value };
      for (const k of ["ante", "small_bet", "big_bet"]) changes[k] = Number(form.elements[k].value);
      send({ type: "host", op: "config", config: changes });
      document.activeElement && document.activeElement.blur();
    };
    box.appendChild(form);
  }

  // ------------------------------------------------------------------ chat
  function renderChat() {
    const list = $("chat-lines");
    list.innerHTML = "";
    for (const line of chatLines) {
      if (muted.has(line.seat)) continue;
      const li = el("li", "chat-line");
      li.dataset.id = line.id;
      li.appendChild(el("b", "chat-name", line.name));
      li.appendChild(el("span", "chat-text", line.text));   // text, never HTML
      if (state && line.seat !== state.you.seat) {
        const m = el("button", "link mute", "mute"); m.type = "button"; m.dataset.seat = line.seat;
        m.onclick = () => { muted.add(line.seat); saveMuted(); renderChat(); };
        li.appendChild(m);
      }
      list.appendChild(li);
    }
    list.scrollTop = list.scrollHeight;
    const mutedBox = $("chat-muted");
    mutedBox.innerHTML = "";
    if (muted.size) {
      mutedBox.appendChild(document.createTextNode("Muted: "));
      for (const s of muted) {
        const b = el("button", "link unmute", (state ? seatName(state.table, s) : "seat " + s) + " (unmute)");
        b.type = "button"; b.dataset.seat = s;
        b.onclick = () => { muted.delete(s); saveMuted(); renderChat(); };
        mutedBox.appendChild(b);
      }
    }
  }
  function saveMuted() { store.set("rollem_mute_" + tid, JSON.stringify([...muted])); }
  function renderChatInput(me) {
    const seated = me.seat !== null;
    $("chat-form").classList.toggle("hidden", !seated);
    $("chat-watch").classList.toggle("hidden", seated);
    $("chat-send").disabled = !online;
  }
  $("chat-form").onsubmit = (ev) => {
    ev.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    if (send({ type: "chat", text: text })) $("chat-text").value = "";
  };

  // ----------------------------------------------------------------- ledger
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

  function actionText(t, e) {
    const who = e.seat !== null && e.seat !== undefined ? seatName(t, e.seat) : "";
    const words = { deal_hole: "is dealt", deal_up: "is dealt face up", pool_draw: "draws from the pool",
      draw_deal: "gets", stacked: "stacks", cc: "calls" };
    const cards = e.cards ? " " + e.cards.join(" ") : e.card ? " " + e.card : "";
    let amount = "";
    if (e.kind === "raise" || e.kind === "bet") amount = " to " + (e.to !== undefined ? e.to : e.amount);
    else if (e.amount !== undefined) amount = " " + e.amount;
    const count = e.count !== undefined && !e.cards ? " " + e.count + " card" + (e.count === 1 ? "" : "s") : "";
    const side = e.side ? " " + e.side : "";
    const desc = e.description ? ": " + e.description : "";
    return (who ? who + " " : "") + (words[e.kind] || e.kind.replace(/_/g, " ")) + amount + count + side + cards + desc;
  }
  function renderLog(hand) {
    const box = $("log");
    box.innerHTML = "";
    if (!hand) return;
    for (const e of hand.events.slice(-60)) box.appendChild(el("li", null, actionText(state.table, e)));
  }

  // ----------------------------------------------------------- the replayer
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
        b.type = "button";
        b.dataset.hand = h.hand;
        b.onclick = () => openReplay(h.hand);
        li.appendChild(b);
        list.appendChild(li);
      }
    } catch (e) { /* the next state will retry */ }
  }
  function handLink(n) { return location.origin + "/t/" + tid + "#hand=" + n; }
  function openLinkedHand() {
    const m = /hand=(\d+)/.exec(location.hash);
    if (m) openReplay(Number(m[1]));
  }
  window.addEventListener("hashchange", openLinkedHand);

  async function openReplay(n) {
    const resp = await fetch("/api/tables/" + tid + "/hands/" + n, { credentials: "same-origin" });
    const body = await resp.json();
    if (!resp.ok) { toast(body.message); return; }
    replay = { data: body, i: 0 };
    const dl = $("replay-download");
    dl.href = "/api/tables/" + tid + "/hands/" + n + "/history.toml";
    dl.classList.toggle("hidden", body.seat === null);
    $("replay-link").href = handLink(n);
    $("replay").classList.remove("hidden");
    showFrame();
  }
  function showFrame() {
    const f = replay.data.frames[replay.i];
    // A frame's event log is the first events_n of the hand's (sent once: the log only grows).
    if (!f.events) f.events = (replay.data.events || []).slice(0, f.events_n || 0);
    // The seats as they were in this hand: its players' names (from its history), not
    // those of whoever sits there now.
    const names = replay.data.names || [];
    const t = { ...state.table, seats: state.table.seats.map((s, i) => (f.seats[i] && f.seats[i].dealt
      ? { ...s, free: false, name: names[i] || s.name || "seat " + i } : { ...s, free: true })) };
    const last = replay.data.frames.length - 1;
    $("replay-pos").textContent = "Hand " + replay.data.hand + " · step " + replay.i + " of " + last;
    $("replay-prev").disabled = replay.i === 0;
    $("replay-next").disabled = replay.i === last;
    const la = f.last_action;
    $("replay-what").textContent = la ? seatName(t, la.seat) + ": " + la.kind
      + (la.amount !== undefined ? " " + la.amount : "") + (la.to !== undefined ? " to " + la.to : "")
      + (la.cards ? " " + la.cards.join(" ") : "") + (la.card ? " " + la.card : "")
      + (la.side ? " " + la.side : "") + (la.count !== undefined ? " " + la.count + " cards" : "")
      : "the deal";
    // Pot and stacks at this step, from the frame itself.
    const stacks = $("replay-stacks");
    stacks.innerHTML = "";
    stacks.appendChild(el("span", "stacks-label", "stacks:"));
    f.seats.forEach((s, i) => {
      if (!s.dealt) return;
      stacks.appendChild(el("span", "replay-stack", seatName(t, i) + " " + s.stack));
    });
    const fake = t.seats.map((s) => (s.free ? s : { ...s, acting: false, deadline: null }));
    const viewer = replay.data.seat;
    renderSeats($("replay-seats"), { ...t, seats: fake }, f, -1, true);
    renderCenter($("replay-center"), f);
    const res = $("replay-result");
    res.innerHTML = "";
    if (f.result) res.appendChild(describeResult(t, f.result, f, viewer));
  }
  $("replay-copy").onclick = () => {
    const link = $("replay-link").href;
    if (navigator.clipboard) navigator.clipboard.writeText(link).then(() => toast("Link copied: " + link), () => toast(link));
    else toast(link);
  };

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
  // The computer players seated now and their levels (each seat has its own; the
  // level the table was created with may no longer be any seat's).
  function botRows(t, botLevels) {
    if (!t) return [];  // (no state yet: nothing known of the seats)
    const bots = t.seats.filter((s) => !s.free && s.bot);
    if (!bots.length) return [["Computer players", "none at this table"]];
    const levels = [...new Set(bots.map((s) => s.bot))];
    const said = (level) => level + ((botLevels || {})[level] ? ": " + botLevels[level] : "");
    if (levels.length === 1) return [["Computer players' level", said(levels[0])]];
    return levels.map((level) => ["Computer players' level", said(level) + " (" +
      bots.filter((s) => s.bot === level).map((s) => s.name).join(", ") + ")"]);
  }
  function optionRows(c, botLevels, t) {
    const yes = (v) => (v ? "yes" : "no");
    const h = c.house || {};
    const dflt = (k, d) => (h[k] === undefined ? d : h[k]);
    return [
      ["Game", GAME_NAME[c.game] || c.game],
      ["Betting", c.structure],
      ["Ante", c.ante], ["Small bet", c.small_bet], ["Big bet", c.big_bet],
      ["Starting stack", c.stack], ["Rebuys", yes(c.rebuys)],
      ...botRows(t, botLevels),
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
      // The HTML comes from markdown-it-py with raw HTML off (server/markdown.py).
      d.innerHTML = body.decision_help ? "<h3>Your decision now</h3>" + body.decision_help : "";
      const tbl = $("rules-options");
      tbl.innerHTML = "";
      for (const [k, v] of optionRows(body.config, body.bot_levels, state && state.table)) {
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
  $("replay").onclick = (ev) => { if (ev.target === $("replay")) closeReplay(); };
  function closeReplay() {
    $("replay").classList.add("hidden");
    if (/hand=/.test(location.hash)) history.replaceState(null, "", location.pathname);
  }
  $("replay-prev").onclick = () => { if (replay.i > 0) { replay.i--; showFrame(); } };
  $("replay-next").onclick = () => { if (replay.i < replay.data.frames.length - 1) { replay.i++; showFrame(); } };
  $("replay-close").onclick = closeReplay;
  document.addEventListener("keydown", (ev) => {
    if ($("replay").classList.contains("hidden")) return;
    if (ev.key === "ArrowLeft") $("replay-prev").click();
    else if (ev.key === "ArrowRight") $("replay-next").click();
    else if (ev.key === "Escape") closeReplay();
  });

  // ------------------------------------------------------------ host start
  $("start-btn").onclick = () => send({ type: "start", seq: state ? state.seq : 0 });
  $("copy-invite").onclick = () => { $("invite-link").select(); navigator.clipboard && navigator.clipboard.writeText($("invite-link").value); };
  connect();
})();
