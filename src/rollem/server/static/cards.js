// An ES module (the table page's modules import it).
// Card drawing: rank + suit symbol, red hearts and diamonds, blue-green backs.
export const SUIT_SYMBOL = { c: "♣", d: "♦", h: "♥", s: "♠" };
export const SUIT_NAME = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
export const RANK_TEXT = { T: "10" };
export const RANK_NAME = { 2: "twos", 3: "threes", 4: "fours", 5: "fives", 6: "sixes", 7: "sevens",
  8: "eights", 9: "nines", T: "tens", J: "jacks", Q: "queens", K: "kings", A: "aces" };
export const GAME_NAME = {
  sdr: "Stop, Drop and Roll", rollyourown: "Five Card Roll Your Own",
  rollem521: "5-2-1 Roll 'Em", "dealers-choice": "Dealer's choice",
};

export function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

// One card: text like "Qh", or null for a card back. opts: {up, small, wild}
export function cardEl(card, opts) {
  opts = opts || {};
  if (!card) {
    const back = el("span", "card back" + (opts.small ? " small" : ""));
    back.setAttribute("role", "img");
    back.setAttribute("aria-label", "face-down card");
    back.dataset.card = "back";
    return back;
  }
  const rank = card[0], suit = card[1];
  const red = suit === "h" || suit === "d";
  const e = el("span", "card " + (red ? "red" : "black") + (opts.small ? " small" : "")
    + (opts.up ? " up" : "") + (opts.wild ? " wild" : ""));
  e.dataset.card = card;
  e.setAttribute("role", "img");
  e.setAttribute("aria-label", (RANK_TEXT[rank] || rank) + " of " + SUIT_NAME[suit]);
  e.appendChild(el("span", "rank", RANK_TEXT[rank] || rank));
  e.appendChild(el("span", "suit", SUIT_SYMBOL[suit]));
  if (opts.wild) {
    e.appendChild(el("span", "wild-mark", "W"));
    e.setAttribute("aria-label", e.getAttribute("aria-label") + " (wild)");
  }
  return e;
}

export function cardsRow(cards, opts) {
  const row = el("span", "cards");
  for (const c of cards) row.appendChild(cardEl(c, opts));
  return row;
}
